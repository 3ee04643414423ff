"""`gymfactory publish RUN --repo ORG/NAME --to s3://...`: the run's dataset, exported as for the Hub, lands on a real
S3-compatible server (moto on loopback) and reads back from there; a second export replaces the old data files."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from contracts.taskfiles import load_tasks, save_tasks
from flows.dataset_columns import SplitOptions
from flows.publish import PublishConfig
from flows.publish_objects import publish_objects
from gymfactory.cli import build
from runtime.objectstore import ObjectStore

APPS = Path(__file__).resolve().parents[2] / "mocked_apps"


def test_publish_to_s3_writes_the_hub_layout_and_replaces_old_data(s3_server, monkeypatch, tmp_path):
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)
    # the shipped apps' fixture tasks, each given a world id as a run's tasks have (the card counts tasks by scenario)
    tasks = [t.model_copy(update={"world": f"fixture-{t.apps[0]}-0"}) for p in sorted(APPS.glob("*/tasks/*.json"))
             for t in load_tasks(p)]
    assert len(tasks) >= 4
    run = tmp_path / "run"
    (run / "tasks").mkdir(parents=True)
    save_tasks(tasks, run / "tasks" / "final.jsonl")
    url = f"s3://{s3_server.create_bucket()}/datasets"

    result = CliRunner().invoke(build(), ["publish", str(run), "--repo", "gym-org/tasks", "--to", url], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    store = ObjectStore(url)
    keys = store.keys("gym-org--tasks")
    [data] = [k for k in keys if k.startswith("gym-org--tasks/data/train-")]
    assert "gym-org--tasks/README.md" in keys and b"gym-org/tasks" in store.get("gym-org--tasks/README.md")
    table = pq.read_table(io.BytesIO(store.get(data)))
    assert sorted(table.column("id").to_pylist()) == sorted(t.id for t in tasks)

    split = SplitOptions(by="app", heldout=("bank",))
    again = publish_objects(PublishConfig(run=run, repo="gym-org/tasks", split=split), url)
    assert again.deleted == (data,) and not store.exists(data)
    parts = [k for k in store.keys("gym-org--tasks/data")]
    assert {k.split("/")[-1].split("-")[0] for k in parts} == {"train", "heldout"}


def test_publish_to_objects_refuses_a_dry_run(tmp_path):
    result = CliRunner().invoke(build(), ["publish", str(tmp_path), "--repo", "gym-org/tasks", "--to", str(tmp_path / "o"),
                                          "--dry-run"])
    assert result.exit_code == 2 and "--dry-run" in result.output
