"""Golden demonstrations collected through the one rollout path, for the supervised warm-up.

The golden agent stops by returning None, which no policy can do; `DemoAgent` wraps it and, once
the golden code has finished without answering, ends the attempt with `answer("")`, so the
demonstrations also teach the policy when to stop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from contracts.task import Task
from runtime.agents.base import AgentOptions
from runtime.agents.golden import GoldenAgent
from runtime.harness import Prompt, Turn
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.observation import Observation
from runtime.rollout import AttemptResult, recorded_turns, run_attempt
from runtime.store import TrajectoryStore

STOP = 'answer("")'


class DemoAgent(GoldenAgent):
    """The golden agent, ending with `answer("")` when its code returns without having answered."""

    name = "golden"

    def reset(self, task: Task) -> None:
        super().reset(task)
        self._stopped = False

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        if self._stopped:
            return None
        action = super().act(prompt, observation)
        if action is None:
            self._stopped = True
            return STOP
        return action


@dataclass(frozen=True)
class Demo:
    """A successful golden attempt: its task and its steps as harness turns."""

    task: Task
    turns: tuple[Turn, ...]
    attempt_id: int


def collect_demos(
    tasks: Iterable[Task], manager: EnvironmentManager, store: TrajectoryStore, max_steps: int = 30
) -> tuple[list[Demo], list[AttemptResult]]:
    """One golden attempt per task via `run_attempt`; successful ones come back as demos, read from the store."""
    demos, results = [], []
    for task in tasks:
        agent = DemoAgent(AgentOptions())
        try:
            session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
            try:
                result = run_attempt(session, task, agent, store, max_steps, info={"purpose": "demo"})
            finally:
                session.close()
        finally:
            agent.close()
        results.append(result)
        if result.status == "success":
            demos.append(Demo(task, tuple(recorded_turns(store, result.attempt_id)), result.attempt_id))
    return demos, results
