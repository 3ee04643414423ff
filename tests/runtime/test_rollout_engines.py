"""`gymfactory rollout` on the scale-out engines at once: app servers in containers of a real dockerd, the trajectory
store on a real PostgreSQL server, screenshots on a real S3-compatible server; every one chosen by a URL or a name."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gymfactory.cli import build
from runtime.objectstore import ObjectStore
from runtime.store import TrajectoryStore

TASK = Path(__file__).resolve().parents[1] / "fixtures" / "tasks" / "notes-create-rent.json"


def test_golden_rollout_on_docker_postgresql_and_s3(dockerd, postgres_server, s3_server, monkeypatch):
    store_url = postgres_server.create_database()
    shots = f"s3://{s3_server.create_bucket()}/shots"
    env = {"DOCKER_HOST": dockerd.url, **s3_server.env, "COLUMNS": "400"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)  # the object store is opened here too, to read back what the rollout wrote
    result = CliRunner().invoke(build(), ["rollout", "--agent", "golden", "--tasks", str(TASK), "--backend", "docker",
                                          "--store", store_url, "--screenshots", shots], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    store = TrajectoryStore(store_url)
    [attempt] = store.attempts()
    assert attempt.task_id == "notes-create-rent" and attempt.outcome.status == "success", attempt.outcome
    steps = store.steps(attempt.id)
    objects = ObjectStore(shots)
    assert steps and all(s.screenshot and objects.get(s.screenshot).startswith(b"\x89PNG") for s in steps)
    assert steps[0].url.startswith("http://127.0.0.1:")  # the container's server, on loopback through host networking
    store.close()


def test_an_unknown_backend_is_one_line(tmp_path):
    result = CliRunner().invoke(build(), ["rollout", "--agent", "golden", "--tasks", str(TASK), "--backend", "kubernetes",
                                          "--store", str(tmp_path / "t.db")])
    assert result.exit_code == 2 and "--backend" in result.output and "local, docker" in result.output
