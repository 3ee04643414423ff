"""Every hand-written task is well formed and its verifier does not succeed on the initial state.

The fixture tasks of each shipped app live in its own package (`mocked_apps/<app>/tasks/`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.taskfiles import load_tasks
from runtime.sandbox import run_verifier
from contracts.scoring import Final, score

from mocked_apps.registry import SHIPPED, resolve

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"
APP_TASKS = [Path(__file__).resolve().parents[2] / "mocked_apps" / app / "tasks" for app in sorted(SHIPPED)]
ALL = load_tasks(TASKS) + [t for folder in APP_TASKS if folder.is_dir() for t in load_tasks(folder)]


@pytest.fixture(scope="module")
def servers():
    from mocked_apps.kit import AppServer

    started: dict[str, AppServer] = {}
    try:
        for app in sorted({a for t in ALL for a in t.apps}):
            started[app] = AppServer(resolve(app)).start()
        yield started
    finally:
        for server in started.values():
            server.stop()


def test_every_shipped_app_has_a_hand_written_task():
    assert {"tests/fixtures/apps/notes", "mail", "calendar", "drive", "bank"} <= {a for t in ALL for a in t.apps}
    assert len({t.id for t in ALL}) == len(ALL)
    assert all(t.meta.provenance == "hand" and "def solve(env)" in t.golden for t in ALL)


@pytest.mark.parametrize("task", ALL, ids=lambda t: t.id)
def test_verifier_does_not_succeed_on_the_initial_state(servers, task):
    state = {}
    for app in task.apps:
        admin = servers[app].admin
        inst = admin.create(task.seed.get(app), task.clock) if app in task.seed or task.clock else admin.create()
        state[app] = admin.state(inst["instance_id"])
        admin.delete(inst["instance_id"])
    run = run_verifier(task.verifier, Final(state=state, initial_state=state, answer=None))
    assert run.error is None, run.error
    assert score(task.criteria, run.verdicts).success is False
