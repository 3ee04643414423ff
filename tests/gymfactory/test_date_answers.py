"""Date look-ups as a test author meets them (issue 41), through `gymfactory.judge` and `gymfactory.solve_and_score`.

Every date family of the default run pays a date written without a comma, refuses a hedge between two dates, and
gives the same verdict wherever its verifier runs: confined at the task's clock, confined at another clock (a
consumer's harness, a task read a year later), or executed in this very process on the machine's real today.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

import gymfactory
from contracts.scoring import Final
from factory.tasks.families import FAMILIES
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from runtime.manager import EnvironmentManager

DATE_FAMILIES = ("bank.last_payment_date", "courses.assignment_due_date", "drive.invoice_due_date", "projects.task_due_date",
                 "shop.order_arrival", "travel.hotel_checkout")
TASKS = {t.meta.family: t for t in synthesize(SynthConfig(n=len(DATE_FAMILIES), seed=41, families=DATE_FAMILIES), Author())}


def _due(task) -> date:
    return date.fromisoformat(task.answer_context[FAMILIES[task.meta.family].answer.key])


def _said(task, answer: str) -> dict[str, bool]:
    return gymfactory.judge(task, Final(state={}, initial_state={}, answer=answer)).verdicts


@pytest.mark.parametrize("family", DATE_FAMILIES)
def test_a_date_without_a_comma_is_paid_and_a_hedge_between_two_dates_is_not(family):
    task = TASKS[family]
    due = _due(task)
    other = due + timedelta(days=1)
    for honest in (f"{due:%B} {due.day} {due.year}", f"{due:%b} {due.day} {due.year}", f"{due:%A} {due:%B} {due.day} {due.year}"):
        assert all(_said(task, honest).values()), honest
    for cheat in (f"{due:%B} {due.day} or {other:%B} {other.day} {other.year}", f"{due:%b} {due.day} {due.year} or {other:%b} {other.day} {other.year}"):
        assert not all(_said(task, cheat).values()), cheat


def test_the_golden_route_answering_without_a_comma_scores_1_in_a_real_session():
    task = TASKS["shop.order_arrival"]
    due = _due(task)
    written = task.answer_context["arrives_text"]
    assert "," in written and repr(written) in task.golden
    program = task.golden.replace(repr(written), repr(f"{due:%B} {due.day} {due.year}"))
    with EnvironmentManager() as manager:
        solved = gymfactory.solve_and_score(task, program, manager=manager)
    assert (solved.outcome.status, solved.outcome.reward) == ("success", 1.0), solved.outcome


@pytest.mark.parametrize("family", DATE_FAMILIES)
def test_a_verifier_gives_the_same_verdict_outside_the_tasks_frozen_clock(family):
    """A date without its year ("May 13") is the one nearest the task's clock, even where the clock is not frozen to it."""
    task = TASKS[family]
    due = _due(task)
    answers = (f"{due:%B} {due.day}", f"{due:%B} {(due + timedelta(days=1)).day}")
    at_clock = [_said(task, a) for a in answers]
    assert all(at_clock[0].values()) and not all(at_clock[1].values())

    later = (datetime.fromisoformat(task.clock) + timedelta(days=200)).isoformat()  # a harness whose clock is elsewhere
    assert [_said(task.model_copy(update={"clock": later}), a) for a in answers] == at_clock

    scope: dict = {}  # this process: nothing frozen, today is the machine's
    exec(compile(task.verifier, f"<{task.id}>", "exec"), scope)
    assert [scope["verify"](Final(state={}, initial_state={}, answer=a)) for a in answers] == at_clock
