"""`train(config) -> TrainReport`: golden demos -> SFT warm-up -> GRPO over the shared rollout path -> held-out eval.

Every attempt, demonstration, training rollout or evaluation, goes through runtime.rollout's
`run_attempt` with the one harness; env_error attempts never enter a batch or the sampler.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

import torch
from pydantic import BaseModel, ConfigDict, Field

from contracts.taskfiles import load_tasks
from contracts.task import Task
from runtime.agents.base import AgentOptions
from runtime.axtree import compact_tree
from runtime.harness import VIEWS, system_prompt
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.rollout import AttemptResult, recorded_turns, rollout, run_attempt
from runtime.store import TrajectoryStore

from . import checkpoint as ckpt
from .agent import HAS_BF16, Cores, PolicyAgent, SampledStep
from .chat import ChatFormat, strip_instance
from .config import TrainConfig
from .demos import Demo, collect_demos, dataset_demos, named
from .grpo import group_advantages
from .policy import build_tiny_policy, disable_dropout, freeze_below, load_policy
from .sampler import TaskSampler
from .samples import Sample, collate, window_samples
from .sft import sft, sft_samples, supervised_loss
from .trunk import Trunk
from .update import grpo_update

Log = Callable[[str], None]


class TrainError(RuntimeError):
    """The run cannot start or go on (no demonstrations, a run folder in use); the message says why."""


class HeldOut(BaseModel):
    """Success of one checkpoint on the held-out task instances."""

    model_config = ConfigDict(frozen=True)
    checkpoint: str
    attempts: int
    scored: int
    successes: int
    env_errors: int
    mean_reward: float

    @property
    def success_rate(self) -> float:
        return self.successes / self.scored if self.scored else 0.0


class TrainReport(BaseModel):
    """What a run did: the split, SFT losses, per-step GRPO metrics, held-out success before and after GRPO."""

    model_config = ConfigDict(frozen=True)
    out: str
    train_tasks: list[str]
    held_out_tasks: list[str]
    demos: int
    sft_loss_before: float | None = None
    sft_loss_after: float | None = None
    steps: list[dict] = Field(default_factory=list, description="GRPO metrics, one row per step (also in metrics.jsonl).")
    held_out: dict[str, HeldOut] = Field(default_factory=dict, description="'sft' and 'sft+grpo' -> held-out results.")
    seconds: float = 0.0


def split_tasks(tasks: Sequence[Task], fraction: float, seed: int) -> tuple[list[Task], list[Task]]:
    """(training, held-out) instances: a seeded shuffle; held-out gets round(fraction * n), at least 1 if fraction > 0."""
    order = sorted(tasks, key=lambda t: t.id)
    random.Random(seed).shuffle(order)
    n_held = 0 if fraction <= 0 else max(1, round(fraction * len(order)))
    n_held = min(n_held, len(order) - 1)
    return order[n_held:], order[:n_held]


class _Metrics:
    def __init__(self, path: Path):
        self.path = path

    def write(self, row: dict) -> None:
        with open(self.path, "a") as f:
            f.write(json.dumps(row) + "\n")

    def rows(self, phase: str) -> list[dict]:
        if not self.path.is_file():
            return []
        return [r for r in map(json.loads, self.path.read_text().splitlines()) if r.get("phase") == phase]


def _seed_of(*parts) -> int:
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:4], "big")


def _corpus(tasks: Sequence[Task], demos: Sequence[Demo]) -> list[str]:
    """Texts the tiny tokenizer learns from: system prompts, observations and golden outputs."""
    texts = [system_prompt(t.instruction, t.form_factor, view) for t in tasks for view in VIEWS]
    for d in demos:
        texts += [f"## Step {i}\nURL: {strip_instance(turn.observation.url)}\n{turn.observation.axtree}\n{compact_tree(turn.observation.axtree)}\n"
                  f"{turn.output}" for i, turn in enumerate(d.turns)]
    return texts * 4


def _context(model) -> int:
    cfg = model.config
    return int(getattr(cfg, "n_positions", None) or getattr(cfg, "max_position_embeddings", None) or 2048)


def evaluate(
    path: Path, tasks: Sequence[Task], config: TrainConfig, manager: EnvironmentManager, store: TrajectoryStore, label: str
) -> HeldOut:
    """Held-out success of the checkpoint at `path`, through `runtime.rollout.rollout` with the `policy` agent."""
    options = AgentOptions(model=str(path), temperature=config.eval_temperature, max_tokens=config.max_new_tokens, seed=config.seed,
                           view=config.view)
    report = rollout(tasks, "policy", config.eval_attempts, config.concurrency, options=options, max_steps=config.max_steps,
                     manager=manager, store=store)
    s = report.overall()
    return HeldOut(checkpoint=label, attempts=s.attempts, scored=s.scored, successes=s.successes, env_errors=s.env_errors,
                   mean_reward=s.mean_reward)


def _attempts(
    jobs: list[tuple[int, Task, int]], model, tokenizer, config: TrainConfig, manager: EnvironmentManager,
    store: TrajectoryStore, step: int,
) -> list[tuple[int, Task, AttemptResult, list[SampledStep]]]:
    """Run the jobs (group index, task, attempt number) with agents sharing the trainer's model."""
    gate = Cores()

    def one(job):
        group, task, k = job
        agent = PolicyAgent.from_model(model, tokenizer, temperature=config.temperature, max_new_tokens=config.max_new_tokens,
                                       seed=_seed_of(config.seed, step, group, k), name="policy@train", lock=gate)
        session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
        try:
            result = run_attempt(session, task, agent, store, config.max_steps, info={"purpose": "grpo", "step": step, "attempt": k},
                                 view=config.view)
        finally:
            session.close()
        return group, task, result, list(agent.steps)

    model.eval()
    with ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix="grpo") as pool:
        return list(pool.map(one, jobs))


