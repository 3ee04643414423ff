"""The pipeline flow at toy scale under a real Prefect server: runs, states, artifacts, failure and resume."""

from __future__ import annotations

import json

import datasets
import pytest
from prefect.client.orchestration import get_client

from flows.config import PipelineConfig
from flows.pipeline import pipeline
from runtime.store import TrajectoryStore
from tests.support.scripted_llm import Reply, ScriptedLLM

SYNTH = dict(n=3, families=("drive.rename_document", "mail.star_invoice_email", "calendar.rsvp_yes"), personas=("alex",),
             scenarios=("month_end",), worlds_per_pair=1)
TOY = dict(synth=SYNTH, validation_runs=1, baseline_sample=2, concurrency=2, batch=2,
           agents=("golden", "random"), max_steps=6, easy_above=0.5)
MODEL = dict(agents=("golden", "random", "reference"), model_sample=1, pass_k=2, model_max_steps=2)


def _runs(client, name: str):
    return [r for r in client.read_flow_runs() if r.name and r.flow_id in {f.id for f in client.read_flows() if f.name == name}]


def test_toy_pipeline_records_runs_states_and_artifacts(prefect_server, tmp_path):
    config = PipelineConfig(out=tmp_path / "run", **{**TOY, **MODEL})
    report = pipeline(config)
    assert report["stages"]["validate"]["accepted"] >= 2
    assert (tmp_path / "run" / "report.md").read_text().startswith("# gymfactory run")
    assert json.loads((tmp_path / "run" / "report.json").read_text())["accepted_tasks"] == report["accepted_tasks"]
    ds = datasets.load_dataset(str(tmp_path / "run" / "dataset"), split="train")
    assert len(ds) == report["accepted_tasks"] and "instruction" in ds.column_names
    apps = {app for row in ds["apps"] for app in row}
    assert report["stages"]["dataset"]["apps"] == len(apps) >= 2  # the report counts the apps the dataset covers
    assert f"({len(ds)} tasks over {len(apps)} apps)" in (tmp_path / "run" / "report.md").read_text()
    store = TrajectoryStore(str(tmp_path / "run" / "rollouts" / "trajectories.db"))
    try:  # golden rollouts keep a screenshot per step for replay; the other agents' attempts when the replay sample draws them
        attempts = {agent: store.attempts(agent=agent) for agent in ("golden", "random", "reference")}
        steps = {a.id: store.steps(a.id) for group in attempts.values() for a in group}
    finally:
        store.close()
    golden = [s for a in attempts["golden"] for s in steps[a.id]]
    assert golden and all(s.screenshot for s in golden)
    others = attempts["random"] + attempts["reference"]
    assert attempts["random"] and {a.info["screenshots"] for a in others} <= {"kept", "sampled_out"}
    assert all(bool(s.screenshot) == (a.info["screenshots"] == "kept") for a in others for s in steps[a.id])
    replay = report["stages"]["rollouts"]["replay"]
    assert (replay["attempts"], replay["kept"]) == (len(others), sum(a.info["screenshots"] == "kept" for a in others))
    assert "Screenshots for replay" in (tmp_path / "run" / "report.md").read_text()
    rollouts = report["stages"]["rollouts"]  # the baseline measured 2 of the reviewed tasks; the rest are kept unmeasured
    random_row = next(a for a in rollouts["agents"] if a["agent"] == "random")
    reviewed = report["stages"]["review"]["kept"]
    assert random_row["attempts"] == min(2, reviewed)
    assert rollouts["difficulty"]["kept"] + rollouts["difficulty"]["too_easy"] == reviewed
    # the reference model attempted 1 task twice: its family's difficulty is measured, the others keep the declared one
    reference_row = next(a for a in rollouts["agents"] if a["agent"] == "reference")
    assert reference_row["attempts"] == 2 and reference_row["env_errors"] == 0
    (family,) = [r["family"] for r in rollouts["difficulty"]["families"]]
    sources = dict(zip(ds["family"], ds["difficulty_source"]))
    assert sources.get(family, "measured") == "measured" and set(sources.values()) <= {"measured", "declared"}
    assert rollouts["difficulty"]["measured"] == sum(1 for f in ds["family"] if f == family)
    report_md = (tmp_path / "run" / "report.md").read_text()
    assert "## Measured difficulty" in report_md and f"| reference | {family} | 1 | 2 |" in report_md

    with get_client(sync_client=True) as client:
        flows = {f.id: f.name for f in client.read_flows()}
        runs = client.read_flow_runs()
        names = {flows[r.flow_id] for r in runs}
        assert {"pipeline", "worlds", "synthesize-tasks", "validate-tasks", "review-tasks", "rollouts", "export-dataset", "report"} <= names
        parent = next(r for r in runs if flows[r.flow_id] == "pipeline")
        assert parent.state.is_completed()
        children = [r for r in runs if r.parent_task_run_id and flows[r.flow_id] != "pipeline"]
        assert children and all(r.state.is_completed() for r in children)
        keys = {a.key for a in client.read_artifacts()}
        assert {"validation-by-family", "rollouts-by-agent", "dataset-folder", "run-report", "validation-progress"} <= keys


def test_failing_stage_marks_the_run_failed_keeps_outputs_and_resumes(prefect_server, tmp_path, monkeypatch):
    out = tmp_path / "run"
    with ScriptedLLM([Reply(text="overloaded", status=500)] * 40) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.openai_base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        failing = PipelineConfig(out=out, provider="openai", **{**TOY, "synth": {**SYNTH, "n": 1}, "agents": ()})
        state = pipeline(failing, return_state=True)
    assert state.is_failed()
    assert "no task" in state.message or "provider" in str(state.result(raise_on_failure=False))
    worlds_marker = out / "stages" / "worlds.json"
    assert worlds_marker.is_file() and list((out / "worlds").glob("*.json"))
    first = worlds_marker.read_text()

    resumed = pipeline(PipelineConfig(out=out, **{**TOY, "synth": {**SYNTH, "n": 1}, "agents": ()}))
    assert worlds_marker.read_text() == first  # the finished stage was not run again
    assert resumed["stages"]["synthesize"]["tasks"] == 1
