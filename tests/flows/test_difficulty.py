"""Measured difficulty (flows.difficulty.judge): pass rates of model agents label, drop and flag tasks; the oracle never
counts, and env errors are no evidence."""

from __future__ import annotations

from pathlib import Path

from contracts.task import difficulty_of
from contracts.taskfiles import load_tasks
from flows.difficulty import judge
from runtime.rollout import AttemptResult

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"


def _tasks():
    tasks = load_tasks(TASKS)
    assert len({t.meta.family for t in tasks}) >= 3, [t.meta.family for t in tasks]
    return tasks


def _attempts(agent: str, task_id: str, outcomes: str) -> list[AttemptResult]:
    """One result per letter: s success, f failure, e env_error."""
    status = {"s": "success", "f": "failure", "e": "env_error"}
    return [AttemptResult(task_id=task_id, agent=agent, attempt_id=i, status=status[c], success=c == "s", reward=float(c == "s"))
            for i, c in enumerate(outcomes)]


def test_pass_rates_label_the_family_and_a_k_of_k_solve_is_too_easy():
    tasks = _tasks()
    a, b, c = tasks[0], tasks[1], next(t for t in tasks if t.meta.family != tasks[0].meta.family and t.meta.family != tasks[1].meta.family)
    by_agent = {
        "golden": [r for t in tasks for r in _attempts("golden", t.id, "s")],  # the oracle solves all: no evidence of ease
        "reference": _attempts("reference", a.id, "ss") + _attempts("reference", b.id, "sf") + _attempts("reference", c.id, "ff"),
    }
    verdict = judge(tasks, by_agent, ["reference"], easy_above=0.5)
    kept = {t.id: t for t in verdict.tasks}
    assert a.id in verdict.too_easy and a.id not in kept  # solved 2/2
    assert kept[b.id].meta.difficulty_source == "measured"
    own = next(m for m in kept[b.id].meta.measured if m.scope == "task")
    assert (own.k, own.pass_at_1, own.pass_at_k) == (2, 0.5, 1.0)
    assert kept[c.id].meta.difficulty == "hard" and c.id in verdict.unsolved and b.id not in verdict.unsolved
    rows = {(r["agent"], r["family"]): r for r in verdict.families}
    assert rows[("reference", c.meta.family)]["pass@k"] == 0.0
    unmeasured = [t for t in verdict.tasks if t.meta.family not in {a.meta.family, b.meta.family, c.meta.family}]
    assert unmeasured and all(t.meta.difficulty_source == "declared" and not t.meta.measured for t in unmeasured)


def test_env_errors_are_no_evidence_and_one_success_is_not_too_easy():
    tasks = _tasks()
    t = tasks[0]
    verdict = judge(tasks, {"reference": _attempts("reference", t.id, "se"), "random": _attempts("random", t.id, "e")},
                    ["reference"], easy_above=0.5)
    assert t.id not in verdict.too_easy and t.id not in verdict.unsolved  # one scored attempt is no k/k, and it was solved
    kept = next(x for x in verdict.tasks if x.id == t.id)
    assert kept.meta.difficulty == "easy" and kept.meta.measured[0].k == 1


def test_the_random_baseline_still_drops_what_it_solves_too_often():
    tasks = _tasks()
    t = tasks[0]
    verdict = judge(tasks, {"random": _attempts("random", t.id, "ssf")}, [], easy_above=0.5)
    assert verdict.too_easy == (t.id,) and not verdict.families
    failed = tasks[1]
    verdict = judge(tasks, {"random": _attempts("random", failed.id, "ff")}, [], easy_above=0.5)
    assert not verdict.unsolved  # the random agent failing says nothing: only a model's attempts flag a task


def test_labels_follow_pass_at_1():
    assert [difficulty_of(p) for p in (0.0, 0.1, 0.49, 0.5, 1.0)] == ["hard", "medium", "medium", "easy", "easy"]