def grpo_step(
    step: int, model, tokenizer, optimizer, sampler: TaskSampler, tasks: dict[str, Task], config: TrainConfig,
    manager: EnvironmentManager, store: TrajectoryStore, ref_model=None,
) -> dict:
    """Sample tasks, roll out groups, build windowed samples with group-baseline advantages, update once.

    Dynamic sampling (as DAPO's): a group whose attempts all scored alike has zero advantages, so while fewer than
    `tasks_per_step` groups are informative, other tasks are drawn for the missing ones, at most `config.redraws` times.
    """
    started = time.monotonic()
    chat, context = ChatFormat(tokenizer), _context(model)
    picks: list[tuple[str, int]] = []
    done: list[tuple[int, Task, AttemptResult, list[SampledStep]]] = []
    informative = draws = 0
    while informative < config.tasks_per_step and draws <= config.redraws:  # dynamic sampling: draw while groups score alike
        left = sorted(set(tasks) - {t for t, _ in picks}) or sorted(tasks)
        drawn = sampler.sample(left, min(config.tasks_per_step - informative, len(left)))
        jobs = [(len(picks) + g, tasks[task_id], k) for g, (task_id, budget) in enumerate(drawn) for k in range(budget)]
        picks += drawn
        done += _attempts(jobs, model, tokenizer, config, manager, store, step)
        informative = sum(_informative([r for gg, _, r, _ in done if gg == g and r.status != "env_error"]) for g in range(len(picks)))
        draws += 1
    rollout_s = time.monotonic() - started
    scored = [(g, t, r, s) for g, t, r, s in done if r.status != "env_error"]
    samples: list[Sample] = []
    advantages: list[float] = []
    dropped = 0
    for g in range(len(picks)):
        group = [(t, r, s) for gg, t, r, s in scored if gg == g]
        if not group:
            continue
        sampler.update(group[0][0].id, [r.success for _, r, _ in group])
        if len(group) < 2:
            continue
        adv = group_advantages(torch.tensor([[r.reward for _, r, _ in group]]))[0]
        for (task, result, sampled), a in zip(group, adv.tolist()):
            if a == 0.0:
                continue
            turns = recorded_turns(store, result.attempt_id)
            for sample in window_samples(task.instruction, turns, chat, form_factor=task.form_factor, sampled=sampled, view=config.view):
                if sample.consistent and len(sample) <= context and sum(sample.loss_mask):
                    samples.append(sample)
                    advantages.append(a)
                else:
                    dropped += 1
    rewards = [r.reward for _, _, r, _ in scored]
    generated = sum(len(st.output_ids) for _, _, _, steps in done for st in steps)
    row = {
        "phase": "grpo", "step": step, "attempts": len(done), "env_errors": len(done) - len(scored), "groups": len(picks),
        "informative_groups": informative, "draws": draws,
        "reward_mean": sum(rewards) / len(rewards) if rewards else 0.0,
        "success_rate": sum(r.success for _, _, r, _ in scored) / len(scored) if scored else 0.0,
        "samples": len(samples), "dropped_samples": dropped, "generated_tokens": generated,
        "rollout_seconds": rollout_s,
        "loss": 0.0, "k3": 0.0, "clip_frac": 0.0, "grad_norm": 0.0, "trained_tokens": 0, "updated": False,
        "skipped": None if samples else _why_no_samples(len(done), len(scored), dropped),
    }
    if samples:
        clock = time.monotonic()
        batch = collate(samples, tokenizer.pad_token_id, advantages)
        stats = grpo_update(model, optimizer, batch, clip_eps=config.clip_eps, ref_model=ref_model, kl_coef=config.kl_coef,
                            micro_batch=config.micro_batch)
        update_s = time.monotonic() - clock
        row.update(loss=stats["loss"], k3=stats["k3_rollout"], clip_frac=stats["clip_frac"], grad_norm=stats["grad_norm"],
                   trained_tokens=stats["trained_tokens"], updated=True, update_seconds=update_s,
                   train_tokens_per_s=int(batch.attention_mask.sum()) / max(update_s, 1e-9))
        if "kl_ref" in stats:
            row["kl_ref"] = stats["kl_ref"]
    row["seconds"] = time.monotonic() - started
    tokens = generated + int(sum(len(s) for s in samples))
    row["tokens_per_s"] = tokens / max(row["seconds"], 1e-9)
    return row


