"""Judging an attempt's final: the one scoring path of rollouts (`Session.evaluate`), public for test authors.

The footprint guard first (an accepted task carries the footprint its golden run recorded), then the task's
verifier, sandboxed and at the task's clock: `contracts.scoring.score_final` over `runtime.sandbox.run_verifier`.
Validation scores each phase with the same two (calling the verifier twice per phase, to catch flaky verdicts).
"""

from __future__ import annotations

from contracts.scoring import Final, Score, VerdictError, score_final
from contracts.task import Task
from runtime.sandbox import run_verifier

__all__ = ["judge"]


def judge(task: Task, final: Final, *, timeout_s: float = 10.0) -> Score:
    """Score `final` (an attempt's end, e.g. `Session.final()`, changed or not) as a rollout of `task` is scored.

    Raises `VerdictError` when the verifier gives no verdicts (it crashed, timed out or returned something else);
    a rollout records that as an env_error, never as a zero reward.
    """

    def verdicts() -> dict[str, bool]:  # run only when the footprint guard passes
        run = run_verifier(task.verifier, final, timeout_s=timeout_s, clock=task.clock)
        if run.error is not None or run.verdicts is None:
            raise VerdictError(run.error or "no verdicts")
        return run.verdicts

    return score_final(task, final, verdicts)
