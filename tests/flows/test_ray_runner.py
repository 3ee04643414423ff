"""The Ray runner on a real two-node Ray cluster on loopback: a head and one worker node, each a `ray start`
process with its own temp dir, one environment worker (app servers, Chromium) on each.

The validation stage run on it gives exactly the verdicts of the local runner (planted bad verifiers
included); `gymfactory bench runtime --runner ray` measures 1 and 2 workers; a worker node killed
mid-rollouts loses nothing: its attempts are set aside as env_error and redone on the other worker,
each attempt counted once, and nothing the dead worker started is left running.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
from typer.testing import CliRunner

from contracts.taskfiles import load_tasks, save_tasks
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.plants import plant_defects
from factory.verifiers.validate import ValidationResult
from flows.config import PipelineConfig
from flows.rollouts import rollouts_flow
from flows.runners import ray_pool
from flows.validation import validation_flow
from gymfactory.cli import build
from runtime.objectstore import ObjectStore
from runtime.ray_cluster import LocalRayCluster
from runtime.store import TrajectoryStore

FAMILIES = ("drive.rename_document", "mail.star_invoice_email", "calendar.rsvp_yes")
NOTES_TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"


@pytest.fixture(scope="module")
def cluster():
    """Head (1 CPU: it holds a worker too) and one worker node, on 127.0.0.2 and 127.0.0.3."""
    with LocalRayCluster(workers=1, head_cpus=1) as c:
        yield c


def _validate(out: Path, tasks, **runner) -> tuple[dict, dict[str, dict]]:
    (out / "tasks").mkdir(parents=True)
    save_tasks(tasks, out / "tasks" / "synthesized.jsonl")
    summary = validation_flow(PipelineConfig(out=out, concurrency=2, batch=3, validation_runs=2, **runner))
    verdicts = {}
    for line in (out / "tasks" / "validation.jsonl").read_text().splitlines():
        r = ValidationResult.model_validate_json(line)
        verdicts[r.task_id] = r.model_dump(exclude={"seconds", "probe_seconds", "recall_seconds", "golden_steps"})
        # the demonstration's pages are the same; its screenshots are other captures (keys of another object store)
        verdicts[r.task_id]["golden_pages"] = [(s.action, s.url, s.axtree, s.screenshot is not None) for s in r.golden_steps]
    return summary, verdicts


def test_ray_validation_gives_exactly_the_local_verdicts(prefect_server, cluster, tmp_path):
    tasks = synthesize(SynthConfig(n=3, seed=1, families=FAMILIES), Author())
    plants = plant_defects(tasks[0])[:2]
    tasks += [p.task for p in plants]
    local, local_verdicts = _validate(tmp_path / "local", tasks)
    ray, ray_verdicts = _validate(tmp_path / "ray", tasks, runner="ray", ray_address=cluster.address)

    assert set(ray_verdicts) == {t.id for t in tasks}
    assert ray_verdicts == local_verdicts  # accepted or not, reason, every phase's verdicts, footprint, golden actions
    assert local["accepted"] == ray["accepted"] == 3 and ray["env_errors"] == 0
    assert {ray_verdicts[p.task.id]["reason"] for p in plants} == {p.expected for p in plants}
    assert ray["ray"]["workers"] == 2 and len(ray["ray"]["done"]) == 2  # both nodes validated some
    assert sum(ray["ray"]["done"].values()) == len(tasks) and ray["ray"]["lost"] == 0


def test_bench_runtime_on_ray_at_toy_scale(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("GYMFACTORY_HOME", str(tmp_path / "home"))
    out = tmp_path / "bench.json"
    args = ["bench", "runtime", "--resets", "2", "--steps", "2", "--concurrency", "1", "--steps-per-session", "3",
            "--episode-steps", "2", "--runner", "ray", "--ray-address", cluster.address, "--ray-sessions", "1", "--out", str(out)]
    result = CliRunner().invoke(build(), args)
    assert result.exit_code == 0, result.output
    on_ray = json.loads(out.read_text())["ray"]
    assert set(on_ray["steps_per_s"]) == {"1x1", "2x1"} and all(v > 0 for v in on_ray["steps_per_s"].values())
    assert len(on_ray["per_worker"]["2x1"]) == 2
    assert "Ray: 2 workers x 1 sessions give" in result.output


def test_ray_workers_share_the_postgresql_store_and_the_s3_objects(prefect_server, cluster, postgres_server, s3_server,
                                                                  tmp_path, monkeypatch):
    """`gymfactory run --store-url postgresql://... --objects-url s3://...`: what separate machines need to share."""
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)  # the driver's S3 endpoint and keys reach every worker
    out, store_url, shots = tmp_path / "run", postgres_server.create_database(), f"s3://{s3_server.create_bucket()}/shots"
    tasks = [t for f in sorted(NOTES_TASKS.glob("notes-*.json")) for t in load_tasks(f)][:4]
    (out / "tasks").mkdir(parents=True)
    save_tasks(tasks, out / "tasks" / "reviewed.jsonl")
    config = PipelineConfig(out=out, agents=("golden",), golden_sample=None, max_steps=10, concurrency=1, batch=len(tasks),
                            runner="ray", ray_address=cluster.address, store_url=store_url, objects_url=shots)
    summary = rollouts_flow(config)
    assert summary["agents"][0]["successes"] == len(tasks) and len(summary["ray"]["done"]) == 2  # both nodes rolled out
    assert not (out / "rollouts" / "trajectories.db").exists()  # nothing went to a file of the driver's
    store, objects = TrajectoryStore(store_url), ObjectStore(shots)
    try:
        attempts = store.attempts()
        assert sorted(a.task_id for a in attempts) == sorted(t.id for t in tasks)
        steps = [s for a in attempts for s in store.steps(a.id)]
        assert steps and all(s.screenshot and objects.get(s.screenshot).startswith(b"\x89PNG") for s in steps)
    finally:
        store.close()


def _rows(db: Path) -> list[tuple]:
    if not db.is_file():
        return []
    with sqlite3.connect(db, timeout=30) as conn:
        return conn.execute("SELECT task_id, json_extract(info, '$.attempt'), json_extract(info, '$.run'), status, error "
                            "FROM gym_attempt").fetchall()


class _Killer(threading.Thread):
    """Kills the worker node once both workers are inside an attempt; notes what its worker had started."""

    def __init__(self, cluster: LocalRayCluster, db: Path):
        super().__init__(daemon=True)
        self.cluster, self.db = cluster, db
        self.killed_at: float | None = None
        self.orphans: list[psutil.Process] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.1):
            pool = ray_pool()
            if pool is None or sum(1 for r in _rows(self.db) if r[3] is None) < 2:
                continue
            worker = next(w for w in pool.workers if w.info.node_ip == self.cluster.workers[0].ip)
            self.orphans = psutil.Process(worker.info.pid).children(recursive=True)  # app servers, browser, ...
            if not self.orphans:
                continue  # the two open attempts are the other worker's: wait until this one holds one too
            self.cluster.kill_worker(0)
            self.killed_at = time.monotonic()
            return


def test_a_worker_node_killed_mid_rollouts_loses_nothing(prefect_server, cluster, tmp_path):
    out = tmp_path / "run"
    tasks = [t for f in sorted(NOTES_TASKS.glob("notes-*.json")) for t in load_tasks(f)]
    (out / "tasks").mkdir(parents=True)
    save_tasks(tasks, out / "tasks" / "reviewed.jsonl")
    config = PipelineConfig(out=out, agents=("golden",), attempts=2, max_steps=10, golden_sample=None, concurrency=1,
                            batch=len(tasks), runner="ray", ray_address=cluster.address)
    killer = _Killer(cluster, out / "rollouts" / "trajectories.db")
    killer.start()
    try:
        summary = rollouts_flow(config)
    finally:
        killer.stop.set()
        killer.join()
    assert killer.killed_at is not None, "the worker node was never killed mid-attempt"

    ray = summary["ray"]
    assert ray["dead"] == [f"worker1@{cluster.workers[0].ip}"] and ray["lost"] >= 1 and ray["retried"] == ray["lost"]
    assert ray["failed"] == 0
    golden = summary["agents"][0]
    assert golden["attempts"] == 2 * len(tasks) and golden["env_errors"] == 0  # every attempt, once, none lost

    rows = _rows(out / "rollouts" / "trajectories.db")
    assert all(r[3] is not None for r in rows)  # nothing left unfinished
    (run,) = {r[2] for r in rows if not r[2].endswith("/lost")}
    counted = Counter((task, k) for task, k, r, status, _ in rows if r == run)
    assert counted == Counter({(t.id, k): 1 for t in tasks for k in range(2)})  # each attempt once under the run
    lost = [r for r in rows if r[2] == f"{run}/lost"]
    # the item lost is a task's two attempts: if the node died between them, no attempt was open to set aside
    assert len(lost) <= ray["lost"] and all(r[3] == "env_error" and "died" in r[4] for r in lost)

    assert killer.orphans, "the dead worker had started no process (app server, browser)"
    deadline = time.monotonic() + 30
    while any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in killer.orphans) and time.monotonic() < deadline:
        time.sleep(0.5)
    left = [p.pid for p in killer.orphans if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"processes of the dead worker still running: {left}"
