"""Look-up families answered in text (issue 28), second batch: mail, notes, projects, rail, reviews, ride, shop, travel.

Every family of the batch writes tasks that ask for an answer, with a second solution, the kit's matcher in their
verifier and no finding of the review rules (cheap, no browser). A sample of three (an amount, a time, a count), one
task each, passes validation for real (golden run, probes, recall with the second solution played in the browser);
then, on the app's untouched state, the honest answer scores 1 while doing nothing, a wrong value and a list of
candidate values all fail, the wrong value with no reward at all.
"""

from __future__ import annotations

import re

import pytest

from contracts.family import ALTERNATIVE
from factory.tasks.families import FAMILIES
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.review import rule_findings
from factory.verifiers.validate import ValidationConfig, accepted_task, validate_task
from mocked_apps.kit.answers import VERIFIER_SOURCE
from runtime.judge import judge
from runtime.manager import EnvironmentManager, Lease, SessionSpec

BATCH = ("mail.invoice_amount", "mail.invoice_sender", "notes.note_author", "notes.comment_count", "projects.open_task_count",
         "projects.task_due_date", "rail.train_departure", "rail.cheapest_fare", "reviews.closing_time", "ride.last_ride_cost",
         "shop.order_arrival", "travel.flight_departure", "travel.hotel_checkout")
FAST = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)


def _shifted(hhmm: str) -> str:
    h, m = (int(x) for x in hhmm.split(":"))
    return f"{(h + 1) % 24:02d}:{m:02d}"


# family -> (the honest answer, a wrong value, a list of candidates that holds the right one), each from the task's answer context
CHEATS = {
    "mail.invoice_amount": (lambda c: f"The total is {c['amount']:,.2f} {c['currency']}.", lambda c: f"{c['amount'] + 1:,.2f} {c['currency']}",
                            lambda c: ", ".join(f"{c['amount'] * k:,.2f} {c['currency']}" for k in (0.5, 1, 2))),
    "rail.train_departure": (lambda c: f"At {c['depart']}", lambda c: _shifted(c["depart"]),
                             lambda c: ", ".join(["06:10", "07:00", "08:20", "09:30", "13:15", "15:05", "17:40", "19:45", c["depart"]])),
    "projects.open_task_count": (lambda c: f"{c['count']} tasks", lambda c: str(c["count"] + 1), lambda c: ", ".join(str(n) for n in range(1, 13))),
}


def _one(family: str, seed: int = 7):
    tasks = synthesize(SynthConfig(n=1, seed=seed, families=(family,)), Author())
    assert tasks, f"{family} wrote no task"
    return tasks[0]


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(tmp_path_factory.mktemp("gymhome")))
    with EnvironmentManager() as m:
        yield m
    mp.undo()


def test_every_family_of_the_batch_asks_for_an_answer_with_a_second_solution():
    for name in BATCH:
        family = FAMILIES[name]
        assert "read_answer" in family.capabilities, name
        for seed in (1, 2):
            task = _one(name, seed)
            assert re.search(rf"^def {ALTERNATIVE}\(", task.golden, re.M), name
            assert task.verifier.startswith(VERIFIER_SOURCE) and "answer_matches(final.answer" in task.verifier, name
            assert "env.answer(" in task.golden.split(f"def {ALTERNATIVE}(")[0], name
            assert not list(rule_findings(task)), (task.id, list(rule_findings(task)))


@pytest.mark.parametrize("family", sorted(CHEATS))
def test_a_sampled_family_is_accepted_and_its_cheats_fail(manager, family):
    task = _one(family)
    result = validate_task(task, manager, FAST)
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert {"answer_form", "alternative"} <= set(result.recall_kinds)
    assert result.recall_paid == result.recall_tried and not result.recall_refused
    accepted = accepted_task(task, result)
    session = manager.request(SessionSpec.for_task(accepted, screenshots=False), Lease(seconds=300))
    try:
        session.reset(accepted)
        untouched = session.final()
    finally:
        session.close()
    honest, wrong, listed = (answer(accepted.answer_context) for answer in CHEATS[family])
    paid = judge(accepted, untouched.model_copy(update={"answer": honest}))
    assert (paid.success, paid.reward) == (True, 1.0), (honest, paid)
    nothing = judge(accepted, untouched)
    assert (nothing.success, nothing.reward) == (False, 0.0), nothing
    wrong_score = judge(accepted, untouched.model_copy(update={"answer": wrong}))
    assert (wrong_score.success, wrong_score.reward) == (False, 0.0), (wrong, wrong_score)
    listed_score = judge(accepted, untouched.model_copy(update={"answer": listed}))
    assert not listed_score.success and not all(listed_score.verdicts.values()), (listed, listed_score)
