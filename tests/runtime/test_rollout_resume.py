"""Rollouts resume per attempt: interrupted for real (a stop after N attempts, SIGINT, SIGKILL), then rerun.

After the rerun the store holds exactly one finished attempt per (task, agent, attempt index),
the attempts finished before the interruption are the ones kept (not redone), and no row is left
unfinished: rows cut off mid-attempt are closed as `interrupted`, outside every rate.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts.taskfiles import load_tasks
from gymfactory.cli import build
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore
from runtime.rollout import RolloutInterrupted, rollout
from runtime.store import TrajectoryStore
from tests.runtime.notes_tasks import _descendants

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "fixtures" / "tasks"
NOTES = sorted(TASKS.glob("notes-*.json"))
FINISHED = ("success", "failure", "env_error")


def _rows(db: Path) -> list[tuple[int, str, str, int, str | None, str | None]]:
    """(id, task, agent, attempt index, run, status) of every attempt row, read with plain sqlite3."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, task_id, agent, json_extract(info, '$.attempt'), json_extract(info, '$.run'), status "
                            "FROM gym_attempt ORDER BY id").fetchall()


def _assert_resumed_exactly_once(db: Path, keys: set[tuple[str, str, int]], kept_ids: set[int]) -> Counter:
    rows = _rows(db)
    finished = Counter((task, agent, k) for _id, task, agent, k, _run, status in rows if status in FINISHED)
    assert set(finished) == keys and set(finished.values()) == {1}, finished  # every attempt once, none twice
    assert not [r for r in rows if r[5] is None], rows  # no orphaned unfinished rows
    assert kept_ids <= {r[0] for r in rows if r[5] in FINISHED}  # what was finished before is what is kept
    return Counter(r[5] for r in rows)


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    with EnvironmentManager(screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m


def test_a_rollout_stopped_after_n_attempts_resumes_without_redoing_them(manager, tmp_path):
    tasks = [t for path in NOTES[:3] for t in load_tasks(path)]
    store = TrajectoryStore(tmp_path / "t.db")
    stop = threading.Event()
    seen: list[int] = []

    def after_two(result, done, total):
        seen.append(result.attempt_id)
        if len(seen) == 2:
            stop.set()

    with pytest.raises(RolloutInterrupted) as info:
        rollout(tasks, "random", attempts=2, concurrency=2, max_steps=5, manager=manager, store=store, run="r", stop=stop,
                progress=after_two)
    first = info.value.report
    assert 2 <= len(first.results) < 6 and first.run == "r"
    kept = {r.attempt_id for r in first.results}
    report = rollout(tasks, "random", attempts=2, concurrency=2, max_steps=5, manager=manager, store=store, run="r")
    assert len(report.results) == 6
    assert {r.attempt_id for r in report.results if r.resumed} == kept
    assert report.overall().attempts == 6 and report.overall().scored == 6  # interrupted rows are in no rate
    statuses = _assert_resumed_exactly_once(tmp_path / "t.db", {(t.id, "random", k) for t in tasks for k in range(2)}, kept)
    assert statuses["interrupted"] == len(_rows(tmp_path / "t.db")) - 6  # the ones cut off at the stop, closed as such
    # another run name in the same store starts over: resuming is per run, never across runs
    other = rollout(tasks[:1], "random", attempts=1, max_steps=2, manager=manager, store=store, run="r2")
    assert not other.results[0].resumed
    store.close()


def _cli_rollout(db: Path, objects: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "gymfactory.cli", "rollout", "--agent", "random", "--tasks", str(TASKS), "--attempts", "3",
            "--max-steps", "8", "--store", str(db), "--screenshots", str(objects), "--run", "resume-me", *extra]


def _wait_for(db: Path, proc: subprocess.Popen, ready, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            if ready(_rows(db)):
                return
        except sqlite3.Error:
            pass  # the tables are not there yet
        time.sleep(0.1)
    raise AssertionError(f"rollout never got there (exit code {proc.poll()})")


def _tasks_keys() -> set[tuple[str, str, int]]:
    return {(t.id, "random", k) for t in load_tasks(TASKS) for k in range(3)}


def test_sigint_stops_a_real_rollout_within_seconds_and_the_rerun_resumes(tmp_path):
    db, objects = tmp_path / "t.db", tmp_path / "objects"
    env = {**os.environ, "GYMFACTORY_HOME": str(tmp_path / "home"), "COLUMNS": "200"}
    proc = subprocess.Popen(_cli_rollout(db, objects), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # two attempts finished and one under way: the signal lands in the middle of the run, even on a loaded machine
    _wait_for(db, proc, lambda rows: sum(r[5] is not None for r in rows) >= 2 and any(r[5] is None for r in rows))
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert proc.returncode == 130, out
    assert took < 10, took
    assert "Traceback" not in out and "resume with the same command and --run resume-me" in out, out
    kept = {r[0] for r in _rows(db) if r[5] in FINISHED}
    assert 2 <= len(kept) < len(_tasks_keys())
    assert not [r for r in _rows(db) if r[5] is None]  # a graceful stop closes what it cut off
    rerun = CliRunner().invoke(build(), _cli_rollout(db, objects)[3:], env={"GYMFACTORY_HOME": str(tmp_path / "home"), "COLUMNS": "200"})
    assert rerun.exit_code == 0, rerun.output
    assert f"resumed run resume-me: {len(kept)} attempt(s) finished earlier were kept" in rerun.output
    _assert_resumed_exactly_once(db, _tasks_keys(), kept)


def test_a_killed_rollout_leaves_unfinished_rows_that_the_rerun_closes_as_interrupted(tmp_path):
    db, objects = tmp_path / "t.db", tmp_path / "objects"
    env = {**os.environ, "GYMFACTORY_HOME": str(tmp_path / "home")}
    proc = subprocess.Popen(_cli_rollout(db, objects), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    try:
        # killed while an attempt is running, after at least one finished: no handler runs
        _wait_for(db, proc, lambda rows: sum(r[5] is not None for r in rows) >= 1 and any(r[5] is None for r in rows))
        children = _descendants(proc.pid)
    finally:
        proc.kill()
        proc.wait(timeout=10)
        for pid in children:  # its app servers and browser outlive a SIGKILL: end them by id
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    orphans = [r[0] for r in _rows(db) if r[5] is None]
    assert orphans
    kept = {r[0] for r in _rows(db) if r[5] in FINISHED}
    rerun = CliRunner().invoke(build(), _cli_rollout(db, objects)[3:], env={"GYMFACTORY_HOME": str(tmp_path / "home"), "COLUMNS": "200"})
    assert rerun.exit_code == 0, rerun.output
    statuses = _assert_resumed_exactly_once(db, _tasks_keys(), kept)
    assert statuses["interrupted"] >= len(orphans)
    with sqlite3.connect(db) as conn:
        closed = conn.execute(f"SELECT status, error, finished_at FROM gym_attempt WHERE id IN ({','.join(map(str, orphans))})").fetchall()
    assert all(s == "interrupted" and "interrupted" in e and f for s, e, f in closed), closed