def _informative(results: list[AttemptResult]) -> bool:
    """Whether a group teaches anything: at least two scored attempts whose rewards differ (else every advantage is 0)."""
    return len(results) >= 2 and len({r.reward for r in results}) > 1


def _why_no_samples(attempts: int, scored: int, dropped: int) -> str:
    """Why a GRPO step had nothing to train on: the step is reported as skipped, never as a zero loss."""
    if scored == 0:
        return f"0 samples: all {attempts} attempts ended in env_error"
    if dropped:
        return f"0 samples: {dropped} windowed samples were dropped (longer than the context, or not the prompts the agent saw)"
    return (f"0 samples: in every group all attempts got the same reward, so every advantage is 0 ({scored} scored attempts); "
            "groups need both successes and failures")


def train(config: TrainConfig, log: Log | None = None, manager: EnvironmentManager | None = None) -> TrainReport:
    """The whole run; with `config.resume` it continues from the last checkpoint in `config.out`.

    `manager` lets a caller (a flow, a test) share its environment manager; by default the run owns one.
    """
    say = log or (lambda _msg: None)
    started = time.monotonic()
    out = Path(config.out)
    tasks = load_tasks(config.tasks)  # before the folder: a wrong --tasks leaves no empty --out behind
    out.mkdir(parents=True, exist_ok=True)
    last = ckpt.latest(out)
    if last is not None and not config.resume:
        raise TrainError(f"{out} already holds checkpoints; pass --resume to continue or choose another --out")
    metrics = _Metrics(out / "metrics.jsonl")
    if last is None and metrics.path.exists():
        metrics.path.unlink()  # a run that never reached its first checkpoint starts over
    train_tasks, held = split_tasks(tasks, config.held_out, config.seed)
    (out / "config.json").write_text(config.model_dump_json(indent=1))
    say(f"{len(train_tasks)} training and {len(held)} held-out task instances")
    torch.manual_seed(config.seed)
    report = dict(out=str(out), train_tasks=[t.id for t in train_tasks], held_out_tasks=[t.id for t in held], demos=0)
    own = manager is None
    manager = manager or EnvironmentManager(screenshots=out / "objects")
    try:
        store = TrajectoryStore(out / "trajectories.db")
        try:
            if last is None:
                last = _warm_up(config, out, train_tasks, held, manager, store, metrics, say)
            state = ckpt.read_state(last)
            report.update(demos=state["demos"], sft_loss_before=state.get("sft_loss_before"), sft_loss_after=state.get("sft_loss_after"))
            sft_dir = ckpt.checkpoint_dir(out, None)
            held_out = {label: HeldOut(**state[key]) for label, key in (("zero-shot", "zero_shot_eval"), ("sft", "sft_eval"))
                        if state.get(key)}
            final = _grpo(config, out, last, state, {t.id: t for t in train_tasks}, manager, store, metrics, say, sft_dir)
            if held and config.grpo_steps > 0:
                say("evaluating the SFT+GRPO checkpoint on held-out tasks")
                held_out["sft+grpo"] = evaluate(final, held, config, manager, store, final.name)
        finally:
            store.close()
    finally:
        if own:
            manager.close()
    result = TrainReport(**report, steps=metrics.rows("grpo"), held_out=held_out, seconds=time.monotonic() - started)
    (out / "report.json").write_text(result.model_dump_json(indent=1))
    return result


