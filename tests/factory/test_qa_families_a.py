"""Question-answering families of bank, calendar, clinic, clips, courses, drive and food (issue 28).

Every one writes tasks in generated worlds that ask for an answer, declare a second solution and pass the review
rules; a sample of three (an amount, a name, a time), one task each, passes validation for real (real apps,
Chromium and sandbox: golden accepted, probes failed, every honest variant and the second solution paid), and on
the untouched state the honest answer scores 1 while a hedge that lists another candidate and a wrong value
score no success (the wrong value no reward at all).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from contracts.family import money
from contracts.scoring import Final
from contracts.task import Task
from factory.tasks.families import FAMILIES
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.recall import has_alternative
from factory.verifiers.review import rule_findings
from factory.verifiers.validate import ValidationConfig, accepted_task, validate_task
from runtime.judge import judge
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.objectstore import ObjectStore

ANSWER_FAMILIES = ("bank.client_payment_amount", "bank.card_spend_in_month", "bank.last_payment_date", "calendar.event_start_time",
                   "calendar.guest_count", "calendar.event_organizer", "clinic.visit_time", "clips.comment_count",
                   "courses.assignment_due_date", "courses.midterm_time", "drive.invoice_total", "food.order_total")
FAST = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)


def _hour_later(hhmm: str) -> str:
    return f"{datetime.strptime(hhmm, '%H:%M') + timedelta(hours=1):%H:%M}"


# family -> (the honest answer, a hedge naming a second candidate, a wrong value), each from the task's answer context
Answers = Callable[[dict], tuple[str, str, str]]
SAMPLE: dict[str, Answers] = {
    "bank.card_spend_in_month": lambda c: (c["amount_text"], f"Either {c['amount_text']} or {money(c['amount'] + 10)}",
                                           money(c["amount"] + 10)),
    "calendar.event_organizer": lambda c: (c["organizer"], f"{c['organizer']} or {c['others'][0]}", c["others"][0]),
    "clinic.visit_time": lambda c: (c["time"], f"{c['time']} or {_hour_later(c['time'])}", _hour_later(c["time"])),
}


def _one(family: str) -> Task:
    return synthesize(SynthConfig(n=1, seed=7, families=(family,)), Author())[0]


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(tmp_path_factory.mktemp("gymhome")))
    with EnvironmentManager(screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m
    mp.undo()


def test_every_answer_family_writes_tasks_that_ask_for_an_answer():
    """Three worlds each: the family is shipped, asks for an answer, carries a second solution and passes the review rules
    (no answer in the instruction)."""
    assert set(ANSWER_FAMILIES) <= set(FAMILIES)
    for name in ANSWER_FAMILIES:
        tasks = synthesize(SynthConfig(n=3, seed=3, families=(name,), tasks_per_world=1), Author())
        assert len({t.world for t in tasks}) == 3, name
        for task in tasks:
            assert "read_answer" in task.meta.capabilities and has_alternative(task), task.id
            assert "env.answer(" in task.golden and "final.answer" in task.verifier, task.id
            assert not list(rule_findings(task)), (task.id, list(rule_findings(task)))


def _untouched(manager: EnvironmentManager, task: Task) -> Final:
    """The task's state right after reset, no answer given."""
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
    try:
        session.reset(task)
        return session.final()
    finally:
        session.close()


@pytest.mark.parametrize("family", sorted(SAMPLE))
def test_answer_family_is_accepted_and_a_hedge_or_a_wrong_value_scores_nothing(manager, family):
    task = _one(family)
    result = validate_task(task, manager, FAST)
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert {"answer_form", "alternative"} <= set(result.recall_kinds) and result.recall_paid == result.recall_tried
    assert "answer_spam" in result.probe_kinds
    accepted = accepted_task(task, result)
    untouched = _untouched(manager, accepted)
    honest, hedge, wrong = SAMPLE[family](task.answer_context)
    paid = judge(accepted, untouched.model_copy(update={"answer": honest}))
    assert (paid.success, paid.reward) == (True, 1.0), paid
    hedged = judge(accepted, untouched.model_copy(update={"answer": hedge}))
    assert not hedged.success and hedged.reward < 1.0, hedged
    wronged = judge(accepted, untouched.model_copy(update={"answer": wrong}))
    assert (wronged.success, wronged.reward) == (False, 0.0), wronged
