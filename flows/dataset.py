"""Flow: export the final tasks as a dataset folder in the Hugging Face Hub layout.

`data/train-<fingerprint>-00000-of-00001.parquet` plus a README dataset card whose YAML `configs` points at it,
so `datasets.load_dataset(folder)` loads it offline, and `push_to_hub` can publish it as is.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from prefect import flow

from factory.tasks.io import load_tasks
from factory.tasks.schema import Task

from .artifacts import link
from .config import PipelineConfig
from .workdir import Workdir

_CARD = """---
license: cc-by-4.0
task_categories:
- other
tags:
- gui-agents
- computer-use
- synthetic
pretty_name: gymfactory tasks
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train-{fingerprint}-*.parquet
---

# gymfactory tasks

{n} verified tasks for GUI agents over the mocked apps {apps}, made by gymfactory.
Every task was validated by execution: its verifier fails on the initial state, passes after
the golden code runs, fails again after a reset, and repeats its verdicts.

| family | tasks | apps | cross-app |
|---|---|---|---|
{rows}

Columns: `id`, `apps`, `form_factor`, `world`, `clock`, `instruction`, `criteria` (JSON),
`answer_context` (JSON, hidden from agents), `seed` (JSON: per-app seed records), `files` (JSON),
`verifier` and `golden` (Python source), `family`, `difficulty`, `provenance`, `cross_app`,
`demonstration` (the golden run's actions in the agent's action language), `task` (the whole task JSON).
"""


def rows(tasks: list[Task], demos: dict[str, list[str]]) -> pa.Table:
    return pa.table({
        "id": [t.id for t in tasks],
        "apps": [list(t.apps) for t in tasks],
        "form_factor": [t.form_factor for t in tasks],
        "world": [t.world or "" for t in tasks],
        "clock": [t.clock or "" for t in tasks],
        "instruction": [t.instruction for t in tasks],
        "criteria": [json.dumps([c.model_dump() for c in t.criteria]) for t in tasks],
        "answer_context": [json.dumps(t.answer_context, default=str) for t in tasks],
        "seed": [json.dumps(t.seed, default=str) for t in tasks],
        "files": [json.dumps(t.files) for t in tasks],
        "verifier": [t.verifier for t in tasks],
        "golden": [t.golden for t in tasks],
        "family": [t.meta.family for t in tasks],
        "difficulty": [t.meta.difficulty for t in tasks],
        "provenance": [t.meta.provenance for t in tasks],
        "cross_app": [t.meta.cross_app for t in tasks],
        "demonstration": [demos.get(t.id, []) for t in tasks],
        "task": [t.model_dump_json() for t in tasks],
    })


def export(tasks: list[Task], folder: Path, demos: dict[str, list[str]] | None = None) -> Path:
    """Write `folder/data/*.parquet` and `folder/README.md`; returns the folder.

    The data file name carries a fingerprint of the content: `datasets` caches a local folder by
    its name and file patterns, so two exports both called `dataset` would otherwise share a cache.
    """
    (folder / "data").mkdir(parents=True, exist_ok=True)
    for old in (folder / "data").glob("*.parquet"):
        old.unlink()
    fingerprint = hashlib.sha256("".join(t.model_dump_json() for t in tasks).encode()).hexdigest()[:12]
    pq.write_table(rows(tasks, demos or {}), folder / "data" / f"train-{fingerprint}-00000-of-00001.parquet")
    families = Counter(t.meta.family for t in tasks)
    meta = {t.meta.family: t for t in tasks}
    table = "\n".join(f"| {f} | {n} | {', '.join(meta[f].apps)} | {'yes' if meta[f].meta.cross_app else 'no'} |" for f, n in sorted(families.items()))
    apps = ", ".join(sorted({a for t in tasks for a in t.apps}))
    (folder / "README.md").write_text(_CARD.format(n=len(tasks), apps=apps or "-", rows=table, fingerprint=fingerprint))
    return folder


@flow(name="export-dataset", log_prints=True)
def dataset_flow(config: PipelineConfig) -> dict:
    """tasks/final.jsonl (or reviewed.jsonl) -> dataset/ in the Hub layout."""
    wd, started = Workdir(config.out), time.monotonic()
    source = wd.path("tasks", "final.jsonl")
    if not source.is_file():
        source = wd.path("tasks", "reviewed.jsonl")
    inputs = [Workdir.fingerprint(source.read_text())]
    if (done := wd.done("dataset", inputs)) is not None:
        return done
    tasks = load_tasks(source) if source.stat().st_size else []
    demos_file = wd.path("tasks", "demonstrations.jsonl")
    demos = {}
    if demos_file.is_file():
        for line in demos_file.read_text().splitlines():
            d = json.loads(line)
            demos[d["task_id"]] = d["actions"]
    folder = export(tasks, wd.path("dataset", "x").parent, demos)
    link("dataset-folder", folder, "Dataset folder (Hub layout): load with datasets.load_dataset(path)")
    return wd.finish("dataset", inputs, {"rows": len(tasks), "path": str(folder)}, time.monotonic() - started)
