"""A run folder holds every artifact it refers to: the screenshots lie in OUT/objects, the trajectory store and the
dataset name them relatively, so a copy of the folder elsewhere still replays and publishes them; the random agent's
attempts keep their screenshots when the replay sample draws them, until the run's bound on their size is reached; the
dataset card and a regenerated version's dataset name nothing outside the run folder either.
Real stages (validation, rollouts, dataset, regenerate) on real apps in Chromium, with a real SQLite store."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from contracts.taskfiles import save_tasks
from factory.tasks.synthesize import SynthConfig, synthesize
from flows.config import PipelineConfig
from flows.dataset import dataset_flow
from flows.publish import PublishConfig, stage
from flows.regenerate import RegenerateConfig, regenerate_flow
from flows.rollouts import rollouts_flow
from flows.run_evidence import objects_of
from flows.validation import validation_flow
from runtime.dashboard.data import TrajectoryView
from runtime.objectstore import ObjectStore
from runtime.replay import ReplaySample
from runtime.store import StepRecord, TrajectoryStore

FAMILIES = ("drive.rename_document", "mail.star_invoice_email")  # two of the toy pipeline's (tests/flows/test_pipeline.py)


@pytest.fixture(scope="module")
def run(prefect_server, tmp_path_factory):
    """Two tasks validated with screenshots, rolled out by the golden and the random agent (every random attempt drawn,
    under a bound of 1 KB that the first one exceeds), and exported as the dataset; nothing given but `out`."""
    root = tmp_path_factory.mktemp("objects")
    out = root / "run"
    (out / "tasks").mkdir(parents=True)
    synth = SynthConfig(n=2, families=FAMILIES, personas=("alex",), scenarios=("month_end",), worlds_per_pair=1, seed=5)
    save_tasks(synthesize(synth), out / "tasks" / "synthesized.jsonl")
    config = PipelineConfig(out=out, validation_runs=1, agents=("golden", "random"), max_steps=3, concurrency=1, batch=2,
                            easy_above=1.0, replay_sample=1.0, replay_max_mb=0.001)
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(root / "home"))
    try:
        validated = validation_flow(config)
        shutil.copy(out / "tasks" / "accepted.jsonl", out / "tasks" / "reviewed.jsonl")
        rolled = rollouts_flow(config)
        dataset_flow(config)
    finally:
        mp.undo()
    assert validated["accepted"] == 2, validated
    return {"root": root, "out": out, "rolled": rolled}


def _rows(folder: Path, sub: str) -> list[dict]:
    return [r for p in sorted((folder / sub).glob("*.parquet")) for r in pq.read_table(p).to_pylist()]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _shots(store_path: Path) -> list[tuple]:
    """(attempt, screenshot key) of every step of every attempt in the store that has a screenshot."""
    store = TrajectoryStore(store_path)
    try:
        return [(a, s.screenshot) for a in store.attempts() for s in store.steps(a.id) if s.screenshot]
    finally:
        store.close()


def test_the_run_folder_holds_every_screenshot_its_store_and_dataset_refer_to(run):
    out, home = run["out"], run["root"] / "home"
    assert not [p for p in (home / "objects").rglob("*") if p.is_file()]  # nothing went to $GYMFACTORY_HOME/objects

    store = TrajectoryStore(out / "rollouts" / "trajectories.db")
    try:
        attempts = store.attempts()
        assert {a.agent for a in attempts} == {"golden", "random"}
        assert {a.info["objects"] for a in attempts} == {"../objects"}  # relative to the store's folder: OUT/objects
    finally:
        store.close()
    shots = _shots(out / "rollouts" / "trajectories.db")
    assert shots and all((out / "objects" / key).is_file() for _, key in shots)

    data, demos = _rows(out / "dataset", "data"), _rows(out / "dataset", "demonstrations")
    assert len(data) == 2 and demos
    texts = list(_strings(data + [{k: v for k, v in r.items() if k != "screenshot"} for r in demos]))
    texts += [r["screenshot"]["path"] for r in demos]
    assert not [t for t in texts if str(run["root"]) in t or (t.count("/") > 1 and os.path.isabs(t) and os.path.exists(t))]
    for row in demos:
        path = row["screenshot"]["path"]
        assert path.startswith("objects/") and (out / path).read_bytes() == row["screenshot"]["bytes"]


def test_the_runs_card_loads_its_dataset_by_its_path_in_the_run_folder(run):
    """No path of the machine that made the run: the card's code runs in the run folder (here with the run's folder
    renamed, as a copy elsewhere would be) and scores a row."""
    out = run["out"]
    card = (out / "dataset" / "README.md").read_text()
    assert str(run["root"]) not in card and str(run["root"].resolve()) not in card
    assert 'datasets.load_dataset("dataset", split="train")' in card and "in the run folder that made this dataset" in card
    block = re.search(r"## How to run a row.*?```python\n(.*?)```", card, re.S).group(1)
    moved = out.with_name("moved")
    out.rename(moved)
    try:
        done = subprocess.run([sys.executable, "-c", block], cwd=moved, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "HF_DATASETS_OFFLINE": "1", "GYMFACTORY_HOME": str(run["root"] / "block-home")})
    finally:
        moved.rename(out)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "status success reward 1.0" in done.stdout, done.stdout


def test_a_copy_of_the_run_folder_replays_and_publishes_its_screenshots(run, tmp_path):
    out = run["out"]
    moved = tmp_path / "elsewhere" / "run"
    shutil.copytree(out, moved)
    hidden = out.with_name("hidden")
    out.rename(hidden)  # the original is gone while the copy is read
    try:
        shots = _shots(moved / "rollouts" / "trajectories.db")
        store = TrajectoryStore(moved / "rollouts" / "trajectories.db")
        try:
            view = TrajectoryView(store)
            assert shots and all(view.screenshot(a, key) == (moved / "objects" / key).read_bytes() for a, key in shots)
        finally:
            store.close()
        folder = stage(PublishConfig(run=moved, repo="gym-org/tasks"))  # what `gymfactory publish` uploads, as it is
        demos = _rows(folder, "demonstrations")
        assert demos and all(r["screenshot"]["bytes"] for r in demos)
        assert all((moved / r["screenshot"]["path"]).read_bytes() == r["screenshot"]["bytes"] for r in demos)
    finally:
        hidden.rename(out)


def test_random_attempts_keep_their_screenshots_until_the_runs_bound(run):
    out = run["out"]
    store = TrajectoryStore(out / "rollouts" / "trajectories.db")
    try:
        randoms = store.attempts(agent="random")
        steps = {a.id: store.steps(a.id) for a in randoms}
    finally:
        store.close()
    assert [a.info["screenshots"] for a in randoms] == ["kept", "over_bound"]  # one browser slot: one after the other
    kept, later = randoms
    assert steps[kept.id] and all(s.screenshot and (out / "objects" / s.screenshot).is_file() for s in steps[kept.id])
    assert kept.info["screenshot_bytes"] > 1000  # past the 1 KB bound: the next attempt keeps none
    assert steps[later.id] and not any(s.screenshot for s in steps[later.id])
    replay = run["rolled"]["replay"]
    assert (replay["attempts"], replay["kept"], replay["over_bound"], replay["sampled_out"]) == (2, 1, 1, 0)
    assert replay["kept_mb"] == round(kept.info["screenshot_bytes"] / 1e6, 2)
    card = (out / "dataset" / "README.md").read_text()
    assert "of the non-golden agents' 2 attempts, 1 kept theirs" in card and "1 started once the kept ones had reached" in card


def test_a_regenerated_version_embeds_its_screenshots_as_the_runs_dataset_does(run, monkeypatch):
    """`gymfactory regenerate --from RUN`: the version's dataset is exported as the run's, its demonstrations the targeted
    tasks' golden runs in validation, their screenshots in RUN/objects, embedded and named by their path in RUN."""
    out = run["out"]
    monkeypatch.setenv("GYMFACTORY_HOME", str(run["root"] / "home"))
    config = RegenerateConfig(out=out, agents=("golden", "random"), new_tasks=2, validation_runs=1, concurrency=1, batch=2,
                              use_llm=False, synth=dict(families=FAMILIES, personas=("alex",), scenarios=("month_end",), seed=5))
    summary = regenerate_flow(config)
    assert summary["agent"] == "random" and summary["accepted"] >= 1, summary
    dataset = Path(summary["path"]) / "dataset"
    demos = _rows(dataset, "demonstrations")
    assert demos and {r["task_id"] for r in demos} == {r["id"] for r in _rows(dataset, "data")}
    for row in demos:
        path = row["screenshot"]["path"]
        assert path.startswith("objects/") and row["screenshot"]["bytes"] and (out / path).read_bytes() == row["screenshot"]["bytes"]
    assert not [p for p in (run["root"] / "home" / "objects").rglob("*") if p.is_file()]
    card = (dataset / "README.md").read_text()
    assert str(run["root"]) not in card and f'load_dataset("regenerated/{Path(summary["path"]).name}/dataset"' in card


