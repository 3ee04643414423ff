"""The public scoring path for test authors: `gymfactory.solve_and_score` runs a `solve(env)` program on a real task
in a real session and scores it as a rollout; `gymfactory.judge` scores a changed final, footprint guard included."""

from __future__ import annotations

from pathlib import Path

import gymfactory
from contracts.scoring import GUARD_CRITERION
from contracts.taskfiles import load_tasks
from factory.verifiers.footprint import record
from runtime.manager import EnvironmentManager

TASK = Path(__file__).resolve().parents[2] / "mocked_apps" / "mail" / "tasks" / "star-expenses-january.json"
NOTHING = "def solve(env):\n    pass\n"


def test_the_golden_solve_scores_1_doing_nothing_0_and_a_changed_final_meets_the_guard():
    [task] = load_tasks(TASK)
    with EnvironmentManager() as manager:
        golden = gymfactory.solve_and_score(task, task.golden, manager=manager)
        assert (golden.outcome.status, golden.outcome.reward, golden.outcome.success) == ("success", 1.0, True)
        assert golden.actions and golden.final.state != golden.final.initial_state
        assert gymfactory.judge(task, golden.final).verdicts == golden.outcome.verdicts  # the rollout's own verdict

        # the task as validation accepts it: with the footprint of its golden run and the criteria met at the start
        start = golden.final.model_copy(update={"state": golden.final.initial_state})
        met = [c for c, ok in gymfactory.judge(task, start).verdicts.items() if ok]
        assert met == ["others_intact"]
        accepted = task.model_copy(update={"footprint": record(start.state, golden.final.state, task.apps, met_at_start=met)})
        nothing = gymfactory.solve_and_score(accepted, NOTHING, manager=manager)
    assert (nothing.outcome.status, nothing.outcome.reward, nothing.actions) == ("failure", 0.0, ())
    assert gymfactory.judge(accepted, golden.final).reward == 1.0

    # a change outside the footprint costs the whole reward before the verifier runs, even one this verifier never
    # reads (a message's text edited)
    state = golden.final.state
    messages = [{**m, "body": m["body"] + " (edited)"} if i == 0 else m for i, m in enumerate(state["mail"]["message"])]
    changed = golden.final.model_copy(update={"state": {"mail": {**state["mail"], "message": messages}}})
    assert gymfactory.judge(task, changed).reward == 1.0  # without a footprint the verifier alone pays
    guarded = gymfactory.judge(accepted, changed)
    assert (guarded.reward, guarded.success, guarded.verdicts) == (0.0, False, {GUARD_CRITERION: False})
    assert guarded.collateral
