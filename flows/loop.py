"""Flow: rounds of rollouts -> diagnosis -> regeneration, measured on a fixed held-out set.

Round 0 synthesizes and validates a base pool and a held-out set. Each round rolls the agent out on
the round's training tasks (the base pool, then the previous round's regenerated tasks) and on the
held-out set, diagnoses its training attempts so far, and regenerates targeted tasks for the next
round. Training between rounds is not part of this flow yet; the report says so. Output in
`OUT/loop/`: `round-<r>/` (the regenerated version), `trajectories.db`, `report.json` and `report.md`.
"""

from __future__ import annotations

import json
import time

from prefect import flow
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import Field, model_validator

from contracts.taskfiles import load_tasks, save_tasks
from contracts.status import SCORED
from contracts.task import Task
from factory.diagnosis.targeting import TargetConfig
from factory.tasks.synthesize import synthesize
from factory.verifiers.validate import accepted_task
from runtime.agents import AgentOptions
from runtime.dashboard.data import TrajectoryView, rate_rows
from runtime.rollout import rollout
from runtime.store import TrajectoryStore

from .artifacts import table
from .environment import current, environment
from .regenerate import RegenerateConfig, regenerate_version
from .validation import validate_batch
from .workdir import Workdir

__all__ = ["LoopConfig", "loop_flow"]


class LoopConfig(RegenerateConfig):
    """Rounds of the loop; every regeneration and pipeline field keeps its meaning."""

    rounds: int = Field(default=3, ge=1, description="Rounds of rollouts -> diagnose -> regenerate.")
    agent: str = Field(default="random", description="The agent measured and diagnosed each round.")
    base_tasks: int = Field(default=12, ge=1, description="Tasks of the first round's training pool.")
    heldout_tasks: int = Field(default=8, ge=1, description="Tasks of the fixed held-out set, rolled out every round.")

    @model_validator(mode="after")
    def _no_training_yet(self) -> "LoopConfig":
        if self.train:
            raise ValueError("the loop does not train between rounds yet: leave train off (run `gymfactory train` on a round's tasks)")
        return self


def _validated(tasks: list[Task], config: LoopConfig) -> list[Task]:
    batches = [tasks[i : i + config.batch] for i in range(0, len(tasks), config.batch)]
    results = {r.task_id: r for f in [validate_batch.submit(b, config.validation_runs) for b in batches] for r in f.result()}
    return [accepted_task(t, results[t.id]) for t in tasks if t.id in results and results[t.id].accepted]


def _roll(tasks: list[Task], config: LoopConfig, store: TrajectoryStore, run: str) -> None:
    rollout(tasks, config.agent, config.attempts, config.concurrency, options=AgentOptions(), max_steps=config.max_steps,
            manager=current(), store=store, run=run, screenshots=config.screenshots)


@flow(name="loop", log_prints=True, task_runner=ThreadPoolTaskRunner(max_workers=16))
def loop_flow(config: LoopConfig) -> dict:
    """Rounds of rollouts -> diagnosis -> regeneration on OUT/loop, success per capability per round on a held-out set."""
    wd, started = Workdir(config.out), time.monotonic()
    inputs = [config.model_dump(mode="json", exclude={"out", "fresh"})]
    if (done := wd.done("loop", inputs)) is not None:
        return done
    store_path = wd.path("loop", "trajectories.db")
    rounds: list[dict] = []
    with environment(config.concurrency, config.backend, config.objects_url):
        base = wd.path("loop", "base.jsonl")
        if not base.is_file():
            synth = config.synth.model_copy(update={"n": config.base_tasks + config.heldout_tasks,
                                                    "worlds_per_pair": max(config.synth.worlds_per_pair, 4)})
            save_tasks(_validated(synthesize(synth), config), base)
        pool = load_tasks(base)
        heldout, train = pool[: config.heldout_tasks], pool[config.heldout_tasks :]
        store = TrajectoryStore(store_path)
        try:
            for r in range(1, config.rounds + 1):
                clock = time.monotonic()
                _roll(train, config, store, f"loop-r{r}-train")
                _roll(heldout, config, store, f"loop-r{r}-heldout")
                view = TrajectoryView(store)
                held = view.attempts(run=f"loop-r{r}-heldout")
                by_cap = {b.key: b.success_rate for b in rate_rows(held, "capability")}
                scored = [a for a in held if a.outcome is not None and a.outcome.status in SCORED]
                target = TargetConfig(n=config.new_tasks, seed=config.synth.seed * 1000 + 100 + r, personas=config.synth.personas,
                                      scenarios=config.synth.scenarios, distractor_rate=config.distractor_rate,
                                      families=config.synth.families)
                runs = tuple(f"loop-r{k}-train" for k in range(1, r + 1))
                summary = regenerate_version(store_path, config.agent, runs, target, wd.path("loop", f"round-{r}", "x").parent,
                                             config.validation_runs, config.concurrency, config.batch, parent=str(config.out))
                rounds.append({"round": r, "train_tasks": len(train), "heldout_success": by_cap,
                               "heldout_overall": round(sum(a.outcome.success for a in scored) / len(scored), 3) if scored else None,
                               "top": summary["top"], "focus": summary["focus"], "new_tasks": summary["accepted"],
                               "targeted_share": summary["targeted_share"], "seconds": round(time.monotonic() - clock, 1)})
                print(f"loop round {r}: top {summary['top']}, targeted share {summary['targeted_share']}, "
                      f"{summary['accepted']} new tasks, held-out {rounds[-1]['heldout_overall']}")
                train = load_tasks(wd.path("loop", f"round-{r}", "tasks.jsonl")) or train
        finally:
            store.close()
    capabilities = sorted({c for row in rounds for c in row["heldout_success"]})
    table("loop-success-by-capability", [{"round": row["round"], **{c: row["heldout_success"].get(c) for c in capabilities}} for row in rounds],
          f"Held-out success per capability per round ({config.agent})")
    table("loop-targeting", [{k: row[k] for k in ("round", "top", "focus", "new_tasks", "targeted_share", "seconds")} for row in rounds],
          "What each round targeted, and the share of its new tasks that exercise the top capability")
    report = {"agent": config.agent, "rounds": rounds, "training": "not run between rounds (the loop measures regeneration alone)"}
    wd.path("loop", "report.json").write_text(json.dumps(report, indent=1, default=str))
    lines = [f"# Loop report: {config.agent}", "", "| round | top | targeted share | new tasks | " + " | ".join(capabilities) + " |",
             "|---" * (4 + len(capabilities)) + "|"]
    for row in rounds:
        cells = [f"{row['heldout_success'][c]:.2f}" if c in row["heldout_success"] else "-" for c in capabilities]
        lines.append(f"| {row['round']} | {', '.join(row['top'])} | {row['targeted_share']:.2f} | {row['new_tasks']} | " + " | ".join(cells) + " |")
    wd.path("loop", "report.md").write_text("\n".join(lines) + "\n\nHeld-out success per capability per round.\n")
    return wd.finish("loop", inputs, {"rounds": rounds}, time.monotonic() - started)
