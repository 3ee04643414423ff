"""`gymfactory bench transfer`: does training on more apps make the agent better on apps it never saw?

A fixed set of held-out apps (the hand-made and the compiled apps that `publish --holdout-by app` holds out, by
`heldout_of`) is never trained on. The other apps are put in one order drawn from the seed, and training sets are
its nested prefixes (8 apps, 40, every one): each gets the same number of golden demonstrations, so diversity
varies and volume does not. The demonstrations are what a user gets: the `demonstrations` config of the dataset
that `gymfactory run --catalogue --app ...` exports for those apps. The reference model is fine-tuned (SFT) on
each set and evaluated, greedy, on the held-out apps' instances and on instances of the smallest set's families
in worlds no training set saw, then on MiniWoB++ (`gymfactory eval miniwob`) with MiniWoB's 10-second timer on
and off. Every phase is cached in OUT: the same command continues where it stopped, and `OUT/transfer.md` is
rewritten after each phase with what is done so far.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator
from rich.console import Console

from contracts.options import config_options
from contracts.signals import interrupt_on_signals
from contracts.spread import round_robin
from contracts.task import Task
from contracts.taskfiles import load_tasks, save_tasks
from factory.tasks.families import with_catalogue
from factory.tasks.synthesize import SynthConfig
from flows.dataset_columns import heldout_of
from mocked_apps.catalogue import compiled
from mocked_apps.registry import SHIPPED
from rl import checkpoint as ckpt
from rl.config import TrainConfig
from rl.demos import Demo, collect_demos, dataset_demos, dataset_tasks, demos_from_rows, named
from rl.forced import SharedTrunk, as_rows, score_steps, summarize
from rl.train import train
from runtime.agents import AgentOptions
from runtime.manager import EnvironmentManager
from runtime.solve import solve_and_score
from runtime.store import TrajectoryStore

from . import failures as failed_attempts
from .transfer_report import markdown, report_of
from .learn import PolicySettings, _Bench

TIMERS = ("off", "on")  # MiniWoB's own 10-second episode timer: off (steps bound the episode) and on, as MiniWoB ships


class TransferConfig(PolicySettings):
    """The transfer benchmark: held-out apps, nested training sets, their sizes and budgets."""

    out: Path = Field(default=Path("runs/bench-transfer"), description="Folder of data, checkpoints, evaluations and transfer.md.")
    sizes: tuple[int, ...] = Field(default=(8, 40, 0), description="Training apps of each nested set, ascending; 0: every app "
                                   "that is not held out.")
    demos: int = Field(default=96, ge=1, description="Golden demonstrations of each set (the same for every size).")
    volume: int = Field(default=0, ge=0, description="Demonstrations of one more, larger-volume point at the largest size (0: none).")
    held_out: int = Field(default=96, ge=1, description="Instances of the held-out apps' families, the same for every checkpoint.")
    held_out_worlds: int = Field(default=48, ge=0, description="Instances of the smallest set's families in worlds no set trains on.")
    sft_epochs: int = Field(default=3, ge=1, description="Passes over each set's demonstrations.")
    refs: Literal["id", "name"] = Field(default="id", description="How the demonstrations name elements: 'id' as recorded, or "
                                        "'name' (the element's label where it resolves back to the same element; runtime.refs).")
    zero_shot: bool = Field(default=True, description="Also evaluate the untrained reference model (the curve's first point).")
    steps: bool = Field(default=True, description="Also score every checkpoint on each step of the held-out instances' golden runs, "
                        "teacher-forced (rl.forced): does it write the golden action, given the golden history?")
    steps_instances: int = Field(default=48, ge=1, description="Held-out instances of each split whose golden steps are scored "
                                 "(the first of the split's app-spread order).")
    miniwob: bool = Field(default=True, description="Also evaluate every checkpoint and the random agent on MiniWoB++.")
    miniwob_seeds: int = Field(default=1, ge=1, description="MiniWoB++ episodes per task (seeds 0..n-1).")
    miniwob_tasks: tuple[str, ...] = Field(default=(), description="MiniWoB++ tasks; empty: every one that runs from file://.")
    miniwob_timers: tuple[str, ...] = Field(default=TIMERS, description="MiniWoB's 10-second timer 'off' (steps bound an "
                                            "episode, as suites do for slow agents) and/or 'on' (as MiniWoB ships).")

    @model_validator(mode="after")
    def _check(self) -> "TransferConfig":
        if not self.sizes or list(self.sizes) != sorted(self.sizes, key=lambda s: s or math.inf) or self.sizes.count(0) > 1:
            raise ValueError(f"--sizes must ascend, 0 (every app) last: got {list(self.sizes)}")
        if any(s < 0 for s in self.sizes):
            raise ValueError(f"--sizes are app counts >= 0: got {list(self.sizes)}")
        if bad := [t for t in self.miniwob_timers if t not in TIMERS]:
            raise ValueError(f"--miniwob-timers takes {' and '.join(TIMERS)}: got {bad}")
        return self


class Split(BaseModel):
    """Which apps are held out, and the order whose prefixes are the training sets."""

    model_config = ConfigDict(frozen=True)

    held_out_hand_made: tuple[str, ...]
    held_out_compiled: tuple[str, ...]
    order: tuple[str, ...] = Field(description="Every training app, in the seed's order; a set of size k is the first k.")

    @property
    def held_out(self) -> tuple[str, ...]:
        return self.held_out_hand_made + self.held_out_compiled

    def apps(self, size: int) -> tuple[str, ...]:
        return self.order[:size] if size else self.order


def split_apps(seed: int) -> Split:
    """Held out: `heldout_of` the hand-made apps and of the compiled ones (the dataset's rule); the rest in the seed's order.

    Only apps with a family of their own count: a set of k apps is k apps a task can be drawn from alone.
    """
    own = _own_apps()
    hand, comp = sorted(a for a in SHIPPED if a in own), sorted(a for a in compiled() if a in own)
    held_hand, held_comp = heldout_of(SHIPPED), heldout_of(compiled())
    rest = [a for a in hand + comp if a not in held_hand + held_comp]
    order = sorted(rest, key=lambda a: hashlib.sha256(f"{seed}:{a}".encode()).hexdigest())
    return Split(held_out_hand_made=tuple(a for a in held_hand if a in own), held_out_compiled=tuple(a for a in held_comp if a in own),
                 order=tuple(order))


@functools.lru_cache(maxsize=1)
def _own_apps() -> frozenset[str]:
    return frozenset(f.apps[0] for f in with_catalogue().values() if len(f.apps) == 1)


def spread(tasks: Sequence[Task], n: int) -> list[Task]:
    """`n` of `tasks` taken round-robin over their apps, and within an app over its families, in the tasks' order."""
    return round_robin(tasks, lambda t: t.apps[0], lambda t: t.meta.family)[:n]


def _derived(task: Task) -> bool:
    return task.apps[0] not in SHIPPED


def data_command(out: Path, apps: Sequence[str], tasks: int, seed: int) -> list[str]:
    """The `gymfactory run` that exports a training set's dataset: its apps' families (derived ones included), golden only."""
    exe = shutil.which("gymfactory", path=str(Path(sys.executable).parent)) or "gymfactory"
    cmd = [exe, "run", "--out", str(out), "--tasks", str(tasks), "--catalogue", "--seed", str(seed), "--agent", "golden",
           "--golden-sample", "1", "--no-screenshots", "--no-demo-screenshots"]
    for app in apps:
        cmd += ["--app", app]
    return cmd


class _Transfer:
    def __init__(self, config: TransferConfig, manager: EnvironmentManager, store: TrajectoryStore, say):
        self.config, self.say, self.out = config, say, Path(config.out)
        self.bench = _Bench(config, self.out, manager, store, say)
        self.manager = manager
        self.shared: SharedTrunk | None = None  # the frozen blocks' hidden states on the golden steps, for every checkpoint
        self.phases_file = self.out / "phases.json"
        self.phases: dict[str, float] = json.loads(self.phases_file.read_text()) if self.phases_file.is_file() else {}

    def phase(self, name: str, started: float) -> None:
        """Record how long phase `name` took, the first time it finishes."""
        self.phases.setdefault(name, round(time.monotonic() - started, 1))
        self.phases_file.write_text(json.dumps(self.phases, indent=1))

    def held_out(self, split: Split) -> tuple[list[Task], list[Task]]:
        """(held-out-app instances, held-out-world instances), validated once and cached."""
        c = self.config
        started = time.monotonic()
        synth = SynthConfig(n=int(c.held_out * 1.3) + 8, catalogue=True, apps=split.held_out, seed=c.seed + 1, tasks_per_world=2)
        apps = spread(self.bench.validated("held-out-apps", synth), c.held_out)
        worlds: list[Task] = []
        if c.held_out_worlds:
            core = split.apps(c.sizes[0])
            synth = SynthConfig(n=int(c.held_out_worlds * 1.3) + 8, catalogue=True, apps=core, seed=c.seed + 2, tasks_per_world=2)
            worlds = spread(self.bench.validated("held-out-worlds", synth), c.held_out_worlds)
        self.phase("held-out tasks", started)
        return apps, worlds

    def golden_steps(self, tasks: Sequence[Task]) -> dict[str, int]:
        """Actions each task's golden program takes (run once in the browser, cached in OUT/tasks/golden-steps.json): an
        instance whose golden needs more than `max_steps` cannot be solved within the attempt's budget."""
        path = self.out / "tasks" / "golden-steps.json"
        known: dict[str, int] = json.loads(path.read_text()) if path.is_file() else {}
        missing = [t for t in tasks if t.id not in known]
        if missing:
            started = time.monotonic()
            self.say(f"running the golden of {len(missing)} held-out instances to count their steps")
            for t in missing:
                known[t.id] = len(solve_and_score(t, t.golden, manager=self.manager).actions)
            path.write_text(json.dumps(known, indent=1))
            self.phase("golden steps", started)
        return {t.id: known[t.id] for t in tasks}

    def golden_demos(self, tasks: Sequence[Task]) -> list[Demo]:
        """Each task's golden run as a demonstration (its pages and actions, ending with `answer('')` where the golden code
        does not answer; rl.demos.collect_demos), run once in the browser and cached in OUT/tasks/golden-demos.jsonl."""
        path = self.out / "tasks" / "golden-demos.jsonl"
        rows = [json.loads(x) for x in path.read_text().splitlines()] if path.is_file() else []
        done = {r["task_id"] for r in rows}
        missing = [t for t in tasks if t.id not in done]
        if missing:
            started = time.monotonic()
            self.say(f"recording the golden runs of {len(missing)} held-out instances, to score checkpoints step by step")
            demos, results = collect_demos(missing, self.manager, self.bench.store, max_steps=60)
            failed = [r.task_id for r in results if r.status != "success"]
            if failed:
                self.say(f"  {len(failed)} golden runs did not succeed and are not scored step by step: {failed[:5]}")
            new = [{"task_id": d.task.id, "step": i, "url": turn.observation.url, "axtree": turn.observation.axtree, "action": turn.output}
                   for d in demos for i, turn in enumerate(d.turns)]
            new += [{"task_id": tid, "step": -1} for tid in failed]  # known to fail: not run again
            with path.open("a") as f:
                f.writelines(json.dumps(r) + "\n" for r in new)
            rows += new
            self.phase("golden demonstrations", started)
        return demos_from_rows(tasks, (r for r in rows if r["step"] >= 0))

    def steps(self, label: str, model: str, split: str, demos: Sequence[Demo]) -> dict:
        """`model`'s teacher-forced scores on every step (within the step budget) of the held-out golden runs, cached in
        OUT/evals/LABEL-SPLIT-steps.json."""
        from rl.agent import HAS_BF16
        from rl.policy import load_policy

        path = self.out / "evals" / f"{label}-{split}-steps.json"
        if path.is_file():
            return json.loads(path.read_text())
        c = self.config
        started = time.monotonic()
        self.say(f"scoring {label} on the golden steps of {len(demos)} held-out {split} instances (teacher-forced)")
        lm, tokenizer = load_policy(model)
        if c.refs == "name":
            demos = [named(d) for d in demos]
        if self.shared is None:
            self.shared = SharedTrunk(c.trainable_layers, bf16=HAS_BF16)
        scores = score_steps(lm, tokenizer, demos, view=c.view, max_steps=c.max_steps, bf16=HAS_BF16, shared=self.shared)
        row = {"label": label, "split": split, "seconds": round(time.monotonic() - started, 1),
               "summary": summarize(scores, seed=c.seed), "scores": as_rows(scores)}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(row, indent=1))
        self.phase(f"steps {label} {split}", started)
        return row

    def training_set(self, label: str, apps: Sequence[str], n: int) -> Path:
        """The tasks file of `n` demonstrated tasks spread over `apps`, from the dataset `gymfactory run` exports for them."""
        picked = self.out / "data" / label / "picked.jsonl"
        if picked.is_file():
            return picked
        started = time.monotonic()
        run = self.out / "data" / label / "run"
        cmd = data_command(run, apps, int(n * 1.25) + 8, self.config.seed)
        run.parent.mkdir(parents=True, exist_ok=True)
        (run.parent / "command.txt").write_text(" ".join(cmd) + "\n")
        self.say(f"{label}: gymfactory run --catalogue over {len(apps)} apps ({run})")
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{label}: `gymfactory run` failed (exit {done.returncode}); its command is in {run.parent}/command.txt, "
                               f"and a rerun resumes it:\n{done.stderr[-2000:]}")
        tasks = dataset_tasks(run / "dataset")
        demonstrated = {d.task.id for d in dataset_demos(run / "dataset", tasks)}
        chosen = spread([t for t in tasks if t.id in demonstrated], n)
        if len(chosen) < n:
            self.say(f"  {label}: only {len(chosen)} demonstrated tasks of the {n} asked")
        save_tasks(chosen, picked)
        self.phase(f"data {label}", started)
        return picked

    def sft(self, label: str, tasks: Path) -> Path:
        """The SFT checkpoint of the reference model on the set's demonstrations (resumed when already written)."""
        c = self.config
        run_dir = self.out / "train" / label
        if ckpt.latest(run_dir) is not None:
            return ckpt.checkpoint_dir(run_dir, None)
        started = time.monotonic()
        if run_dir.exists():
            shutil.rmtree(run_dir)  # an SFT cut short has no checkpoint to resume from
        tc = TrainConfig(tasks=tasks, demonstrations=tasks.parent / "run" / "dataset", out=run_dir, policy=c.policy,
                         trainable_layers=c.trainable_layers, sft_epochs=c.sft_epochs, sft_lr=c.sft_lr, sft_batch=4, grpo_steps=0,
                         held_out=0.0, zero_shot=False, max_steps=c.max_steps, max_new_tokens=32, micro_batch=1,
                         concurrency=c.concurrency, seed=c.seed, view=c.view, refs=c.refs)
        train(tc, log=self.say, manager=self.manager)
        self.phase(f"sft {label}", started)
        return ckpt.checkpoint_dir(run_dir, None)

    def evaluate(self, label: str, model: str, split: str, tasks: list[Task]) -> dict:
        started = time.monotonic()
        row = self.bench.evaluate(label, model, split, tasks)
        self.phase(f"eval {label} {split}", started)
        return row

    def miniwob(self, label: str, agent: str, model: str | None, timer: str) -> dict:
        """MiniWoB++ episodes of one agent (greedy), cached in OUT/miniwob."""
        from runtime.adapters.benchmark import EvalConfig, run as run_miniwob, summary

        from runtime.adapters.benchmark import EpisodeResult

        path = self.out / "miniwob" / f"{label}-timer-{timer}.json"
        if path.is_file():
            return json.loads(path.read_text())
        c = self.config
        started = time.monotonic()
        partial = path.with_suffix(".partial.jsonl")  # the episodes a cut-short sitting finished: kept, not run again
        done = [EpisodeResult.model_validate_json(x) for x in partial.read_text().splitlines()] if partial.is_file() else []
        self.say(f"MiniWoB++: {label}, timer {timer}" + (f" ({len(done)} episode{'s' * (len(done) != 1)} kept from an earlier sitting)" if done else ""))
        options = AgentOptions(model=model, temperature=0.0, seed=c.seed, view=c.view)
        path.parent.mkdir(parents=True, exist_ok=True)
        with partial.open("a") as log:
            def keep(result: EpisodeResult) -> None:
                log.write(result.model_dump_json() + "\n")
                log.flush()

            results = run_miniwob(EvalConfig(agent=agent, tasks=c.miniwob_tasks, seeds=c.miniwob_seeds, max_steps=c.max_steps,
                                             concurrency=c.concurrency, options=options, episode_timer=timer == "on",
                                             store=self.out / "miniwob" / "trajectories.db"), on_episode=keep, done=done)
        row = {"label": label, "timer": timer, "summary": summary(results), "episodes": [r.model_dump() for r in results],
               "seconds": round(time.monotonic() - started, 1)}
        path.write_text(json.dumps(row, indent=1))
        partial.unlink()
        self.phase(f"miniwob {label} timer {timer}", started)
        return row


