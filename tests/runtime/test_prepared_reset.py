"""Prepared starts (SessionSpec.prepare): a reset that only observes a page loaded during the last attempt must still
reset everything: the task's own seed and clock, the page at the instance's start URL, a fresh observation, an
instance no other attempt touched. Real notes server, real Chromium."""

from __future__ import annotations

from datetime import datetime

import pytest

from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.objectstore import ObjectStore
from tests.runtime.notes_tasks import NOTES, create_note_task, solve_create

SEED_A = {"note": [{"id": 1, "title": "Alpha plan", "body": "a", "created_at": "2025-01-01T08:00:00"}]}
SEED_B = {"note": [{"id": 1, "title": "Beta list", "body": "b", "created_at": "2024-06-01T08:00:00"},
                   {"id": 2, "title": "Beta notes", "body": "c", "created_at": "2024-06-02T08:00:00"}]}


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    with EnvironmentManager(screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m


def _task(title: str, seed: dict, clock: str):
    return create_note_task(title, seed={NOTES: seed}, clock=clock)


def _check_fresh(manager, session, obs, seed: dict, clock: str, title: str) -> None:
    """The attempt starts from `seed` at `clock`: dump, page and observation; a note made now carries `clock`."""
    inst = session.instances[0]
    assert manager.backend.state(inst, 10)["note"] == session.initial_state[NOTES]["note"]
    assert [n["title"] for n in session.initial_state[NOTES]["note"]] == [n["title"] for n in seed["note"]]
    assert obs.step == 0 and obs.url == inst.url
    for note in seed["note"]:
        assert f'"{note["title"]}"' in obs.axtree  # the page shows this instance's records, walked now
    assert manager.screenshots.get(obs.screenshot).startswith(b"\x89PNG")
    solve_create(session, title)  # changes the state; the next reset must undo it
    made = [n for n in manager.backend.state(inst, 10)["note"] if n["title"] == title]
    assert [datetime.fromisoformat(n["created_at"]) for n in made] == [datetime.fromisoformat(clock)]  # the task's clock


def test_prepared_reset_loads_each_tasks_seed_and_clock(manager):
    a = _task("Made in A", SEED_A, "2025-01-02T10:00:00")
    b = _task("Made in B", SEED_B, "2024-07-03T11:30:00")
    c = _task("Made in C", SEED_A, "2025-05-05T05:05:00")  # A's records at another time
    session = manager.request(SessionSpec.for_task(a, prepare=True), Lease(seconds=600))
    for task, seed, hits in ((a, SEED_A, 0), (a, SEED_A, 1), (b, SEED_B, 1), (b, SEED_B, 2), (a, SEED_A, 2), (c, SEED_A, 2), (c, SEED_A, 3)):
        obs = session.reset(task)
        assert session.prepared_resets == hits  # a prepared start is used only for a reset of the task it was made for
        back = session.step("back()")
        assert back.last_action_error == "there is no previous page"  # the standby page's history is out of reach
        _check_fresh(manager, session, obs, seed, task.clock, task.instruction.split("titled ")[1].split(",")[0])
    session.close()


def test_a_closed_sessions_prepared_start_serves_the_next_session(manager):
    a = _task("Handed on", SEED_A, "2025-01-02T10:00:00")
    spec = SessionSpec.for_task(a, prepare=True)
    first = manager.request(spec, Lease(seconds=600))
    first.reset(a)
    solve_create(first, "Left behind")
    used = first.instances[0].instance_id
    first.close()
    second = manager.request(spec, Lease(seconds=600))
    obs = second.reset(a)
    assert second.prepared_resets == 1 and second.instances[0].instance_id != used
    assert '"Left behind"' not in obs.axtree  # another attempt's changes never show
    _check_fresh(manager, second, obs, SEED_A, a.clock, "Handed on")
    second.close()


def test_without_prepare_nothing_is_held_between_attempts(manager):
    a = _task("Plain", SEED_A, "2025-01-02T10:00:00")
    session = manager.request(SessionSpec.for_task(a), Lease(seconds=600))
    for _ in range(2):
        obs = session.reset(a)
        _check_fresh(manager, session, obs, SEED_A, a.clock, "Plain")
    assert session.prepared_resets == 0 and session._prepared is None
    session.close()
