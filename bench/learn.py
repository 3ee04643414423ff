"""`gymfactory bench learn`: does training on the factory's tasks make a real model better on tasks it never saw?

The reference model (SmolLM2-135M-Instruct, offline) is evaluated zero-shot, after SFT on golden demonstrations,
and after GRPO, on two held-out splits: instances of the trained families in worlds never trained on, and
families of apps never trained on. Tasks are synthesized and validated here (cached in OUT/tasks), every
evaluation is cached in OUT/evals, and training resumes from its checkpoints, so a rerun of the same
command continues where it stopped. Success is reported greedy and as pass@k, with 95% bootstrap intervals
over task instances, per capability, with the k3 monitor and tokens/s of inference and training.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from rich.table import Table

from contracts.options import config_options
from contracts.signals import interrupt_on_signals
from contracts.task import Task
from contracts.taskfiles import load_tasks, save_tasks
from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, accepted_task, validate_tasks
from flows.dataset_columns import heldout_of
from mocked_apps.registry import SHIPPED
from rl import checkpoint as ckpt
from rl.agent import GENERATION
from rl.config import TrainConfig
from rl.models import REFERENCE
from rl.train import train
from runtime.agents import AgentOptions
from runtime.harness import View
from runtime.manager import EnvironmentManager
from runtime.rollout import rollout
from runtime.store import TrajectoryStore

# short-horizon families (3-5 golden actions); the apps held out are the dataset's held-out apps (flows.dataset_columns:
# the first ceil(20%) of the hand-made apps by the SHA-256 of their names: mail, projects, travel), so the benchmark's
# "held-out apps" are the ones `publish --holdout-by app` leaves out of training
SHORT = ("calendar.rsvp_yes", "courses.mark_module_done", "ride.save_place", "rail.refund_trip", "notes.follow_by_place",
         "clips.follow_creator", "food.reorder", "reviews.best_to_list",
         "mail.star_invoice_email", "mail.invoice_sender", "travel.cancel_booking", "projects.task_due_date")
HELD_APPS = heldout_of(SHIPPED)
TRAINED = tuple(f for f in SHORT if f.split(".")[0] not in HELD_APPS)
HELD_OUT_APPS = tuple(f for f in SHORT if f.split(".")[0] in HELD_APPS)
SPLITS = ("worlds", "apps")


class PolicySettings(BaseModel):
    """What the learning benches share: the starting policy, what trains, and how held-out instances are attempted."""

    model_config = ConfigDict(frozen=True)

    policy: str = Field(default=REFERENCE, description="Starting policy: a registered model name or a saved model's folder.")
    trainable_layers: int = Field(default=4, ge=0, description="Transformer blocks trained (the top ones; 0: all weights).")
    sft_lr: float = Field(default=3e-4, gt=0, description="SFT learning rate.")
    max_steps: int = Field(default=8, ge=1, description="Agent replies per attempt (the short families' golden runs take 3-5 actions).")
    pass_k: int = Field(default=1, ge=1, description="Attempts per held-out instance for pass@k: the greedy one and k-1 sampled (1: greedy "
                        "only, the default: each extra attempt adds about 10 min an evaluation of 48 instances).")
    temperature: float = Field(default=0.7, gt=0, description="Sampling temperature of the pass@k attempts.")
    concurrency: int = Field(default=2, ge=1, description="Attempts at once (they share one model; the browser steps overlap).")
    view: View = Field(default="compact", description="How pages are shown to the model, in training and evaluation alike "
                       "('full': the raw tree at every step, as before 2026-12-07).")
    seed: int = Field(default=0, description="Seed of synthesis, the splits, training and sampling.")


class LearnConfig(PolicySettings):
    """The learning benchmark: which families, how many instances, what is trained and how long."""

    out: Path = Field(default=Path("runs/bench-learn"), description="Folder of tasks, checkpoints, evaluations and learn.md.")
    families: tuple[str, ...] = Field(default=TRAINED, description="Trained families; their held-out worlds are split 'worlds'.")
    held_out_families: tuple[str, ...] = Field(default=HELD_OUT_APPS, description="Families of apps never trained on: split 'apps'.")
    train_instances: int = Field(default=120, ge=1, description="Training task instances (golden demonstrations for SFT, GRPO tasks).")
    held_out: int = Field(default=48, ge=1, description="Held-out task instances per split.")
    sft_epochs: int = Field(default=4, ge=0, description="Passes over the demonstrations' windowed samples.")
    grpo_steps: int = Field(default=3, ge=0, description="GRPO steps after SFT.")
    group_size: int = Field(default=4, ge=2, description="Attempts per task in a GRPO group.")
    tasks_per_step: int = Field(default=2, ge=1, description="Tasks (groups) per GRPO step.")
    redraws: int = Field(default=2, ge=0, description="Draws of other tasks in a GRPO step while its groups scored all alike "
                         "(dynamic sampling; the SFT policy solves most training tasks every time).")
    lr: float = Field(default=1e-5, gt=0, description="GRPO learning rate.")


def bootstrap(values: list[float], runs: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95% percentile interval of the mean of `values`, resampling them with replacement."""
    if not values:
        return 0.0, 0.0
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=len(values))) / len(values) for _ in range(runs))
    return means[int(0.025 * runs)], means[int(0.975 * runs) - 1]


