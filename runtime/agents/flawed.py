"""`flawed-<capability>`: the golden oracle with one planted weakness, to check that diagnosis finds it.

Each agent replays the task's golden code, like `golden`, but gets one kind of step wrong the way a
weak agent would: it misspells search queries, never presses a final "Confirm ..." button, types
dates a day off, always picks the first option of a drop-down, or never leaves the first app it
opens. Everything else it does right, so its failures point at one capability. These agents are
hidden (test-only): they exist to measure the diagnoser's precision, not to be rolled out by users.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar

from contracts.task import Task
from runtime import launcher
from runtime.actions import ActionParseError, Click, Fill, Select, format_action, parse_action
from runtime.agents.base import AgentFailed, AgentOptions
from runtime.axtree import AxNode, parse_axtree
from runtime.dashboard.events import in_app_dock
from runtime.golden import GoldenFailed, GoldenRunner
from runtime.harness import Prompt
from runtime.observation import Observation

__all__ = ["FLAWS", "FlawedAgent", "misspell"]

_SKIP = object()  # the flawed agent leaves this golden step out
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PLACEHOLDER = re.compile(r"^(choose|select|pick|--|—|$)", re.IGNORECASE)


def misspell(text: str) -> str:
    """Swap the second and third letter of every word of four or more characters ("Invoice" -> "Ivnoice")."""
    return " ".join(w[0] + w[2] + w[1] + w[3:] if len(w) >= 4 else w for w in text.split(" "))


def _node(obs: Observation, element: int) -> tuple[AxNode | None, list[AxNode]]:
    nodes = parse_axtree(obs.axtree)
    return next((n for n in nodes if n.id == element), None), nodes


class FlawedAgent:
    """The golden replay with one planted weakness; subclasses name the flaw and bend the matching steps."""

    flaw: ClassVar[str]
    model = None
    vision = False

    def __init__(self, options: AgentOptions):
        self.options = options
        self.name = f"flawed-{self.flaw}"
        self._runner: GoldenRunner | None = None

    def reset(self, task: Task) -> None:
        self.close()
        self._runner = GoldenRunner(task.golden, apps=task.apps, timeout_s=self.options.golden_timeout_s, variant=task.variant)

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        if self._runner is None:
            raise RuntimeError("FlawedAgent.act before reset")
        while True:
            try:
                text = self._runner.next_action(observation)
            except GoldenFailed as err:  # the flaw led the oracle astray: the attempt is scored as it stands
                raise AgentFailed(str(err)) from err
            if text is None:
                return None
            try:
                action = parse_action(text)
            except ActionParseError:
                return text
            bent = self.bend(action, observation)
            if bent is _SKIP:
                continue  # the runner takes the unchanged page as that step's result
            return None if bent is None else format_action(bent)

    def bend(self, action, obs: Observation):
        """The action the weak agent takes instead: the same one, another one, None (it stops) or _SKIP."""
        return action

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None


class MisspellsSearch(FlawedAgent):
    """search: types every search query with two letters swapped, so the search finds nothing."""

    flaw = "search"

    def bend(self, action, obs):
        if isinstance(action, Fill):
            node, _ = _node(obs, action.element)
            if node is not None and node.role == "searchbox":
                return Fill(element=action.element, text=misspell(action.text))
        return action


class NeverConfirms(FlawedAgent):
    """confirm: fills and reviews everything, then stops at the "Confirm ..." button without pressing it."""

    flaw = "confirm"

    def bend(self, action, obs):
        if isinstance(action, Click) and action.element is not None:
            node, _ = _node(obs, action.element)
            if node is not None and node.role == "button" and node.name.lower().startswith("confirm"):
                return None
        return action


class DatesOffByOne(FlawedAgent):
    """date_time: types every date one day late."""

    flaw = "date_time"

    def bend(self, action, obs):
        if isinstance(action, Fill) and _DATE.match(action.text.strip()):
            return Fill(element=action.element, text=(date.fromisoformat(action.text.strip()) + timedelta(days=1)).isoformat())
        return action


class FirstOption(FlawedAgent):
    """select_option: always picks the first real option of a drop-down, whatever it was asked to pick."""

    flaw = "select_option"

    def bend(self, action, obs):
        if isinstance(action, Select):
            node, _ = _node(obs, action.element)
            options = str(node.attrs.get("options", "")) if node is not None else ""
            real = [o.strip() for o in options.split(" | ") if not _PLACEHOLDER.match(o.strip())]
            if real:
                return Select(element=action.element, value=real[0])
        return action


class StaysInOneApp(FlawedAgent):
    """cross_app: opens the first app from the launcher and never switches to another one."""

    flaw = "cross_app"

    def bend(self, action, obs):
        if isinstance(action, Click) and action.element is not None and not obs.url.startswith(launcher.LAUNCHER_URL):
            _, nodes = _node(obs, action.element)
            if in_app_dock(nodes, action.element):
                return _SKIP
        return action


FLAWS: dict[str, type[FlawedAgent]] = {cls.flaw: cls for cls in (MisspellsSearch, NeverConfirms, DatesOffByOne, FirstOption, StaysInOneApp)}
"""Planted weakness -> the agent that has it; each is registered (hidden) as agent `flawed-<flaw>`."""