def test_the_replay_sample_draws_the_same_attempts_every_time():
    names = [f"rollouts-random-x/task-{i}/0" for i in range(1000)]
    half = ReplaySample(rate=0.5)
    drawn = [n for n in names if half.drawn(n)]
    assert 400 < len(drawn) < 600 and drawn == [n for n in names if half.drawn(n)]
    assert not any(ReplaySample(rate=0).drawn(n) for n in names) and all(ReplaySample(rate=1).drawn(n) for n in names)


def test_a_store_naming_its_objects_by_absolute_path_still_replays(tmp_path, monkeypatch):
    """Runs made before the run folder held its screenshots named `$GYMFACTORY_HOME/objects` by its absolute path."""
    monkeypatch.setenv("GYMFACTORY_HOME", str(tmp_path / "home"))
    legacy, own = ObjectStore(tmp_path / "home" / "objects"), ObjectStore(tmp_path / "new-run" / "objects")
    legacy.put("s/1/000-1.png", b"old png")
    own.put("s/1/000-1.png", b"new png")
    old_store = TrajectoryStore(tmp_path / "old-run" / "rollouts" / "trajectories.db")
    new_store = TrajectoryStore(tmp_path / "new-run" / "rollouts" / "trajectories.db")
    try:
        for store, objects in ((old_store, legacy), (new_store, own)):
            attempt = store.start_attempt("t", "random", info={"objects": objects.reference(store.folder, above=1)})
            store.add_step(attempt, StepRecord(index=0, url="u", axtree="x", screenshot="s/1/000-1.png"))
        [old], [new] = old_store.attempts(), new_store.attempts()
        assert old.info["objects"] == legacy.url and new.info["objects"] == "../objects"
        assert TrajectoryView(old_store).screenshot(old, "s/1/000-1.png") == b"old png"
        assert TrajectoryView(new_store).screenshot(new, "s/1/000-1.png") == b"new png"
    finally:
        old_store.close()
        new_store.close()
    # the dataset export of a run folder without objects/ reads the old default store
    assert objects_of(tmp_path / "old-run").get("s/1/000-1.png") == b"old png"
    assert objects_of(tmp_path / "new-run").get("s/1/000-1.png") == b"new png"