def split_by_world(tasks: list[Task], held: int, seed: int) -> tuple[list[Task], list[Task]]:
    """(training, held-out) instances where no world has tasks on both sides; whole worlds go to held-out until it has `held`."""
    worlds = sorted({t.world or t.id for t in tasks})
    random.Random(seed).shuffle(worlds)
    out: set[str] = set()
    count = 0
    for w in worlds:
        if count >= held:
            break
        out.add(w)
        count += sum(1 for t in tasks if (t.world or t.id) == w)
    held_tasks = [t for t in tasks if (t.world or t.id) in out][:held]
    return [t for t in tasks if (t.world or t.id) not in out], held_tasks


class _Bench:
    """Tasks validated once and evaluations of a checkpoint, each cached in the bench's folder (`bench transfer` too)."""

    def __init__(self, config: PolicySettings, out: Path, manager: EnvironmentManager, store: TrajectoryStore, say):
        self.config, self.manager, self.store, self.say = config, manager, store, say
        self.out = Path(out)

    def tasks(self, name: str, families: tuple[str, ...], n: int) -> list[Task]:
        """`n` accepted instances of `families` (synthesized with a margin for rejections, validated once), cached."""
        return self.validated(name, SynthConfig(n=int(n * 1.2) + len(families), families=families, seed=self.config.seed, tasks_per_world=2))

    def validated(self, name: str, synth: SynthConfig) -> list[Task]:
        """The accepted tasks of `synth`, each validated once (footprints included), cached as OUT/tasks/NAME.jsonl."""
        path = self.out / "tasks" / f"{name}.jsonl"
        if path.is_file():
            return load_tasks(path)
        written = synthesize(synth)
        self.say(f"validating {len(written)} synthesized tasks ({name})")
        results = validate_tasks(written, self.manager, ValidationConfig(runs=1), concurrency=self.config.concurrency)
        accepted = [accepted_task(t, r) for t, r in zip(written, results) if r.accepted]
        self.say(f"  {len(accepted)}/{len(written)} accepted")
        path.parent.mkdir(parents=True, exist_ok=True)
        save_tasks(accepted, path)
        return accepted

    def evaluate(self, label: str, model: str, split: str, tasks: list[Task]) -> dict:
        """Greedy and pass@k success of `model` on `tasks`, per instance, cached in OUT/evals."""
        path = self.out / "evals" / f"{label}-{split}.json"
        if path.is_file():
            return json.loads(path.read_text())
        c = self.config
        started, before = time.monotonic(), dict(GENERATION)
        self.say(f"evaluating {label} on held-out {split} ({len(tasks)} instances, greedy" + (f" + {c.pass_k - 1} sampled)" if c.pass_k > 1 else ")"))
        # under a run name per evaluation, a cut-short evaluation resumes: the attempts it finished are kept, not redone
        greedy = rollout(tasks, "reference", 1, c.concurrency, options=AgentOptions(model=model, temperature=0.0, seed=c.seed, view=c.view),
                         max_steps=c.max_steps, manager=self.manager, store=self.store, screenshots=False, run=f"{label}-{split}-greedy")
        sampled = None
        if c.pass_k > 1:
            sampled = rollout(tasks, "reference", c.pass_k - 1, c.concurrency, options=AgentOptions(model=model, temperature=c.temperature,
                              seed=c.seed + 1, view=c.view), max_steps=c.max_steps, manager=self.manager, store=self.store, screenshots=False,
                              run=f"{label}-{split}-sampled")
        # seconds and tokens are this sitting's; `resumed` attempts were finished (and counted) by an earlier one
        row = {"label": label, "split": split, "instances": {}, "env_errors": 0, "seconds": time.monotonic() - started,
               "tokens": {k: GENERATION[k] - before[k] for k in GENERATION},
               "resumed": sum(r.resumed for rep in (greedy, sampled) if rep is not None for r in rep.results)}
        caps = {t.id: list(t.meta.capabilities) for t in tasks}
        for report, key in ((greedy, "greedy"), (sampled, "samples")):
            for r in report.results if report is not None else ():
                if r.status == "env_error":
                    row["env_errors"] += 1
                    continue
                inst = row["instances"].setdefault(r.task_id, {"greedy": None, "samples": [], "capabilities": caps.get(r.task_id, [])})
                if key == "greedy":
                    inst["greedy"] = bool(r.success)
                else:
                    inst["samples"].append(bool(r.success))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(row, indent=1))
        return row