def _size_label(size: int, split: Split, demos: int, base: int) -> str:
    apps = size or len(split.order)
    return f"apps-{apps}" + (f"-x{demos}" if demos != base else "")


def run(config: TransferConfig, say=print) -> dict:
    """The whole benchmark, resumable; returns (and writes to OUT/transfer.json and OUT/transfer.md) what it measured."""
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(config.model_dump_json(indent=1))
    split = split_apps(config.seed)
    (out / "split.json").write_text(split.model_dump_json(indent=1))
    say(f"held out: {len(split.held_out_hand_made)} hand-made and {len(split.held_out_compiled)} compiled apps; "
        f"{len(split.order)} apps to train on")
    points = [(size, config.demos) for size in config.sizes] + ([(config.sizes[-1], config.volume)] if config.volume else [])
    evals: dict[tuple[str, str], dict] = {}
    miniwob: dict[tuple[str, str], dict] = {}
    sets: dict[str, dict] = {}
    with EnvironmentManager(screenshots=out / "objects") as manager:
        store = TrajectoryStore(out / "trajectories.db")
        try:
            t = _Transfer(config, manager, store, say)
            apps_tasks, world_tasks = t.held_out(split)
            save_tasks(apps_tasks, out / "tasks" / "held-out-apps.picked.jsonl")
            splits = {"apps": apps_tasks, "worlds": world_tasks} if world_tasks else {"apps": apps_tasks}
            say(f"held-out instances: {len(apps_tasks)} of {len({x.apps[0] for x in apps_tasks})} unseen apps, "
                f"{len(world_tasks)} in unseen worlds")
            steps = t.golden_steps([*apps_tasks, *world_tasks])
            golden: dict[str, list[Demo]] = {}
            if config.steps:
                scored = {name: tasks[: config.steps_instances] for name, tasks in splits.items()}
                demos = {d.task.id: d for d in t.golden_demos([x for tasks in scored.values() for x in tasks])}
                golden = {name: [demos[x.id] for x in tasks if x.id in demos] for name, tasks in scored.items()}
            stepped: dict[tuple[str, str], dict] = {}

            def evaluate(label: str, model: str, name: str) -> None:
                evals[(label, name)] = t.evaluate(label, model, name, splits[name])
                if config.steps:
                    stepped[(label, name)] = t.steps(label, model, name, golden[name])

            def report() -> dict:
                failures = {label: failed_attempts.failures(store, checkpoints[label], [x.id for x in apps_tasks], config.max_steps)
                            for (label, name) in evals if name == "apps"}
                result = report_of(config, split, evals, miniwob, sets, t.phases, failures, steps, stepped)
                (out / "transfer.json").write_text(json.dumps(result, indent=1, default=str))
                (out / "transfer.md").write_text(markdown(result))
                return result

            checkpoints = {"zero-shot": config.policy} if config.zero_shot else {}
            if config.zero_shot:
                evaluate("zero-shot", config.policy, "apps")
                report()
            for size, demos in points:
                label = _size_label(size, split, demos, config.demos)
                tasks_file = t.training_set(label, split.apps(size), demos)
                chosen = load_tasks(tasks_file)
                sets[label] = {"apps": len(split.apps(size)), "apps_with_demos": len({x.apps[0] for x in chosen}), "demos": len(chosen),
                               "derived_share": sum(map(_derived, chosen)) / max(1, len(chosen)),
                               "held_out_worlds_trained": len({x.world for x in world_tasks} & {x.world for x in chosen})}
                checkpoints[label] = str(t.sft(label, tasks_file))
                sets[label]["train"] = _train_row(out / "train" / label)
                for name in splits:
                    evaluate(label, checkpoints[label], name)
                report()
            if "worlds" in splits and config.zero_shot:
                evaluate("zero-shot", config.policy, "worlds")
                report()
            if config.miniwob:
                for timer in config.miniwob_timers:
                    miniwob[("random", timer)] = t.miniwob("random", "random", None, timer)
                    for label, model in checkpoints.items():
                        miniwob[(label, timer)] = t.miniwob(label, "reference", model, timer)
                        report()
            result = report()
        finally:
            store.close()
    _check_no_miniwob_in_training(out, miniwob)
    return result


