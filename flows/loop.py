"""Flow: rounds of rollouts -> diagnosis -> regeneration -> training, measured on a fixed held-out set.

Round 0 synthesizes and validates a base pool and a held-out set. Each round rolls the agent out on
the round's training tasks (the base pool, then the previous round's regenerated tasks) and on the
held-out set, diagnoses its training attempts so far, and regenerates targeted tasks for the next
round. With `train` (a model agent: `reference` or `policy`), the agent's policy is then trained on
the round's regenerated tasks (SFT on their golden demonstrations, then `train_steps` GRPO steps) and
the next round rolls out the new checkpoint; after the last round the final checkpoint is measured on
the held-out set once more. Output in `OUT/loop/`: `round-<r>/` (the regenerated version, and with
training `round-<r>/train/` with its checkpoints), `trajectories.db`, `report.json` and `report.md`. The agent's
attempts keep their screenshots (in the run's `objects/`) as the run's rollouts do: a sample of them, under one bound
on their size for the whole loop (`--replay-sample`, `--replay-max-mb`; `flows.rollouts.replay_budget`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from prefect import flow
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import Field, model_validator

from rl.models import REFERENCE

from contracts.taskfiles import load_tasks, save_tasks
from contracts.status import SCORED
from contracts.task import Task
from factory.diagnosis.targeting import TargetConfig
from factory.tasks.synthesize import synthesize
from factory.verifiers.validate import accepted_task
from runtime.agents import AgentOptions
from runtime.dashboard.data import TrajectoryView, rate_rows
from runtime.replay import ReplayBudget
from runtime.rollout import AttemptResult, rollout
from runtime.store import TrajectoryStore

from .artifacts import table
from .difficulty import ORACLE
from .environment import current, environment
from .regenerate import RegenerateConfig, regenerate_version
from .rollouts import replay_budget, replay_summary
from .run_evidence import replay_line
from .validation import validate_batch
from .workdir import Workdir

__all__ = ["LoopConfig", "loop_flow"]


class LoopConfig(RegenerateConfig):
    """Rounds of the loop; every regeneration and pipeline field keeps its meaning."""

    rounds: int = Field(default=3, ge=1, description="Rounds of rollouts -> diagnose -> regenerate.")
    agent: str = Field(default="random", description="The agent measured and diagnosed each round.")
    base_tasks: int = Field(default=12, ge=1, description="Tasks of the first round's training pool.")
    heldout_tasks: int = Field(default=8, ge=1, description="Tasks of the fixed held-out set, rolled out every round.")
    train: bool = Field(default=False, description="Train the agent's policy on each round's regenerated tasks (SFT on their golden "
                        "demonstrations, then --train-steps GRPO steps); the next round rolls out the new checkpoint. Needs a model "
                        "agent: reference or policy.")
    train_steps: int = Field(default=0, ge=0, description="GRPO steps of each round's training (after SFT).")
    train_sft_epochs: int = Field(default=4, ge=0, description="SFT epochs of each round's training.")
    train_lr: float | None = Field(default=None, gt=0, description="SFT learning rate of each round's training (default: 1e-4 "
                                   "for a pretrained policy).")
    train_layers: int | None = Field(default=None, ge=0, description="Top transformer blocks trained (0: all; default: the top 4 "
                                     "of a pretrained policy).")

    @model_validator(mode="after")
    def _trainable_agent(self) -> "LoopConfig":
        if self.train and self.agent not in TRAINABLE:
            raise ValueError(f"--train trains the agent's policy between rounds: --agent must be one of {', '.join(TRAINABLE)} "
                             f"(a model on this machine), not {self.agent!r}")
        return self

    def start_policy(self) -> str | None:
        """The model the agent starts from: --model, or the reference model for the reference agent; None for other agents."""
        if self.model:
            return self.model
        return REFERENCE if self.agent in TRAINABLE else None


TRAINABLE = ("reference", "policy")


def _validated(tasks: list[Task], config: LoopConfig) -> list[Task]:
    batches = [tasks[i : i + config.batch] for i in range(0, len(tasks), config.batch)]
    results = {r.task_id: r for f in [validate_batch.submit(b, config.validation_runs) for b in batches] for r in f.result()}
    return [accepted_task(t, results[t.id]) for t in tasks if t.id in results and results[t.id].accepted]


def _roll(tasks: list[Task], config: LoopConfig, store: TrajectoryStore, run: str, policy: str | None,
          replay: ReplayBudget | None) -> list[AttemptResult]:
    """The agent's attempts at `tasks`, stored under `run`; with `replay`, only those it draws keep their screenshots."""
    return list(rollout(tasks, config.agent, config.attempts, config.concurrency, options=AgentOptions(model=policy),
                        max_steps=config.max_steps, manager=current(), store=store, run=run, screenshots=config.screenshots,
                        replay=replay).results)


