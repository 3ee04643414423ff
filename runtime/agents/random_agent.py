"""`random`: a seeded agent that takes random valid actions on the page's element ids (a floor to beat)."""

from __future__ import annotations

import random

from contracts.task import Task
from runtime.actions import Back, Click, Fill, Scroll, format_action
from runtime.agents.base import AgentOptions
from runtime.axtree import parse_axtree
from runtime.harness import Prompt
from runtime.observation import Observation

_TEXTBOX = {"textbox", "searchbox", "combobox", "spinbutton"}
_WORDS = ("hello", "test", "note", "2026", "ok", "meeting", "invoice", "lorem")


class RandomAgent:
    """Mostly clicks a random element; sometimes fills a text box, scrolls or goes back. Seeded per task."""

    name = "random"
    model = None
    vision = False
    baseline = True  # a floor for the pipeline's difficulty filter

    def __init__(self, options: AgentOptions):
        self.seed = options.seed
        self._rng = random.Random(self.seed)

    def reset(self, task: Task) -> None:
        self._rng = random.Random(f"{self.seed}:{task.id}")

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        rng = self._rng
        nodes = [n for n in parse_axtree(observation.axtree) if n.id is not None]
        boxes = [n for n in nodes if n.role in _TEXTBOX]
        roll = rng.random()
        if boxes and roll < 0.2:
            action = Fill(element=rng.choice(boxes).id, text=rng.choice(_WORDS))
        elif nodes and roll < 0.85:
            action = Click(element=rng.choice(nodes).id)
        elif roll < 0.93:
            action = Scroll(dx=0, dy=rng.choice((-400, 400)))
        else:
            action = Back()
        return format_action(action)

    def close(self) -> None:
        pass
