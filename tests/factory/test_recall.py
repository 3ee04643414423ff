"""Recall in validation (issue 28): honest variants of the golden final must succeed, in real Chromium validation.

A verifier that reads only ISO dates is rejected with `recall_answer_form`, one that reads view state with
`recall_view`; the shipped answer family is accepted
with every rephrasing paid and its second solution (browse instead of search) run and paid; a second solution the
verifier refuses is `recall_alternative`; and the harmless-note rule: a friendly comment beside a rating is paid,
a harmful change to the same record is refused.
"""

from __future__ import annotations

import re
from datetime import date

from contracts.family import ALTERNATIVE
from contracts.scoring import GUARD_CRITERION
from contracts.task import Task
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.recall import NOTE, answer_forms, has_alternative
from factory.verifiers.validate import ValidationConfig, accepted_task, validate_task
from mocked_apps.kit.answers import is_answer
from runtime.agents.golden import play
from runtime.judge import judge
from runtime.manager import Lease, SessionSpec

FAST = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)
ISO_ONLY = '''
import re


def verify(final):
    found = re.findall(r"\\b\\d{4}-\\d{2}-\\d{2}\\b", final.answer or "")
    return {"right_date": DUE in found, "no_wrong_date": bool(found) and set(found) == {DUE}}
'''


def _one(family: str) -> Task:
    return synthesize(SynthConfig(n=1, seed=7, families=(family,)), Author())[0]


def test_every_answer_form_is_one_the_kits_matcher_pays():
    """The generator's forms (as the issue lists them) each give the value, and only it, to the one answer matcher."""
    today = date(2026, 10, 1)
    forms = answer_forms("October 20, 2026", today)
    assert {"October 20", "Tuesday, October 20", "the 20th of October 2026", "10/20/2026", "20.10.2026", "2026/10/20"} <= set(forms)
    assert any(f.startswith("The answer is") for f in forms)
    assert all(is_answer(f, "date", "2026-10-20", today=today) for f in forms)
    assert {"1234.5 USD", "USD 1,234.50"} <= set(answer_forms("$1,234.50")) and "three" in answer_forms("3")
    assert all(is_answer(f, "amount", 1234.5) for f in answer_forms("$1,234.50"))
    assert all(is_answer(f, "time", "15:00") for f in answer_forms("15:00"))
    assert {"elena rossi", "The answer is Elena Rossi."} <= set(answer_forms("Elena Rossi"))
    assert all(is_answer(f, "amount", -12.0) for f in answer_forms("-$12.00"))


def test_a_verifier_that_reads_only_iso_dates_is_rejected_with_recall_answer_form(manager):
    task = _one("drive.invoice_due_date")
    due = task.answer_context["due"]
    golden = task.golden.replace(repr(task.answer_context["due_text"]), repr(due), 1)  # the golden answers in ISO form
    planted = task.model_copy(update={"verifier": ISO_ONLY.replace("DUE", repr(due)), "golden": golden})
    result = validate_task(planted, manager, FAST)
    assert (result.accepted, result.reason) == (False, "recall_answer_form"), result.detail
    assert "honest variant 'answer" in result.detail
    assert result.recall_paid < result.recall_tried and any(f"{date.fromisoformat(due):%B}" in r for r in result.recall_refused)


def test_the_shipped_answer_family_is_accepted_and_its_second_solution_is_run_and_paid(manager):
    task = _one("drive.invoice_due_date")
    assert has_alternative(task) and re.search(rf"^def {ALTERNATIVE}\(", task.golden, re.M)
    result = validate_task(task, manager, FAST)
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert {"answer_form", "alternative"} <= set(result.recall_kinds)
    assert result.recall_tried >= 10 and result.recall_paid == result.recall_tried and not result.recall_refused
    assert all(result.verdicts["alternative"].values())  # the browse route, played in the browser, judged like the golden run


def test_a_second_solution_the_verifier_refuses_is_rejected_with_recall_alternative(manager):
    task = _one("drive.invoice_due_date")
    wrong = task.golden.replace("It is due on the", "It is due on the 1st of January 2020, not the")  # a hedge: two dates
    result = validate_task(task.model_copy(update={"golden": wrong}), manager, FAST)
    assert (result.accepted, result.reason) == (False, "recall_alternative"), result.detail
    assert "second solution" in result.detail and result.verdicts["alternative"]["no_wrong_date"] is False


def test_a_verifier_that_reads_view_state_is_rejected_with_recall_view(manager):
    """Which messages the user opened is view state: a verifier that needs one still unread refuses an honest agent
    who looked around the inbox."""
    task = _one("mail.star_invoice_email")
    first = task.criteria[0].id
    planted = task.model_copy(update={"verifier": task.verifier + (
        "\n\n_gf_original_verify = verify\n\n\ndef verify(final):\n    v = _gf_original_verify(final)\n"
        f"    v[{first!r}] = v[{first!r}] and any(not m['read'] for m in final.state['mail']['message'])\n    return v\n")})
    result = validate_task(planted, manager, FAST)
    assert (result.accepted, result.reason) == (False, "recall_view"), result.detail
    assert "message.read True" in result.detail


def test_a_note_beside_a_rating_is_paid_and_a_harmful_change_to_the_same_record_is_refused(manager):
    """The harmless-note rule (docs/security.md): an optional comment the golden run left empty on the record it
    changed is the agent's to fill; any other unrequested change to that record stays collateral."""
    task = _one("ride.rate_trip")
    result = validate_task(task, manager, FAST)
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert "note" in result.recall_kinds and result.recall_paid == result.recall_tried  # validation paid the note itself
    accepted = accepted_task(task, result)
    session = manager.request(SessionSpec.for_task(accepted, screenshots=False), Lease(seconds=300))
    try:
        obs = session.reset(accepted)
        play(session, accepted, obs, timeout_s=90.0, max_steps=40)
        golden = session.final()
    finally:
        session.close()
    ride_id = task.answer_context["ride_id"]

    def changed(**fields) -> dict:
        rows = [{**r, **fields} if r["id"] == ride_id else r for r in golden.state["ride"]["ride"]]
        return {**golden.state, "ride": {**golden.state["ride"], "ride": rows}}

    target = next(r for r in golden.state["ride"]["ride"] if r["id"] == ride_id)
    paid = judge(accepted, golden.model_copy(update={"state": changed(comment=NOTE)}))
    assert (paid.success, paid.reward) == (True, 1.0), paid
    harmful = judge(accepted, golden.model_copy(update={"state": changed(payment_method_id=target["payment_method_id"] % 2 + 1)}))
    assert (harmful.success, harmful.reward) == (False, 0.0) and harmful.verdicts == {GUARD_CRITERION: False}
    assert "payment_method_id" in " ".join(harmful.collateral)
    other = next(r for r in golden.state["ride"]["ride"] if r["id"] != ride_id)  # a note, but on a record the task is not about
    rows = [{**r, "comment": NOTE} if r["id"] == other["id"] else r for r in golden.state["ride"]["ride"]]
    elsewhere = judge(accepted, golden.model_copy(update={"state": {**golden.state, "ride": {**golden.state["ride"], "ride": rows}}}))
    assert (elsewhere.success, elsewhere.reward) == (False, 0.0)