def _runs(config: LoopConfig) -> set[str]:
    """The names the loop stores its rollouts under."""
    return {f"loop-r{r}-{part}" for r in range(1, config.rounds + 1) for part in ("train", "heldout")} | {"loop-final-heldout"}


def _heldout(store: TrajectoryStore, run: str) -> tuple[dict[str, float], float | None]:
    """Success per capability and overall of a held-out rollout."""
    held = TrajectoryView(store).attempts(run=run)
    scored = [a for a in held if a.outcome is not None and a.outcome.status in SCORED]
    overall = round(sum(a.outcome.success for a in scored) / len(scored), 3) if scored else None
    return {b.key: b.success_rate for b in rate_rows(held, "capability")}, overall


def _train(round_dir: Path, policy: str, config: LoopConfig) -> tuple[str, dict]:
    """Train `policy` on the round's regenerated tasks; returns the new checkpoint and what the training did."""
    from rl import checkpoint as ckpt
    from rl.config import TrainConfig
    from rl.train import train

    out = round_dir / "train"
    tc = TrainConfig(tasks=round_dir / "tasks.jsonl", out=out, policy=policy, trainable_layers=config.train_layers,
                     sft_epochs=config.train_sft_epochs, sft_lr=config.train_lr, grpo_steps=config.train_steps, group_size=4,
                     tasks_per_step=2, held_out=0.0, zero_shot=False, max_steps=config.max_steps, max_new_tokens=32, micro_batch=1,
                     concurrency=config.concurrency, seed=config.synth.seed, resume=ckpt.latest(out) is not None)
    report = train(tc, log=print, manager=current())
    latest = ckpt.latest(out)
    return str(latest), {"from": policy, "checkpoint": str(latest), "demos": report.demos,
                         "sft_loss": [report.sft_loss_before, report.sft_loss_after], "grpo_steps": len(report.steps),
                         "grpo_success": [s.get("success_rate") for s in report.steps], "seconds": round(report.seconds, 1)}


