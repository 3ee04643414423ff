"""`golden`: replays the task's golden code (the oracle), one agent action per step."""

from __future__ import annotations

from contracts.task import Task
from runtime.agents.base import AgentFailed, AgentOptions
from runtime.golden import GoldenFailed, GoldenRunner
from runtime.harness import Prompt
from runtime.observation import Observation


class GoldenAgent:
    """Runs `task.golden`'s solve(env) in a sandboxed child; each env call comes back as one action."""

    name = "golden"
    model = None
    vision = False

    def __init__(self, options: AgentOptions):
        self.options = options
        self._runner: GoldenRunner | None = None

    def reset(self, task: Task) -> None:
        self.close()
        self._runner = GoldenRunner(task.golden, apps=task.apps, timeout_s=self.options.golden_timeout_s)

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        if self._runner is None:
            raise RuntimeError("GoldenAgent.act before reset")
        try:
            return self._runner.next_action(observation)
        except GoldenFailed as err:
            raise AgentFailed(str(err)) from err

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None