def _rates(row: dict, seed: int) -> dict:
    greedy = [float(i["greedy"]) for i in row["instances"].values() if i["greedy"] is not None]
    passk = [float(any(i["samples"]) or bool(i["greedy"])) for i in row["instances"].values()]
    lo, hi = bootstrap(greedy, seed=seed)
    plo, phi = bootstrap(passk, seed=seed)
    t = row["tokens"]
    return {"n": len(greedy), "greedy": sum(greedy) / max(1, len(greedy)), "greedy_ci": (lo, hi),
            "pass_k": sum(passk) / max(1, len(passk)), "pass_k_ci": (plo, phi), "env_errors": row["env_errors"],
            "inference_tokens_per_s": (t["prompt_tokens"] + t["generated_tokens"]) / max(t["seconds"], 1e-9),
            "generated_tokens_per_s": t["generated_tokens"] / max(t["seconds"], 1e-9)}


def _lift(after: dict, before: dict, seed: int) -> dict:
    """Paired difference of greedy success (after - before) over the instances both evaluated, with a bootstrap interval."""
    common = [k for k in after["instances"] if k in before["instances"] and after["instances"][k]["greedy"] is not None
              and before["instances"][k]["greedy"] is not None]
    diffs = [float(after["instances"][k]["greedy"]) - float(before["instances"][k]["greedy"]) for k in common]
    lo, hi = bootstrap(diffs, seed=seed)
    return {"n": len(diffs), "points": 100 * sum(diffs) / max(1, len(diffs)), "ci_points": (100 * lo, 100 * hi)}