@flow(name="loop", log_prints=True, task_runner=ThreadPoolTaskRunner(max_workers=16))
def loop_flow(config: LoopConfig) -> dict:
    """Rounds of rollouts -> diagnosis -> regeneration on OUT/loop, success per capability per round on a held-out set."""
    wd, started = Workdir(config.out), time.monotonic()
    inputs = [config.model_dump(mode="json", exclude={"out", "fresh"})]
    if (done := wd.done("loop", inputs)) is not None:
        return done
    store_path = wd.path("loop", "trajectories.db")
    rounds: list[dict] = []
    attempts: list[AttemptResult] = []
    with environment(config.concurrency, config.backend, config.object_store()):
        base = wd.path("loop", "base.jsonl")
        if not base.is_file():
            synth = config.synth.model_copy(update={"n": config.base_tasks + config.heldout_tasks,
                                                    "worlds_per_pair": max(config.synth.worlds_per_pair, 4)})
            save_tasks(_validated(synthesize(synth), config), base)
        pool = load_tasks(base)
        heldout, train = pool[: config.heldout_tasks], pool[config.heldout_tasks :]
        store = TrajectoryStore(store_path)
        policy = config.start_policy()
        replay = None if config.agent == ORACLE else replay_budget(config, str(store_path), _runs(config))  # golden: demonstrations
        try:
            for r in range(1, config.rounds + 1):
                clock = time.monotonic()
                attempts += _roll(train, config, store, f"loop-r{r}-train", policy, replay)
                attempts += _roll(heldout, config, store, f"loop-r{r}-heldout", policy, replay)
                by_cap, overall = _heldout(store, f"loop-r{r}-heldout")
                target = TargetConfig(n=config.new_tasks, seed=config.synth.seed * 1000 + 100 + r, personas=config.synth.personas,
                                      scenarios=config.synth.scenarios, distractor_rate=config.distractor_rate,
                                      families=config.synth.families)
                runs = tuple(f"loop-r{k}-train" for k in range(1, r + 1))
                summary = regenerate_version(config, store_path, config.agent, runs, target, wd.path("loop", f"round-{r}", "x").parent)
                row = {"round": r, "policy": policy, "train_tasks": len(train), "heldout_success": by_cap, "heldout_overall": overall,
                       "top": summary["top"], "focus": summary["focus"], "new_tasks": summary["accepted"],
                       "targeted_share": summary["targeted_share"]}
                round_dir = wd.path("loop", f"round-{r}", "x").parent
                if config.train and summary["accepted"]:
                    policy, row["training"] = _train(round_dir, policy, config)
                row["seconds"] = round(time.monotonic() - clock, 1)
                rounds.append(row)
                print(f"loop round {r}: top {summary['top']}, targeted share {summary['targeted_share']}, "
                      f"{summary['accepted']} new tasks, held-out {overall}"
                      + (f", trained on {row['training']['demos']} demonstrations -> {policy}" if "training" in row else ""))
                train = load_tasks(round_dir / "tasks.jsonl") or train
            if config.train:  # the last round's training, measured
                attempts += _roll(heldout, config, store, "loop-final-heldout", policy, replay)
                by_cap, overall = _heldout(store, "loop-final-heldout")
                rounds.append({"round": "final", "policy": policy, "heldout_success": by_cap, "heldout_overall": overall,
                               "top": [], "focus": None, "new_tasks": 0, "targeted_share": 0.0, "seconds": 0.0})
        finally:
            store.close()
    capabilities = sorted({c for row in rounds for c in row["heldout_success"]})
    table("loop-success-by-capability", [{"round": row["round"], **{c: row["heldout_success"].get(c) for c in capabilities}} for row in rounds],
          f"Held-out success per capability per round ({config.agent})")
    table("loop-targeting", [{k: row[k] for k in ("round", "top", "focus", "new_tasks", "targeted_share", "seconds")} for row in rounds],
          "What each round targeted, and the share of its new tasks that exercise the top capability")
    replay_kept = replay_summary({config.agent: attempts}, config)
    report = {"agent": config.agent, "rounds": rounds, "replay": replay_kept,
              "training": (f"SFT ({config.train_sft_epochs} epochs) + {config.train_steps} GRPO steps on each round's regenerated "
                           f"tasks, from {config.start_policy()}") if config.train
              else "not run between rounds (the loop measures regeneration alone; --train trains a model agent)"}
    wd.path("loop", "report.json").write_text(json.dumps(report, indent=1, default=str))
    lines = [f"# Loop report: {config.agent}", "", report["training"] + ".", "",
             "| round | top | targeted share | new tasks | held-out | " + " | ".join(capabilities) + " |",
             "|---" * (5 + len(capabilities)) + "|"]
    for row in rounds:
        cells = [f"{row['heldout_success'][c]:.2f}" if c in row["heldout_success"] else "-" for c in capabilities]
        overall = "-" if row["heldout_overall"] is None else f"{row['heldout_overall']:.2f}"
        lines.append(f"| {row['round']} | {', '.join(row['top'])} | {row['targeted_share']:.2f} | {row['new_tasks']} | {overall} | "
                     + " | ".join(cells) + " |")
    note = ("Held-out success per capability, measured at the start of each round (the policy the previous rounds trained); "
            "'final' is the policy after the last round's training.") if config.train else "Held-out success per capability per round."
    trained = [row for row in rounds if "training" in row]
    if trained:
        lines += ["", "| round | demonstrations | SFT loss | GRPO steps | checkpoint |", "|---|---|---|---|---|"]
        lines += [f"| {row['round']} | {row['training']['demos']} | " + " -> ".join(f"{x:.3f}" for x in row["training"]["sft_loss"] if x is not None)
                  + f" | {row['training']['grpo_steps']} | {row['training']['checkpoint']} |" for row in trained]
    if replay_kept["attempts"]:
        note += "\n\n" + replay_line(replay_kept)
    wd.path("loop", "report.md").write_text("\n".join(lines) + "\n\n" + note + "\n")
    return wd.finish("loop", inputs, {"rounds": rounds, "replay": replay_kept}, time.monotonic() - started)