def _train_row(run_dir: Path) -> dict:
    rows = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()] if (run_dir / "metrics.jsonl").is_file() else []
    sft = [r for r in rows if r.get("phase") == "sft"]
    state = ckpt.read_state(ckpt.checkpoint_dir(run_dir, None)) if ckpt.latest(run_dir) else {}
    return {"loss_before": state.get("sft_loss_before"), "loss_after": state.get("sft_loss_after"),
            "tokens_per_s": [round(r["tokens_per_s"]) for r in sft]}


def training_rows(out: Path) -> list[dict]:
    """Every demonstration step the benchmark's training sets hold: task id, instruction, URL, accessibility text."""
    rows = []
    for picked in sorted((out / "data").glob("*/picked.jsonl")):
        tasks = load_tasks(picked)
        for demo in dataset_demos(picked.parent / "run" / "dataset", tasks):
            rows += [{"task_id": demo.task.id, "instruction": demo.task.instruction, "url": turn.observation.url,
                      "axtree": turn.observation.axtree} for turn in demo.turns]
    return rows


def miniwob_leaks(rows: Sequence[dict], utterances: Sequence[str]) -> list[str]:
    """Training rows that hold anything of MiniWoB++: one of its pages (a file:// URL or its html folder), or the
    utterance of an evaluated episode as an instruction or on a page. Empty when the training data is clean."""
    said = {u.strip().casefold() for u in utterances if u and u.strip()}
    out = []
    for row in rows:
        url = row["url"].casefold()
        if url.startswith("file:") or "miniwob" in url:
            out.append(f"{row['task_id']}: a MiniWoB page ({row['url']})")
        elif row["instruction"].strip().casefold() in said:
            out.append(f"{row['task_id']}: a MiniWoB utterance as its instruction ({row['instruction']!r})")
        elif any(u in row["axtree"].casefold() for u in said if len(u) > 24):
            out.append(f"{row['task_id']}: a MiniWoB utterance on its page")
    return out