def _by_capability(row: dict) -> dict[str, tuple[int, int]]:
    out: dict[str, list[int]] = {}
    for inst in row["instances"].values():
        for cap in inst["capabilities"] or ["(none)"]:
            out.setdefault(cap, [0, 0])
            out[cap][0] += int(bool(inst["greedy"]))
            out[cap][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def run(config: LearnConfig, say=print) -> dict:
    """The whole benchmark; returns (and writes to OUT/learn.json and OUT/learn.md) its numbers."""
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(config.model_dump_json(indent=1))
    started = time.monotonic()
    with EnvironmentManager(screenshots=out / "objects") as manager:
        store = TrajectoryStore(out / "trajectories.db")
        try:
            bench = _Bench(config, out, manager, store, say)
            trained = bench.tasks("trained-families", config.families, config.train_instances + config.held_out)
            apps = bench.tasks("held-out-apps", config.held_out_families, config.held_out)[: config.held_out]
            train_tasks, held_worlds = split_by_world(trained, config.held_out, config.seed)
            train_tasks = train_tasks[: config.train_instances]
            save_tasks(train_tasks, out / "tasks" / "train.jsonl")
            say(f"{len(train_tasks)} training instances; held out: {len(held_worlds)} in unseen worlds, {len(apps)} of unseen apps")
            run_dir = out / "train"

            def train_to(grpo_steps: int):
                tc = TrainConfig(tasks=out / "tasks" / "train.jsonl", out=run_dir, policy=config.policy, trainable_layers=config.trainable_layers,
                                 sft_epochs=config.sft_epochs, sft_lr=config.sft_lr, sft_batch=4, grpo_steps=grpo_steps,
                                 group_size=config.group_size, tasks_per_step=config.tasks_per_step, redraws=config.redraws, lr=config.lr, held_out=0.0,
                                 zero_shot=False, max_steps=config.max_steps, max_new_tokens=32, micro_batch=1,
                                 concurrency=config.concurrency, seed=config.seed, resume=ckpt.latest(run_dir) is not None, view=config.view)
                return train(tc, log=say, manager=manager)

            # held-out worlds first at every checkpoint (the split the target is set on), then held-out apps: a run cut
            # short still has the main comparison, and resumes from its checkpoints and cached evaluations
            evals = {("zero-shot", "worlds"): bench.evaluate("zero-shot", config.policy, "worlds", held_worlds)}
            report = train_to(0)
            checkpoints = {"sft": ckpt.checkpoint_dir(run_dir, None)}
            evals[("sft", "worlds")] = bench.evaluate("sft", str(checkpoints["sft"]), "worlds", held_worlds)
            if config.grpo_steps:
                report = train_to(config.grpo_steps)
                checkpoints["sft+grpo"] = ckpt.latest(run_dir)
                evals[("sft+grpo", "worlds")] = bench.evaluate("sft+grpo", str(checkpoints["sft+grpo"]), "worlds", held_worlds)
            evals[("zero-shot", "apps")] = bench.evaluate("zero-shot", config.policy, "apps", apps)
            for label, path in checkpoints.items():
                evals[(label, "apps")] = bench.evaluate(label, str(path), "apps", apps)
        finally:
            store.close()
    rows = [{"checkpoint": label, "split": s, **_rates(row, config.seed)} for (label, s), row in evals.items()]
    lifts = {f"{label} vs zero-shot ({s})": _lift(evals[(label, s)], evals[("zero-shot", s)], config.seed)
             for (label, s) in evals if label != "zero-shot"}
    if ("sft+grpo", "worlds") in evals:
        for s in SPLITS:
            lifts[f"sft+grpo vs sft ({s})"] = _lift(evals[("sft+grpo", s)], evals[("sft", s)], config.seed)
    sft_rows = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()] if (run_dir / "metrics.jsonl").is_file() else []
    result = {
        "config": config.model_dump(mode="json"), "seconds": time.monotonic() - started, "rows": rows, "lifts": lifts,
        "capabilities": {f"{label} ({s})": _by_capability(row) for (label, s), row in evals.items()},
        "train": {"demos": report.demos, "sft_loss_before": report.sft_loss_before, "sft_loss_after": report.sft_loss_after,
                  "sft_tokens_per_s": [r["tokens_per_s"] for r in sft_rows if r.get("phase") == "sft"],
                  "grpo": [{k: r.get(k) for k in ("step", "reward_mean", "success_rate", "k3", "samples", "updated", "skipped",
                                                     "train_tokens_per_s", "tokens_per_s", "seconds")} for r in report.steps]},
    }
    (out / "learn.json").write_text(json.dumps(result, indent=1, default=str))
    (out / "learn.md").write_text(markdown(result))
    return result