def _warm_up(config, out, train_tasks, held, manager, store, metrics, say) -> Path:
    """Golden demos -> policy (given or tiny) -> SFT -> the `sft` checkpoint, evaluated on held-out tasks."""
    if config.demonstrations is not None:
        demos = dataset_demos(config.demonstrations, train_tasks)
        say(f"{len(demos)} golden demonstrations of {len(train_tasks)} tasks from the dataset {config.demonstrations}")
    else:
        say(f"collecting golden demonstrations on {len(train_tasks)} tasks")
        demos, results = collect_demos(train_tasks, manager, store, max_steps=max(config.max_steps, 30))
        failed = [r for r in results if r.status != "success"]
        if failed:
            say(f"{len(failed)} golden attempts did not succeed and are left out: " + ", ".join(f"{r.task_id} ({r.status})" for r in failed[:5]))
    if not demos:
        raise TrainError("no golden demonstration succeeded; nothing to warm up on")
    if config.refs == "name":
        demos = [named(d) for d in demos]
    start = config.start()
    if start is not None:
        init = start
        say(f"starting from {init}")
    else:
        say("building the tiny policy (BPE tokenizer + 2-layer GPT-2) from the tasks' texts")
        init = build_tiny_policy(out / "init", _corpus(train_tasks, demos), vocab_size=config.tiny_vocab,
                                 n_positions=config.tiny_context, n_embd=config.tiny_width, seed=config.seed)
    zero_shot = None
    if held and config.zero_shot:
        say("evaluating the starting policy on held-out tasks (zero-shot)")
        zero_shot = evaluate(init, held, config, manager, store, "zero-shot").model_dump()
    model, tokenizer = load_policy(init)
    disable_dropout(model)
    trainable = freeze_below(model, config.layers())
    say(f"training {trainable / 1e6:.1f}M of {sum(p.numel() for p in model.parameters()) / 1e6:.1f}M parameters"
        + (f" (the top {config.layers()} blocks)" if config.layers() else ""))
    chat, context = ChatFormat(tokenizer), _context(model)
    samples = [s for s in sft_samples(demos, chat, config.view) if len(s) <= context]
    bf16 = config.bf16 and start is not None and HAS_BF16
    trunk = Trunk.of(model, bf16)
    before = supervised_loss(model, samples, tokenizer.pad_token_id, config.micro_batch, trunk)
    say(f"SFT on {len(samples)} windowed samples from {len(demos)} demonstrations; loss {before:.3f}"
        + (f" (the frozen lower {trunk.first} blocks ran once per sample: {trunk.bytes / 2**20:.0f} MiB kept)" if trunk else ""))

    def on_epoch(row: dict) -> None:
        metrics.write(row)
        say(f"  sft epoch {row['epoch']}: loss {row['loss']:.4f} ({row['tokens_per_s']:.0f} tok/s)")

    sft(model, samples, tokenizer.pad_token_id, epochs=config.sft_epochs, lr=config.warm_up_lr(), batch_size=config.sft_batch, micro_batch=config.micro_batch,
        seed=config.seed, log=on_epoch, bf16=bf16, trunk=trunk)
    after = supervised_loss(model, samples, tokenizer.pad_token_id, config.micro_batch, trunk)
    path = ckpt.save_model(ckpt.checkpoint_dir(out, None), model, tokenizer)
    sft_eval = None
    if held:
        say("evaluating the SFT checkpoint on held-out tasks")
        sft_eval = evaluate(path, held, config, manager, store, "sft").model_dump()
    ckpt.write_state(path, {"phase": "sft", "step": 0, "demos": len(demos), "sft_loss_before": before, "sft_loss_after": after,
                            "sampler": {}, "sft_eval": sft_eval, "zero_shot_eval": zero_shot})
    return path


