"""Flow: failure-driven regeneration. A run's rollouts -> weakness profile -> targeted tasks -> the gates -> a new dataset version.

`gymfactory regenerate --from RUN` and the `regenerate` deployment read the same config. The new
version lives in `RUN/regenerated/v<k>/`: `profile.json` (the weakness profile), `tasks.jsonl` (the
accepted targeted tasks), `validation.jsonl`, `lineage.json` (parent run, agent, profile, plan) and
`dataset/` in the Hub layout, which carries `lineage.json` and `profile.json` too. The dataset is exported as the
run's own is (`flows.dataset.export`): its demonstrations are the targeted tasks' golden runs in validation, their
screenshots kept in the run's object store and embedded, named by their path in the run folder.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from prefect import flow
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import Field

from contracts.taskfiles import save_tasks
from factory.diagnosis import DiagnoseConfig, WeaknessProfile, diagnose
from factory.diagnosis.llm import default_llm
from factory.diagnosis.targeting import TargetConfig, targeted_tasks
from factory.verifiers.validate import accepted_task
from runtime.dashboard.data import TrajectoryView
from runtime.store import TrajectoryStore

from .artifacts import link, table
from .config import PipelineConfig
from .dataset import ExportOptions, export
from .environment import environment
from .run_evidence import objects_of, validation_evidence
from .validation import validate_batch
from .workdir import TRAJECTORIES, Workdir

__all__ = ["RegenerateConfig", "regenerate_flow", "regenerate_version"]


class RegenerateConfig(PipelineConfig):
    """A run folder (`out`) to regenerate from, and how; every pipeline field keeps its meaning."""

    diagnose_agent: str | None = Field(default=None, description="Agent whose failures drive regeneration; default the run's "
                                       "first agent other than golden.")
    new_tasks: int = Field(default=16, ge=1, description="Targeted tasks to synthesize (before the gates).")
    distractor_rate: float = Field(default=0.8, ge=0, le=1, description="Distractor rate of the new worlds of targeted tasks.")
    use_llm: bool = Field(default=True, description="Let an LLM refine the diagnosis when a provider key is set.")


def regenerate_version(config: PipelineConfig, store: Path, agent: str, runs: tuple[str, ...] | None, target: TargetConfig,
                       folder: Path, llm: str | None = None) -> dict:
    """Diagnose `agent` in `store`, write targeted tasks through validation into `folder`; returns the summary. The run
    folder `config.out` is the parent; its validation runs, concurrency, batch, object store and demonstration
    screenshots are the config's."""
    view = TrajectoryView(TrajectoryStore(store))
    try:
        profile = diagnose(view, DiagnoseConfig(agent=agent, runs=runs, llm=llm))
        failed: dict[str, list[str]] = {}
        for a in view.attempts(agent=agent):
            if a.outcome is not None and a.outcome.status == "failure" and (runs is None or a.info.get("run") in runs):
                failed.setdefault((a.info.get("task") or {}).get("family") or "", []).append(a.task_id)
    finally:
        view.store.close()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "profile.json").write_text(profile.model_dump_json(indent=1))
    tasks, chosen = targeted_tasks(profile, failed, target)
    results = []
    with environment(config.concurrency, config.backend, config.object_store()):
        batches = [tasks[i : i + config.batch] for i in range(0, len(tasks), config.batch)]
        for future in [validate_batch.submit(b, config.validation_runs, config.demo_screenshots) for b in batches]:
            results.extend(future.result())
    verdicts = {r.task_id: r for r in results}
    (folder / "validation.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    accepted = [accepted_task(t, verdicts[t.id]) for t in tasks if t.id in verdicts and verdicts[t.id].accepted]
    save_tasks(accepted, folder / "tasks.jsonl")
    top = profile.top(1)
    share = round(sum(bool(top) and top[0] in t.meta.capabilities for t in accepted) / len(accepted), 3) if accepted else 0.0
    lineage = {"parent_run": str(config.out), "agent": agent, "runs": list(profile.runs), "profile": "profile.json",
               "top_capabilities": profile.top(3), "plan": chosen.model_dump(), "synthesized": len(tasks), "accepted": len(accepted),
               "targeted_share": share, "created": time.time()}
    (folder / "lineage.json").write_text(json.dumps(lineage, indent=1))
    export(accepted, folder / "dataset", evidence=validation_evidence(results),
           options=ExportOptions(reproduce="gymfactory regenerate --from RUN"),
           objects=objects_of(config.out, config.objects_url), run=Path(config.out))
    for name in ("lineage.json", "profile.json"):  # the version carries its parent run and profile wherever it is published
        (folder / "dataset" / name).write_text((folder / name).read_text())
    caps = Counter(c for t in accepted for c in t.meta.capabilities)
    return {"agent": agent, "top": top, "focus": chosen.focus, "synthesized": len(tasks), "accepted": len(accepted),
            "targeted_share": share, "capabilities": dict(caps), "path": str(folder), "profile": _profile_rows(profile)}


def _profile_rows(profile: WeaknessProfile) -> list[dict]:
    return [{"capability": c.capability, "failure_rate": c.failure_rate, "score": c.score, "confidence": c.confidence,
             "evidence": list(c.evidence[:5])} for c in profile.capabilities]


@flow(name="regenerate", log_prints=True, task_runner=ThreadPoolTaskRunner(max_workers=16))
def regenerate_flow(config: RegenerateConfig) -> dict:
    """RUN/rollouts -> weakness profile -> targeted tasks through the gates -> RUN/regenerated/v<k>/ (a new dataset version)."""
    wd, started = Workdir(config.out), time.monotonic()
    store = wd.root.joinpath(*TRAJECTORIES)
    if not store.is_file():
        raise FileNotFoundError(f"{store}: the run has no rollouts to diagnose; run `gymfactory run --out {config.out}` first")
    view = TrajectoryView(TrajectoryStore(store))
    agents = list(dict.fromkeys(a.agent for a in view.attempts()))
    view.store.close()
    agent = config.diagnose_agent or next((a for a in config.agents if a != "golden" and a in agents), None) \
        or next((a for a in agents if a != "golden"), None)
    if agent is None:
        raise ValueError(f"{store} has no attempts of an agent other than golden to diagnose")
    existing = sorted(int(p.name[1:]) for p in wd.root.joinpath("regenerated").glob("v*") if p.name[1:].isdigit())
    version = (existing[-1] + 1) if existing else 1
    synth = config.synth
    target = TargetConfig(n=config.new_tasks, seed=synth.seed * 1000 + version, personas=synth.personas, scenarios=synth.scenarios,
                          distractor_rate=config.distractor_rate, families=synth.families)
    summary = regenerate_version(config, store, agent, None, target, wd.path("regenerated", f"v{version}", "x").parent,
                                 llm=default_llm() if config.use_llm else None)
    table("regenerate-profile", summary["profile"], f"Weakness profile of {agent} (weakest first)")
    link("regenerated-dataset", Path(summary["path"]) / "dataset", f"Dataset version v{version}, targeted at {summary['top']}")
    print(f"regenerate: {agent} weakest at {summary['top']}; {summary['accepted']}/{summary['synthesized']} targeted tasks accepted "
          f"-> {summary['path']}")
    return wd.finish("regenerate", [version], {k: v for k, v in summary.items() if k != "profile"}, time.monotonic() - started)
