"""Validation's second golden run at state level (`ValidationConfig.replay`, the default) against the path before (every
run in the browser): the same verdicts on an honest task and on every held-out kind of bad task, a golden code that
would act otherwise caught before any request is re-sent, and a run that used the shell played in the browser (real
notes app, Chromium and sandbox)."""

from __future__ import annotations

import pytest

from factory.verifiers.plants import plant_defects
from factory.verifiers.validate import validate_task, validate_tasks
from runtime.agents.golden import play, replays
from runtime.manager import Lease, SessionSpec
from tests.factory.test_validate import FAST, GOOD_GOLDEN, PLANTS, _task

BEFORE = FAST.model_copy(update={"replay": False, "keep_sessions": False})


def test_an_honest_task_is_accepted_alike_with_its_second_run_replayed(manager):
    new, old = validate_task(_task(), manager, FAST), validate_task(_task(), manager, BEFORE)
    assert new.accepted and old.accepted, (new.detail, old.detail)
    assert (new.replayed_runs, new.replay_misses, old.replayed_runs) == (1, (), 0)
    assert new.verdicts == old.verdicts and new.footprint == old.footprint and new.golden_actions == old.golden_actions


HELD_OUT = {**{name: task for name, (task, _) in PLANTS.items()}, **{p.name: p.task for p in plant_defects(_task())}}


def test_every_held_out_bad_task_is_rejected_alike(manager):
    """test_validate's planted defects and factory.verifiers.plants' kinds, through validate_tasks on both paths (the
    default keeps its sessions across tasks): each rejected by both, for the same reason ('random' may be caught by
    either of two rules first)."""
    names = sorted(HELD_OUT)
    new = validate_tasks([HELD_OUT[n] for n in names], manager, FAST, concurrency=2)
    old = validate_tasks([HELD_OUT[n] for n in names], manager, BEFORE, concurrency=2)
    assert not any(r.accepted for r in new + old), [(n, r.task_id) for n, r in zip(names, new + old) if r.accepted]
    differ = {n: (a.reason, b.reason) for n, a, b in zip(names, new, old) if a.reason != b.reason and "random" not in n}
    assert not differ, differ


def test_a_golden_code_that_would_act_otherwise_is_caught_before_any_request(manager):
    """replays() hands the code the first run's pages: the same code asks for the same actions and returns; one that
    would click another note on its second run (as a solve() that draws at random may) is told apart."""
    task = _task()
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
    try:
        observed, ended = [], []
        actions = play(session, task, session.reset(task), timeout_s=60.0, max_steps=10, observed=observed, ended=ended)
    finally:
        session.close()
    assert replays(task, observed, actions, ended[0], timeout_s=60.0) is None
    other = task.model_copy(update={"golden": GOOD_GOLDEN.replace("Book club", "Groceries")})
    why = replays(other, observed, actions, ended[0], timeout_s=60.0)
    assert why is not None and why.startswith("step 1:"), why
    more = task.model_copy(update={"golden": GOOD_GOLDEN + "    env.click('Pin', role='button')\n"})
    assert "nothing more" in (replays(more, observed, actions, ended[0], timeout_s=60.0) or "")


def test_the_requests_a_run_sent_rebuild_its_end_without_a_browser(manager):
    """A recording session keeps each request relative to its instance (the pin is a form post, then its redirect); a reset
    without a page and a replay end in the state the browser run ended in, on other instances."""
    task = _task()
    session = manager.request(SessionSpec.for_task(task, screenshots=False, record_requests=True), Lease(seconds=300))
    try:
        play(session, task, session.reset(task), timeout_s=60.0, max_steps=10)
        browser, sent, first = session.final(), session.requests, session.instances[0].instance_id
        assert session.reset(task, page=False) is None
        with pytest.raises(ValueError, match="without a page"):
            session.step("click(1)")
        assert session.final().state == browser.initial_state  # fresh instances: nothing replayed yet
        assert session.replay(sent, None) == []
        replayed = session.final()
        assert session.instances[0].instance_id != first
    finally:
        session.close()
    assert [(r.method, r.path, r.status) for r in sent] == [("GET", "", 200), ("GET", "note/3", 200), ("POST", "note/3/pin", 303),
                                                            ("GET", "note/3", 200)], sent
    assert replayed.state == browser.state != browser.initial_state


def test_a_run_that_used_the_shell_is_played_in_the_browser(manager):
    """The shell's changes to the workspace are no requests: the second run is played in the browser, and still agrees."""
    task = _task(golden=GOOD_GOLDEN + "    env.shell('echo done > pinned.txt')\n")
    result = validate_task(task, manager, FAST)
    assert result.accepted, result.detail
    assert (result.replayed_runs, result.verdicts["run2.golden"]) == (0, result.verdicts["run1.golden"])