def _grpo(config, out, last, state, tasks, manager, store, metrics, say, sft_dir) -> Path:
    """GRPO steps state['step']+1 .. config.grpo_steps, checkpointing as it goes; returns the last checkpoint."""
    start = state["step"] + 1
    if start > config.grpo_steps:
        return last
    model, tokenizer = load_policy(last)
    disable_dropout(model)
    freeze_below(model, config.layers())
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=config.lr, weight_decay=0.0)
    if (last / "optimizer.pt").is_file():
        optimizer.load_state_dict(torch.load(last / "optimizer.pt"))
    ref_model = None
    if config.kl_coef > 0:
        ref_model, _ = load_policy(sft_dir)
        ref_model.eval()
    sampler = TaskSampler(group_size=config.group_size, seed=config.seed + start)
    sampler.load_state(state.get("sampler", {}))
    path = last
    for step in range(start, config.grpo_steps + 1):
        row = grpo_step(step, model, tokenizer, optimizer, sampler, tasks, config, manager, store, ref_model)
        metrics.write(row)
        if not row["updated"]:
            say(f"  grpo step {step}: NO UPDATE, {row['skipped']}")
        say(f"  grpo step {step}: reward {row['reward_mean']:.3f} success {row['success_rate']:.2f} loss {row['loss']:.4f} "
            f"k3 {row['k3']:.2e} clip {row['clip_frac']:.3f} ({row['attempts']} attempts, {row['informative_groups']} of {row['groups']} "
            f"groups informative in {row['draws']} draw(s), {row['samples']} samples, "
            f"{row['tokens_per_s']:.0f} tok/s, {row['seconds']:.1f}s)")
        if step % config.checkpoint_every == 0 or step == config.grpo_steps:
            path = ckpt.save_model(ckpt.checkpoint_dir(out, step), model, tokenizer, optimizer)
            ckpt.write_state(path, {**state, "phase": "grpo", "step": step, "sampler": sampler.state()})
            ckpt.prune(out, keep=2)
    return path
