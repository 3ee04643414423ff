"""Run a `solve(env)` program on a task and judge where it ends: what a test author needs, on the rollouts' path.

    from contracts.taskfiles import load_tasks
    from runtime.solve import solve_and_score

    [task] = load_tasks("mocked_apps/mail/tasks/star-expenses-january.json")
    assert solve_and_score(task, task.golden).outcome.reward == 1.0
    assert solve_and_score(task, "def solve(env):\n    pass\n").outcome.reward == 0.0

The program runs as validation runs golden code (`runtime.agents.golden.play`: sandboxed, each action through
the session's `step`), and the session scores it as a rollout is scored (`Session.evaluate`, i.e. `judge`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from contracts.scoring import Final
from contracts.task import Task
from runtime.agents.golden import play
from runtime.manager import EnvironmentManager
from runtime.session import Outcome, SessionSpec

__all__ = ["Solved", "solve_and_score"]


class Solved(BaseModel):
    """A program's attempt at a task: its score, where it ended (to change and `judge` again) and what it did."""

    model_config = ConfigDict(frozen=True)

    outcome: Outcome = Field(description="The rollouts' verdict: status, reward, success and each criterion's verdict.")
    final: Final | None = Field(description="The attempt's end as the verifier saw it; None if the workspace overflowed.")
    actions: tuple[str, ...] = Field(description="The actions the program took, in order.")


def solve_and_score(task: Task, solve: str, *, manager: EnvironmentManager | None = None, timeout_s: float = 180.0,
                    max_steps: int = 60) -> Solved:
    """Run `solve`, source that defines `solve(env)` as a task's golden code does, on a fresh session of `task`; judge it.

    `manager`: an environment manager to reuse across calls (else one is started and closed here). The program's
    own failure raises `GoldenFailed` (or `GoldenTooLong` past `max_steps` actions), so a test shows its traceback.
    """
    attempt = task.model_copy(update={"golden": solve})
    owned = manager is None
    manager = manager or EnvironmentManager()
    try:
        session = manager.request(SessionSpec.for_task(attempt, screenshots=False))
        try:
            actions = play(session, attempt, session.reset(attempt), timeout_s=timeout_s, max_steps=max_steps)
            final = session.final()
            return Solved(outcome=session.evaluate(), final=final, actions=tuple(actions))
        finally:
            session.close()
    finally:
        if owned:
            manager.close()
