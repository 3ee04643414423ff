"""The footprint guard and the reward rules of `score_final`, on state dumps shaped like the apps' own.

Pure data in, verdicts out: the guard never needs a browser, so these run in milliseconds. The
verifier is a callable here so a test can prove it is not run when the guard already failed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from contracts.task import Criterion, Task
from contracts.footprint import collateral, diff
from factory.verifiers.footprint import record
from factory.verifiers.probes import derive_probes
from contracts.scoring import GUARD_CRITERION, Final, score_final

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tasks" / "notes-pin-book-club.json"
INITIAL = {"mail": {
    "thread": [{"id": 1, "subject": "Invoice A-1", "starred": False, "folder": "inbox"},
               {"id": 2, "subject": "Lunch", "starred": False, "folder": "inbox"}],
    "message": [{"id": 1, "thread_id": 1, "body": "invoice", "read": False},
                {"id": 2, "thread_id": 2, "body": "lunch?", "read": False}],
}}


def _with(state: dict, table: str, row_id: int, **fields) -> dict:
    out = json.loads(json.dumps(state))
    for row in out["mail"][table]:
        if row["id"] == row_id:
            row.update(fields)
    return out


GOLDEN = _with(_with(INITIAL, "thread", 1, starred=True), "message", 1, read=True)


def _task(**update) -> Task:
    base = Task.model_validate_json(FIXTURE.read_text())
    return base.model_copy(update={"apps": ("mail",), "seed": {}, "criteria": (
        Criterion(id="starred", description="Thread 1 is starred."),
        Criterion(id="others_untouched", description="No other star changed.", weight=0.5)), **update})


STAMPED = _task(footprint=record(INITIAL, GOLDEN, ["mail"], met_at_start=["others_untouched"]))


def test_the_footprint_is_the_golden_diff_without_declared_view_state():
    fp = STAMPED.footprint
    assert fp.view_state == {"mail": ("message.read",)}  # the mail manifest declares it
    assert fp.tables["mail"]["thread"].changed == {"1": ("starred",)}
    assert "message" not in fp.tables["mail"]  # reading the invoice is view state
    assert Task.model_validate_json(STAMPED.model_dump_json()).footprint == fp  # stored with the task


def test_an_old_task_file_without_a_footprint_still_loads_and_is_scored_by_its_criteria():
    task = Task.model_validate_json(FIXTURE.read_text())
    assert task.footprint is None
    scored = score_final(task, Final(state=GOLDEN, initial_state=INITIAL), {"pinned": True, "others_intact": True})
    assert (scored.success, scored.reward) == (True, 1.0) and GUARD_CRITERION not in scored.verdicts


def test_changes_outside_the_footprint_fail_the_guard_without_running_the_verifier():
    def verifier():
        raise AssertionError("the verifier must not run when the guard failed")

    for damaged, where in [
        (_with(GOLDEN, "thread", 2, folder="trash"), "mail.thread[2] changed (folder)"),
        (_with(GOLDEN, "thread", 1, folder="trash"), "mail.thread[1] changed (folder)"),
        ({"mail": {**GOLDEN["mail"], "message": GOLDEN["mail"]["message"][:1]}}, "mail.message[2] deleted"),
        ({"mail": {**GOLDEN["mail"], "thread": GOLDEN["mail"]["thread"] + [{"id": 3, "subject": "x", "starred": False, "folder": "inbox"}]}},
         "mail.thread: more rows added than the task needs (0)"),
    ]:
        scored = score_final(STAMPED, Final(state=damaged, initial_state=INITIAL), verifier)
        assert (scored.success, scored.reward, scored.verdicts) == (False, 0.0, {GUARD_CRITERION: False})
        assert scored.collateral == (where,)


def test_view_state_is_ignored_by_the_guard():
    read_everything = _with(GOLDEN, "message", 2, read=True)
    assert collateral(STAMPED.footprint, INITIAL, read_everything) == ()
    scored = score_final(STAMPED, Final(state=read_everything, initial_state=INITIAL), {"starred": True, "others_untouched": True})
    assert (scored.success, scored.reward, scored.verdicts[GUARD_CRITERION]) == (True, 1.0, True)


def test_nothing_else_changed_criteria_earn_no_reward_alone():
    nothing = score_final(STAMPED, Final(state=INITIAL, initial_state=INITIAL), {"starred": False, "others_untouched": True})
    assert (nothing.success, nothing.reward) == (False, 0.0)
    half = score_final(_task(footprint=STAMPED.footprint.model_copy(update={"met_at_start": ()})),
                       Final(state=INITIAL, initial_state=INITIAL), {"starred": False, "others_untouched": True})
    assert half.reward == pytest.approx(0.5 / 1.5)  # the same verdicts, once they are not 'met at start'


def test_a_new_row_the_app_declares_inert_is_no_collateral():
    """A review the agent cancelled leaves a 'cancelled' transfer: the bank declares such rows inert."""
    before = {"bank": {"transfer": [], "payee": [{"id": 1, "name": "Inkwell Press"}]}}
    golden = {"bank": {"transfer": [{"id": 1, "status": "confirmed", "amount": 5.0}], "payee": before["bank"]["payee"]}}
    task = _task(apps=("bank",), footprint=record(before, golden, ["bank"]))
    assert task.footprint.inert_rows == {"bank": {"transfer": {"status": "cancelled"}}}
    retried = {"bank": {**golden["bank"], "transfer": [{"id": 1, "status": "cancelled", "amount": 4.0}, {"id": 2, "status": "confirmed", "amount": 5.0}]}}
    assert collateral(task.footprint, before, retried) == ()
    twice = {"bank": {**golden["bank"], "transfer": [*golden["bank"]["transfer"], {"id": 2, "status": "pending", "amount": 5.0}]}}
    assert collateral(task.footprint, before, twice) == ("bank.transfer: more rows added than the task needs (1)",)


def test_diff_names_added_deleted_and_changed_rows():
    after = {"mail": {"thread": [GOLDEN["mail"]["thread"][0], {"id": 9, "subject": "new", "starred": False, "folder": "sent"}],
                      "message": GOLDEN["mail"]["message"]}}
    assert [str(c) for c in diff(INITIAL, after, {"mail": ("message.read",)})] == [
        "mail.thread[1] changed (starred)", "mail.thread[2] deleted", "mail.thread[9] added"]


def test_probes_of_a_star_task_cover_partial_collateral_wrong_target_and_answers():
    golden = Final(state=GOLDEN, initial_state=INITIAL)
    probes = {(p.kind, p.name): p for p in derive_probes(STAMPED, golden)}
    assert ("partial", "reverted mail.thread[1] changed (starred)") in probes
    moved = probes[("wrong_target", "mail.thread[1] changed (starred) applied to mail.thread[2] instead")].final.state
    assert [t["starred"] for t in moved["mail"]["thread"]] == [False, True]
    assert {k for k, _ in probes} == {"partial", "collateral", "wrong_target", "answer_spam"}
    assert all(collateral(STAMPED.footprint, INITIAL, p.final.state) for (k, _), p in probes.items() if k in ("collateral", "wrong_target"))
