"""Faults: a dead app server, a dead browser, a passed deadline, a retried step. Each attempt ends as
env_error (or is applied once), the store keeps every step, and the next attempt on the same manager succeeds."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from runtime.manager import DeadlineExceeded, Deadlines, EnvError, EnvironmentManager, Outcome, SessionSpec
from runtime.objectstore import ObjectStore
from runtime.store import StepRecord, TrajectoryStore
from tests.runtime.notes_tasks import NOTES, chromium_pids, create_note_task, solve_create


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    with EnvironmentManager(screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m


@pytest.fixture(scope="module")
def docker_manager(dockerd, tmp_path_factory):
    """The docker backend (app servers in containers of the session's dockerd): a killed server is a killed container."""
    from runtime.backends.docker import DockerBackend

    backend = DockerBackend(docker_host=dockerd.url)
    with EnvironmentManager(backend=backend, screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m


@pytest.fixture()
def store(tmp_path):
    store = TrajectoryStore(tmp_path / "trajectories.db")
    yield store
    store.close()


def _record(store, attempt_id, obs, action):
    store.add_step(attempt_id, StepRecord(index=obs.step, url=obs.url, axtree=obs.axtree, screenshot=obs.screenshot,
                                          raw_output=action, action=action, error=obs.last_action_error, latency_s=0.0))


def _faulty_attempt(manager, store, title, fault) -> tuple[int, Outcome]:
    """Reset, take two recorded steps, inject `fault`, try one more step; the attempt's outcome goes to the store."""
    task = create_note_task(title)
    session = manager.request(SessionSpec.for_task(task))
    attempt = store.start_attempt(task.id, agent="test", model=None)
    _record(store, attempt, session.reset(task), None)
    for action in ("click(3)", f'fill(4, "{title}")'):
        _record(store, attempt, session.step(action, action_id=action), action)
    fault(session)
    with pytest.raises(EnvError):
        session.step("click(6)", action_id="submit")  # submits the form: the page must load from the server
    outcome = session.evaluate()
    store.finish_attempt(attempt, outcome, {"total_s": 1.0})
    session.close()
    return attempt, outcome


def _next_attempt_succeeds(manager, title):
    task = create_note_task(title)
    session = manager.request(SessionSpec.for_task(task))
    session.reset(task)
    solve_create(session, title)
    outcome = session.evaluate()
    session.close()
    assert outcome.status == "success" and outcome.reward == 1.0


def _assert_recorded(store, attempt, error_part):
    [record] = store.attempts(status="env_error")
    assert record.id == attempt and record.outcome.status == "env_error" and error_part in record.outcome.error
    assert [s.index for s in store.steps(attempt)] == [0, 1, 2]
    assert store.steps(attempt)[2].action.startswith("fill(4")


@pytest.mark.parametrize("backend", ["local", "docker"])  # the browser is this host's on both: its faults run on local only
def test_app_server_killed_mid_attempt(backend, request, store):
    manager = request.getfixturevalue("manager" if backend == "local" else "docker_manager")
    restarts = manager.backend.restarts
    attempt, outcome = _faulty_attempt(manager, store, "Kill", lambda s: manager.backend.server(NOTES).kill())
    assert outcome.status == "env_error" and "unreachable" in outcome.error
    _assert_recorded(store, attempt, "unreachable")
    _next_attempt_succeeds(manager, "AfterKill")
    assert manager.backend.restarts == restarts + 1


def test_browser_killed_mid_attempt(manager, store):
    def kill_browser(session):
        pids = chromium_pids()
        assert pids, "no Chromium browser process found under this test process"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)

    launches = manager.backend.browser.launches if manager.backend.browser else 0
    attempt, outcome = _faulty_attempt(manager, store, "Crash", kill_browser)
    assert outcome.status == "env_error" and "browser" in outcome.error
    _assert_recorded(store, attempt, "browser")
    _next_attempt_succeeds(manager, "AfterCrash")
    assert manager.backend.browser.launches == launches + 1


def test_operation_past_its_deadline(manager, store):
    task = create_note_task("Slow")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    attempt = store.start_attempt(task.id, agent="test")
    _record(store, attempt, session.reset(task), None)
    manager.deadlines = Deadlines(step=1.0)
    try:
        started = time.monotonic()
        with pytest.raises(DeadlineExceeded):
            session.step("wait(5)", action_id="slow")
        assert time.monotonic() - started < 4
    finally:
        manager.deadlines = Deadlines()
    outcome = session.evaluate()
    store.finish_attempt(attempt, outcome)
    assert outcome.status == "env_error" and "deadline" in outcome.error
    [record] = store.attempts(task_id=task.id)
    assert record.outcome.status == "env_error" and len(store.steps(attempt)) == 1
    with pytest.raises(EnvError):
        session.step("click(1)")  # the attempt is over; only a reset starts a new one
    session.reset(task)  # the same session recovers on reset
    solve_create(session, "Slow")
    assert session.evaluate().success
    session.close()


def test_retried_step_is_applied_once(manager):
    task = create_note_task("Pin")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    session.reset(task)
    session.step("click(5)", action_id="open")  # "Groceries"
    first = session.step("click(4)", action_id="pin")  # "Pin" toggles: applying it twice would undo it
    assert "Unpin" in first.axtree
    again = session.step("click(4)", action_id="pin")
    assert again == first
    results = []
    threads = [threading.Thread(target=lambda: results.append(session.step("click(4)", action_id="pin-2"))) for _ in range(3)]
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    assert len(results) == 3 and all(r == results[0] for r in results) and results[0].step == 3
    state = manager.backend.state(session.instances[0], 10)
    assert next(n for n in state["note"] if n["title"] == "Groceries")["pinned"] is False  # pinned once, unpinned once
    assert session.observe().step == 3
    session.close()
