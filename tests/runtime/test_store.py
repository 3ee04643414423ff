"""The trajectory and object stores on every engine they support: the same tests on SQLite and a folder
as on a real PostgreSQL server and a real S3-compatible server (moto) on loopback."""

from __future__ import annotations

import threading

import pytest

from runtime.manager import Outcome
from runtime.objectstore import ObjectStore, ObjectStoreError
from runtime.store import StepRecord, StoreUnavailable, TrajectoryStore


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """An empty trajectory store's URL: a SQLite file, or a fresh database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 't.db'}"
    return request.getfixturevalue("postgres_server").create_database()


@pytest.fixture(params=["folder", "memory", "s3"])
def objects_url(request, tmp_path, monkeypatch):
    """An empty object store's URL: a local folder, fsspec's memory, or a fresh bucket on the S3 server (endpoint from env)."""
    if request.param == "folder":
        return str(tmp_path / "objs")
    if request.param == "memory":
        return f"memory://gym-test-{tmp_path.name}"
    s3 = request.getfixturevalue("s3_server")
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    return f"s3://{s3.create_bucket()}/shots"


def test_attempt_and_steps_round_trip(store_url, tmp_path):
    store = TrajectoryStore(store_url)
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

    reopened = TrajectoryStore(tmp_path / "t.db" if store_url.startswith("sqlite") else store_url)  # a plain path works too
    [done] = reopened.attempts(task_id="task-1")
    assert done.outcome == outcome and done.timings == {"reset_s": 0.05, "total_s": 3.2} and done.finished_at >= done.started_at
    assert reopened.steps(aid) == steps
    assert reopened.attempts(status="success") == [] and reopened.attempts(agent="random") == []


def test_steps_of_an_unfinished_attempt_are_kept(store_url):
    store = TrajectoryStore(store_url)
    aid = store.start_attempt("t", agent="a")
    store.add_step(aid, StepRecord(index=0, url="u", axtree="x"))
    del store  # the process "dies" here: nothing is buffered
    again = TrajectoryStore(store_url)
    assert [s.index for s in again.steps(aid)] == [0] and again.attempts()[0].outcome is None
    with pytest.raises(KeyError):
        again.finish_attempt(999, Outcome(status="env_error", error="x"))


def test_resume_closes_cut_off_attempts_and_keeps_finished_ones(store_url):
    store = TrajectoryStore(store_url)
    done = store.start_attempt("t1", agent="a", info={"run": "r", "attempt": 0})
    store.finish_attempt(done, Outcome(status="success", reward=1.0, success=True))
    cut = store.start_attempt("t2", agent="a", info={"run": "r", "attempt": 0})
    other_run = store.start_attempt("t1", agent="a", info={"run": "other", "attempt": 1})
    finished = store.resume("r", "a", {"t1", "t2"})
    assert list(finished) == [("t1", 0)] and finished[("t1", 0)].outcome.success  # the JSON "run" filter works on this engine
    by_id = {a.id: a for a in store.attempts()}
    assert by_id[cut].outcome.status == "interrupted" and by_id[other_run].outcome is None


def test_concurrent_writers(store_url):
    store = TrajectoryStore(store_url)
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


def test_unreachable_database_is_named_without_its_password(postgres_server):
    url = f"postgresql+psycopg://gym:hunter2@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(StoreUnavailable) as err:
        TrajectoryStore(url)
    assert "no_such_database" in str(err.value) and "hunter2" not in str(err.value)


def test_object_store_round_trip(objects_url, tmp_path):
    objects = ObjectStore(objects_url)
    key = objects.put("s1/1/000-1.png", b"\x89PNG...")
    assert objects.get(key) == b"\x89PNG..." and objects.exists(key) and not objects.exists("s1/1/001-1.png")
    with pytest.raises(FileNotFoundError):
        objects.get("s1/1/001-1.png")
    with pytest.raises(ValueError):
        objects.put("../escape.png", b"")
    dataset = tmp_path / "dataset"
    (dataset / "data").mkdir(parents=True)
    (dataset / "README.md").write_text("card")
    (dataset / "data" / "train-0.parquet").write_bytes(b"PAR1")
    assert objects.put_tree(dataset, "datasets/run1") == ["datasets/run1/README.md", "datasets/run1/data/train-0.parquet"]
    assert objects.keys("datasets") == ["datasets/run1/README.md", "datasets/run1/data/train-0.parquet"]
    assert objects.keys() == ["datasets/run1/README.md", "datasets/run1/data/train-0.parquet", "s1/1/000-1.png"]
    again = ObjectStore(objects_url)  # another process (or node) opening the same URL sees the same objects
    assert again.get("datasets/run1/data/train-0.parquet") == b"PAR1"


def test_s3_store_without_its_bucket_fails_naming_the_store(s3_server, monkeypatch):
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)
    objects = ObjectStore("s3://gym-no-such-bucket/shots")
    with pytest.raises(ObjectStoreError, match="s3://gym-no-such-bucket/shots"):
        objects.put("a.png", b"x")
