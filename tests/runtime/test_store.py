"""The trajectory store on a real SQLite file: attempts and steps survive a crash, filters, concurrent writers."""

from __future__ import annotations

import threading

import pytest

from runtime.manager import Outcome
from runtime.objectstore import ObjectStore
from runtime.store import StepRecord, TrajectoryStore


def test_attempt_and_steps_round_trip(tmp_path):
    store = TrajectoryStore(f"sqlite:///{tmp_path / 't.db'}")
    aid = store.start_attempt("task-1", agent="golden", model="m-1", info={"group": 3})
    steps = [StepRecord(index=i, url=f"http://x/{i}", axtree=f"[1] link \"{i}\"", screenshot=f"s/{i}.png",
                        raw_output=f"thinking {i}\nclick(1)", action="click(1)", error=None if i else "no element [9]",
                        latency_s=0.5 + i) for i in range(3)]
    for step in steps:
        store.add_step(aid, step)
    [running] = store.attempts()
    assert running.outcome is None and running.info == {"group": 3} and running.model == "m-1"
    outcome = Outcome(status="failure", reward=0.5, success=False, verdicts={"a": True, "b": False})
    store.finish_attempt(aid, outcome, {"reset_s": 0.05, "total_s": 3.2})
    store.close()

    reopened = TrajectoryStore(tmp_path / "t.db")  # a plain path works too
    [done] = reopened.attempts(task_id="task-1")
    assert done.outcome == outcome and done.timings == {"reset_s": 0.05, "total_s": 3.2} and done.finished_at >= done.started_at
    assert reopened.steps(aid) == steps
    assert reopened.attempts(status="success") == [] and reopened.attempts(agent="random") == []


def test_steps_of_an_unfinished_attempt_are_kept(tmp_path):
    url = tmp_path / "crash.db"
    store = TrajectoryStore(url)
    aid = store.start_attempt("t", agent="a")
    store.add_step(aid, StepRecord(index=0, url="u", axtree="x"))
    del store  # the process "dies" here: nothing is buffered
    again = TrajectoryStore(url)
    assert [s.index for s in again.steps(aid)] == [0] and again.attempts()[0].outcome is None
    with pytest.raises(KeyError):
        again.finish_attempt(999, Outcome(status="env_error", error="x"))


def test_concurrent_writers(tmp_path):
    store = TrajectoryStore(tmp_path / "c.db")
    ids = [store.start_attempt(f"t{i}", agent="a") for i in range(8)]

    def write(aid):
        for i in range(10):
            store.add_step(aid, StepRecord(index=i, action=f"wait({i})"))
        store.finish_attempt(aid, Outcome(status="success", reward=1.0, success=True))

    threads = [threading.Thread(target=write, args=(aid,)) for aid in ids]
    [t.start() for t in threads]
    [t.join(60) for t in threads]
    assert all(len(store.steps(aid)) == 10 for aid in ids)
    assert len(store.attempts(status="success")) == 8


def test_object_store_local_and_memory(tmp_path):
    for url in (tmp_path / "objs", "memory://gym-test-objects"):
        objects = ObjectStore(url)
        key = objects.put("s1/1/000-1.png", b"\x89PNG...")
        assert objects.get(key) == b"\x89PNG..." and objects.exists(key)
        with pytest.raises(ValueError):
            objects.put("../escape.png", b"")
