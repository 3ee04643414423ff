"""Flow: export the final tasks as a dataset folder in the Hugging Face Hub layout.

`data/<split>-<fingerprint>-00000-of-00001.parquet` (one row per task, nested columns: `flows.dataset_columns`),
`demonstrations/<split>-<fingerprint>-00000-of-00001.parquet` (one row per golden step, screenshots embedded:
`flows.demonstrations`) and a README dataset card (`flows.dataset_card`) whose YAML `configs` points at them,
so `datasets.load_dataset(folder)` and `datasets.load_dataset(folder, "demonstrations")` load it offline, and
`gymfactory publish` uploads it as is.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from importlib import metadata

import pyarrow as pa
import pyarrow.parquet as pq
from prefect import flow
from pydantic import BaseModel, ConfigDict, Field

from factory.app_versions import app_version
from contracts.taskfiles import load_tasks
from contracts.task import Task
from runtime import confine
from runtime.objectstore import ObjectStore

from .artifacts import link
from .config import PipelineConfig
from .dataset_card import CardFacts, render
from .dataset_columns import SplitOptions, heldout_groups, heldout_rule, split_of, table as columns
from .demonstrations import CONFIG as DEMONSTRATIONS, lengths, table as demonstration_rows
from .run_evidence import DemoStep, RunEvidence, gather, objects_of
from .workdir import Workdir

class ExportOptions(BaseModel):
    """How a run's tasks become a dataset folder; `gymfactory publish` and the export flow read the same model."""

    model_config = ConfigDict(frozen=True)

    split: SplitOptions = Field(default_factory=SplitOptions, description="Held-out apps or families.")
    source: str | None = Field(default=None, description="What the card's code loads: a Hub repo id; default the folder.")
    license: str = Field(default="cc-by-4.0", description="Licence of the data, written in the card.")
    reproduce: str = Field(default="", description="The command that made the run, for the card.")


def export(tasks: list[Task], folder: Path, demos: dict[str, list[str]] | None = None, evidence: RunEvidence | None = None,
           options: ExportOptions | None = None, objects: ObjectStore | None = None, run: Path | None = None) -> Path:
    """Write `folder/data/<split>-<fingerprint>-*.parquet`, `folder/demonstrations/<split>-<fingerprint>-*.parquet` and
    `folder/README.md`; returns the folder.

    `demos` (task id -> actions) fills demonstrations when there is no `evidence` of the run; `objects` is the object
    store the demonstrations' screenshots are read from (none: rows without images); their bytes go into the parquet
    files, and their paths are given relative to the `run` folder (none when the store is not in it). Without a
    `source`, the card loads the folder by its path relative to the `run` folder that holds it, else by its
    absolute path. The data
    file name carries a fingerprint of the content: `datasets` caches a local folder by its name and
    file patterns, so two exports both called `dataset` would otherwise share a cache. Same tasks and
    evidence give the same bytes, so publishing them again makes no new commit.
    """
    options = options or ExportOptions()
    if evidence is None:
        evidence = RunEvidence(demonstrations={k: [DemoStep(action=a) for a in v] for k, v in (demos or {}).items()})
    for sub in ("data", DEMONSTRATIONS):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        for old in (folder / sub).glob("*.parquet"):
            old.unlink()
    versions = {a: app_version(a) for a in sorted({a for t in tasks for a in t.apps})}
    gf_version = _gymfactory_version()
    fingerprint = hashlib.sha256(("".join(t.model_dump_json() for t in tasks) + evidence.model_dump_json() + options.model_dump_json()
                                  + gf_version + "".join(v.digest for v in versions.values())).encode()).hexdigest()[:12]
    heldout = heldout_groups(tasks, options.split)
    parts = {"train": [t for t in tasks if split_of(t, options.split.by, heldout) == "train"]}
    if options.split.by != "none":
        parts["heldout"] = [t for t in tasks if split_of(t, options.split.by, heldout) == "heldout"]
    # one table over every task, then split by rows: every split has the same (inferred) nested schema
    whole = columns(tasks, evidence, {a: (v.version, v.digest) for a, v in versions.items()}, gf_version)
    index = {t.id: i for i, t in enumerate(tasks)}
    demonstrations: dict[str, int] = {}
    steps_of: list = []
    for name, part in parts.items():
        if part or name == "train":
            pq.write_table(whole.take([index[t.id] for t in part]), folder / "data" / f"{name}-{fingerprint}-00000-of-00001.parquet")
        steps = demonstration_rows(part, evidence.demonstrations, objects, run)
        if steps.num_rows:  # small row groups: a reader (the Hub's viewer) pages through screenshots a few at a time
            pq.write_table(steps, folder / DEMONSTRATIONS / f"{name}-{fingerprint}-00000-of-00001.parquet", row_group_size=64)
            demonstrations[name] = steps.num_rows
            steps_of.append(steps)
    in_run = options.source is None and run is not None and folder.resolve().is_relative_to(Path(run).resolve())
    source = options.source or (folder.resolve().relative_to(Path(run).resolve()).as_posix() if in_run else str(folder.resolve()))
    facts = CardFacts(source=source, source_in_run=in_run, fingerprint=fingerprint,
                      splits={n: len(p) for n, p in parts.items()}, split_by=options.split.by, heldout=heldout,
                      heldout_rule=heldout_rule(options.split),
                      license=options.license, gymfactory_version=gf_version,
                      app_versions={a: f"{v.version} ({v.digest[:10]})" for a, v in versions.items()},
                      reproduce=options.reproduce, unconfined=confine.unsafe(), demonstrations=demonstrations,
                      demonstration_tokens=lengths(pa.concat_tables(steps_of)) if steps_of else None, project=_project_url())
    if not parts["train"]:
        facts = facts.model_copy(update={"splits": {**facts.splits, "train": 0}})
    (folder / "README.md").write_text(render(tasks, evidence, facts))
    return folder


def _project_url() -> str:
    """gymfactory's Project-URL from its installed metadata (pyproject's [project.urls]); empty when it names none."""
    try:
        urls = metadata.metadata("gymfactory").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return ""
    return next((u.split(",", 1)[1].strip() for u in urls if "," in u), "")


def _gymfactory_version() -> str:
    try:
        return metadata.version("gymfactory")
    except metadata.PackageNotFoundError:
        return "unknown"


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
    folder = export(tasks, wd.path("dataset", "x").parent, evidence=gather(wd.root, config.trajectory_store()),
                    options=ExportOptions(reproduce=f"gymfactory run --tasks {config.synth.n} --seed {config.synth.seed} "
                                               f"--provider {config.provider}" + (" --catalogue" if config.synth.catalogue else "")),
                    objects=objects_of(wd.root, config.objects_url), run=wd.root)
    link("dataset-folder", folder, "Dataset folder (Hub layout): load with datasets.load_dataset(path), and its golden "
         "steps with datasets.load_dataset(path, 'demonstrations')")
    apps = len({app for t in tasks for app in t.apps})
    steps = sum(pq.ParquetFile(p).metadata.num_rows for p in (folder / DEMONSTRATIONS).glob("*.parquet"))
    return wd.finish("dataset", inputs, {"rows": len(tasks), "apps": apps, "demonstration_steps": steps, "path": str(folder)},
                     time.monotonic() - started)
