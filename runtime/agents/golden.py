"""`golden`: replays the task's golden code (the oracle), one agent action per step.

The golden agent is the one driver of golden code. In rollouts it runs inside the shared agent loop
(`runtime.rollout.run_attempt`, which records a demonstration); validation, which needs no prompts
and no trajectory, drives the same agent with `play` through the session's public `step`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from contracts.task import Task
from runtime.agents.base import AgentFailed, AgentOptions
from runtime.golden import GoldenFailed, GoldenRunner
from runtime.harness import Prompt
from runtime.observation import Observation

if TYPE_CHECKING:
    from runtime.session import Session

__all__ = ["GoldenAgent", "GoldenTooLong", "play", "replays"]


class GoldenTooLong(RuntimeError):
    """The golden code asked for more actions than allowed."""


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
        self._runner = GoldenRunner(task.golden, apps=task.apps, timeout_s=self.options.golden_timeout_s, variant=task.variant)

    def next_action(self, observation: Observation) -> str | None:
        """The golden code's next action on this observation, None when it has returned; GoldenFailed when it failed."""
        if self._runner is None:
            raise RuntimeError("GoldenAgent.next_action before reset")
        return self._runner.next_action(observation)

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        try:
            return self.next_action(observation)
        except GoldenFailed as err:
            raise AgentFailed(str(err)) from err

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None


def play(session: "Session", task: Task, observation: Observation, *, timeout_s: float, max_steps: int,
         action_id: Callable[[int], str | None] = lambda _i: None, actions: list[str] | None = None,
         observed: list[Observation] | None = None, ended: list[Observation] | None = None) -> list[str]:
    """Drive `task`'s golden code through `session.step` from `observation` until it returns or the episode ends.

    Returns the actions taken (also appended to `actions` as they happen, so a caller still has them
    when GoldenFailed or GoldenTooLong is raised); `observed`, if given, gets the observation each
    action was chosen on (a demonstration), and `ended` the observation it ended on. `action_id(i)` names the
    i-th step (idempotent retries).
    """
    taken = actions if actions is not None else []
    seen = observed if observed is not None else []
    agent = GoldenAgent(AgentOptions(golden_timeout_s=timeout_s))
    agent.reset(task)
    try:
        while not observation.done:
            action = agent.next_action(observation)
            if action is None:
                break
            if len(taken) >= max_steps:
                raise GoldenTooLong(f"the golden code took more than {max_steps} actions")
            taken.append(action)
            seen.append(observation)
            observation = session.step(action, action_id=action_id(len(taken)))
    finally:
        agent.close()
    if ended is not None:
        ended.append(observation)
    return taken


def replays(task: Task, observed: list[Observation], actions: list[str], ended: Observation, *, timeout_s: float) -> str | None:
    """Whether `task`'s golden code, handed the observations a run of it was handed (`observed`, then `ended`),
    asks for the same `actions` and then returns: None when it does, else what it did instead.

    The golden code's half of a second golden run, without a browser: given the same pages, the same code
    must act the same (a solve() that draws at random or reads the wall clock does not)."""
    agent = GoldenAgent(AgentOptions(golden_timeout_s=timeout_s))
    agent.reset(task)
    try:
        for i, (obs, expected) in enumerate(zip([*observed, ended], [*actions, None])):
            if expected is None and obs.done:
                return None  # the episode ended with the last action (an answer): nothing more was asked
            got = agent.next_action(obs)
            if got != expected:
                return f"step {i + 1}: {got or 'returned'} where the first run took {expected or 'nothing more'}"
    except GoldenFailed as err:
        return f"failed where the first run did not: {err}"
    finally:
        agent.close()
    return None
