"""`gymfactory flows serve` registers one distinct deployment per flow, and every one of them, started by
name the way the Prefect UI starts it (flow files loaded by path, each run in its own process), completes: the
pipeline and publish every time, 4 of the 10 stage deployments per commit (all under `scripts/test.sh --full`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from prefect.client.orchestration import get_client
from prefect.deployments import run_deployment

from flows import deployable
from flows.cli import deployment_name
from tests.support.local_hub import LocalHub
from tests.support.sampling import sample

ROOT = Path(__file__).resolve().parents[2]
# one toy config for every deployment: two tasks, one validation run, the smallest training stage
TOY = dict(synth=dict(n=2, families=["drive.rename_document", "mail.star_invoice_email"], personas=["alex"], scenarios=["month_end"],
                     worlds_per_pair=1),
           validation_runs=1, concurrency=2, batch=2, agents=["golden", "random"], max_steps=4, golden_sample=2,
           train_sft_epochs=1, train_steps=1, train_policy="tiny")
# every stage deployment after the pipeline, in pipeline order, with the marker it writes (report writes report.json)
STAGES = [("worlds", "worlds"), ("synthesize-tasks", "synthesize"), ("validate-tasks", "validate"), ("review-tasks", "review"),
          ("rollouts", "rollouts"), ("train", "train"), ("export-dataset", "dataset"), ("report", None),
          ("regenerate", "regenerate"), ("loop", "loop")]
# fields of the flows whose config extends the pipeline's, kept toy-sized
EXTRA = {"regenerate": {"new_tasks": 2}, "loop": {"rounds": 1, "base_tasks": 1, "heldout_tasks": 1, "new_tasks": 2}}


def _served(client) -> set[str]:
    flows = {f.id: f.name for f in client.read_flows()}
    return {f"{flows.get(d.flow_id)}/{d.name}" for d in client.read_deployments()}


def _start(name: str, config: dict) -> None:
    run = run_deployment(name, parameters={"config": config}, timeout=600)
    assert run.state.is_completed(), f"{name}: {run.state}"


def test_every_served_deployment_completes(prefect_server, tmp_path):
    expected = {f"{f.name}/{deployment_name('test', f.name)}" for f in deployable()}
    assert len(expected) == len(deployable()) == 2 + len(STAGES)  # distinct names, one per flow
    assert {name for name, _ in STAGES} | {"pipeline", "publish-dataset"} == {f.name for f in deployable()}
    hub = LocalHub().__enter__()  # publish-dataset publishes to a loopback Hub
    env = {**os.environ, "PREFECT_API_URL": prefect_server, "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "GYMFACTORY_HOME": str(tmp_path / "home"), "HF_ENDPOINT": hub.url, "HF_TOKEN": "hf_local_test_token",
           "HF_HUB_DISABLE_TELEMETRY": "1", "HF_HOME": str(tmp_path / "hf-home"), "HF_HUB_OFFLINE": "0"}
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "gymfactory.cli", "flows", "serve", "--name", "test"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        with get_client(sync_client=True) as client:
            while not expected <= (served := _served(client)) and time.monotonic() < deadline:
                assert proc.poll() is None, (tmp_path / "serve.log").read_text()
                time.sleep(1)
        assert expected <= served, served

        out = tmp_path / "run"
        config = {"out": str(out), **TOY}
        _start(f"pipeline/{deployment_name('test', 'pipeline')}", config)
        report = json.loads((out / "report.json").read_text())
        assert report["stages"]["validate"]["accepted"] >= 1 and report["stages"]["rollouts"]["agents"]

        started = sample([flow for flow, _ in STAGES], 4)  # a sample per commit, every stage under --full
        for flow, stage in [(f, s) for f, s in STAGES if f in started]:  # each redoes its work (its marker removed first)
            marker = out / "stages" / f"{stage}.json" if stage else out / "report.json"
            marker.unlink(missing_ok=True)
            _start(f"{flow}/{deployment_name('test', flow)}", {**config, **EXTRA.get(flow, {})})
            assert marker.is_file(), f"{flow} completed without writing {marker.name}"
        if "train" in started:  # the pipeline's toy config trains only when the train deployment is started
            assert (out / "train" / "report.json").is_file()
            if "report" in started:  # the report, rewritten after it, counts the training stage
                assert "train" in json.loads((out / "report.json").read_text())["stages"]

        _start(f"publish-dataset/{deployment_name('test', 'publish-dataset')}", {"run": str(out), "repo": "gym-org/served"})
        commits = hub.repos["dataset/gym-org/served"].commits
        assert "README.md" in commits[-1].files and any(p.startswith("data/") for p in commits[-1].files)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()
        hub.__exit__(None, None, None)