def markdown(result: dict) -> str:
    c = result["config"]
    lines = ["# gymfactory bench learn", "",
             f"Policy {c['policy']}, top {c['trainable_layers']} blocks trained; {c['train_instances']} training instances of "
             f"{', '.join(c['families'])}; held out: {c['held_out']} instances in unseen worlds, {c['held_out']} of "
             f"{', '.join(c['held_out_families'])}. {c['max_steps']} steps an attempt; "
             + (f"pass@{c['pass_k']}: the greedy attempt and {c['pass_k'] - 1} sampled at temperature {c['temperature']}"
                if c["pass_k"] > 1 else "greedy only (pass@k = greedy)")
             + f". 95% bootstrap intervals over instances. This invocation took {result['seconds'] / 60:.0f} min (what an earlier "
             "one cached, tasks, evaluations and checkpoints, was not redone).", "",
             "| checkpoint | held-out | n | greedy success | 95% CI | pass@k | 95% CI | env errors | inference tok/s |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        lines.append(f"| {r['checkpoint']} | {r['split']} | {r['n']} | {100 * r['greedy']:.1f}% | {100 * r['greedy_ci'][0]:.1f}-"
                     f"{100 * r['greedy_ci'][1]:.1f} | {100 * r['pass_k']:.1f}% | {100 * r['pass_k_ci'][0]:.1f}-"
                     f"{100 * r['pass_k_ci'][1]:.1f} | {r['env_errors']} | {r['inference_tokens_per_s']:.0f} |")
    lines += ["", "| comparison (greedy, paired) | n | points | 95% CI |", "|---|---|---|---|"]
    lines += [f"| {k} | {v['n']} | {v['points']:+.1f} | {v['ci_points'][0]:+.1f} to {v['ci_points'][1]:+.1f} |"
              for k, v in result["lifts"].items()]
    lines += ["", "Greedy success per capability (successes/instances):", "", "| checkpoint (split) | " + " | ".join(
        sorted({cap for caps in result["capabilities"].values() for cap in caps})) + " |"]
    caps = sorted({cap for caps in result["capabilities"].values() for cap in caps})
    lines.append("|---|" + "---|" * len(caps))
    for key, per in result["capabilities"].items():
        lines.append(f"| {key} | " + " | ".join(f"{per[cap][0]}/{per[cap][1]}" if cap in per else "-" for cap in caps) + " |")
    t = result["train"]
    lines += ["", f"SFT: {t['demos']} demonstrations, loss {t['sft_loss_before'] or 0:.3f} -> {t['sft_loss_after'] or 0:.3f}, "
              f"{', '.join(f'{x:.0f}' for x in t['sft_tokens_per_s'])} tok/s per epoch.", "",
              "| GRPO step | reward | success | k3 | samples | train tok/s | seconds |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {g['step']} | {g['reward_mean']:.3f} | {g['success_rate']:.2f} | {g['k3']:.2e} | {g['samples']}"
              f"{'' if g['updated'] else ' (no update)'} | {g.get('train_tokens_per_s') or 0:.0f} | {g['seconds']:.0f} |" for g in t["grpo"]]
    return "\n".join(lines) + "\n"


@config_options(LearnConfig)
def main(config: LearnConfig) -> None:
    """Zero-shot vs SFT vs GRPO success of the reference model on held-out worlds and held-out apps, with intervals."""
    interrupt_on_signals()  # Ctrl-C or SIGTERM, even from `cmd &`: attempts close as interrupted; the same command resumes
    console = Console()
    result = run(config, say=console.print)
    table = Table(title="held-out success (greedy)")
    for col in ("checkpoint", "split", "n", "greedy", "95% CI", "pass@k"):
        table.add_column(col)
    for r in result["rows"]:
        table.add_row(r["checkpoint"], r["split"], str(r["n"]), f"{100 * r['greedy']:.1f}%",
                      f"{100 * r['greedy_ci'][0]:.1f}-{100 * r['greedy_ci'][1]:.1f}", f"{100 * r['pass_k']:.1f}%")
    console.print(table)
    for k, v in result["lifts"].items():
        console.print(f"{k}: {v['points']:+.1f} points (95% CI {v['ci_points'][0]:+.1f} to {v['ci_points'][1]:+.1f}, n={v['n']})")
    console.print(f"written: {Path(config.out) / 'learn.md'}")


__all__ = ["LearnConfig", "PolicySettings", "bootstrap", "main", "run", "split_by_world"]