def _check_no_miniwob_in_training(out: Path, miniwob: dict) -> None:
    path = out / "miniwob" / "trajectories.db"
    utterances: list[str] = []
    if path.is_file() and miniwob:
        store = TrajectoryStore(path)
        try:
            utterances = [a.info.get("task", {}).get("instruction", "") for a in store.attempts()]
        finally:
            store.close()
    leaks = miniwob_leaks(training_rows(out), utterances)
    (out / "leaks.json").write_text(json.dumps({"utterances_checked": len(utterances), "leaks": leaks}, indent=1))
    if leaks:
        raise RuntimeError(f"MiniWoB++ data found in training: {leaks[:5]} (all in {out}/leaks.json)")


@config_options(TransferConfig)
def main(config: TransferConfig) -> None:
    """Held-out-app success of the reference model after SFT on nested sets of more and more apps, and on MiniWoB++."""
    interrupt_on_signals()  # Ctrl-C or SIGTERM, even from `cmd &`: attempts close as interrupted; the same command resumes
    console = Console()
    result = run(config, say=console.print)
    console.print(markdown(result))
    console.print(f"written: {Path(config.out) / 'transfer.md'}")


__all__ = ["Split", "TransferConfig", "data_command", "main", "markdown", "miniwob_leaks", "run", "split_apps", "spread", "training_rows"]
