"""Planted verifiers whose verdicts would depend on when or in which process they run: validation runs them at
the task's clock with a fixed hash seed, so each gives one verdict, the same in every run (real app, browser, sandbox)."""

from __future__ import annotations

import subprocess

from factory.verifiers.validate import validate_task
from runtime.confine import CONFINED_PYTHON
from runtime.sandbox import HASH_SEED
from tests.factory.test_validate import FAST, GOOD_VERIFIER, _task

CLOCK = "2031-03-02T10:00:00"  # years after the machine's date


def test_a_verifier_that_reads_the_wall_clock_is_judged_at_the_tasks_clock(manager):
    """Correct only once the task's day has come: at the machine's own date the golden run would fail."""
    verifier = "from datetime import datetime\n" + GOOD_VERIFIER.replace(
        "'pinned': 3 in after", "'pinned': datetime.now() >= datetime(2031, 3, 2) and 3 in after")
    result = validate_task(_task(verifier=verifier).model_copy(update={"clock": CLOCK}), manager, FAST)
    assert result.accepted, (result.reason, result.detail)
    assert result.verdicts["run1.golden"]["pinned"] is True and result.verdicts["run1.initial"]["pinned"] is False


def test_a_verdict_that_depends_on_set_order_is_the_same_in_every_run(manager):
    words = "{'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'}"
    first = subprocess.run([CONFINED_PYTHON, "-c", f"print(next(iter({words})))"], capture_output=True, text=True,
                           env={"PYTHONHASHSEED": HASH_SEED}, check=True).stdout.strip()
    verifier = GOOD_VERIFIER.replace("'pinned': 3 in after", f"'pinned': next(iter({words})) == {first!r} and 3 in after")
    result = validate_task(_task(verifier=verifier), manager, FAST)
    assert result.accepted, (result.reason, result.detail)  # random seeds: another first word, or two runs disagreeing
