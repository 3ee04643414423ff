"""Flow: a short training stage (SFT warm-up on golden demonstrations, then GRPO) of the reference model (or
`train_policy`), and the trained policy rolled out on held-out tasks through the same rollout path."""

from __future__ import annotations

import time

from prefect import flow

from .environment import environment
from .artifacts import table
from .config import PipelineConfig
from .workdir import Workdir


@flow(name="train", log_prints=True)
def train_stage(config: PipelineConfig) -> dict:
    """tasks/final.jsonl -> train/ (checkpoints, metrics.jsonl, report.json); held-out success per checkpoint."""
    from rl.config import TrainConfig
    from rl.models import REFERENCE
    from rl.train import train

    wd, started = Workdir(config.out), time.monotonic()
    source = wd.path("tasks", "final.jsonl")
    if not source.is_file():
        source = wd.path("tasks", "reviewed.jsonl")
    tiny = config.train_policy == "tiny"
    policy = None if tiny else config.train_policy or config.model or REFERENCE
    train_config = TrainConfig(tasks=source, out=wd.path("train", "x").parent, init_tiny=tiny, policy=policy, sft_epochs=config.train_sft_epochs,
                               grpo_steps=config.train_steps, group_size=4, tasks_per_step=2, seed=config.synth.seed,
                               concurrency=config.concurrency, resume=(wd.path("train", "x").parent / "checkpoints").is_dir())
    inputs = [Workdir.fingerprint(source.read_text()), config.train_sft_epochs, config.train_steps, config.synth.seed, policy or "tiny"]
    if (done := wd.done("train", inputs)) is not None:
        return done
    with environment(config.concurrency, config.backend, config.object_store()) as manager:
        report = train(train_config, log=print, manager=manager)
    steps = [{"step": s.get("step"), "reward": s.get("reward_mean"), "success": s.get("success_rate"), "k3": s.get("k3")}
             for s in report.steps]
    table("train-steps", steps, "GRPO training reward per step")
    held = [{"agent": f"policy ({name})", "attempts": h.attempts, "scored": h.scored, "successes": h.successes,
             "success_rate": round(h.successes / h.scored, 3) if h.scored else 0.0, "mean_reward": round(h.mean_reward, 3),
             "env_errors": h.env_errors} for name, h in report.held_out.items()]
    table("rollouts-trained-policy", held, "Held-out success of the trained policy (SFT-only vs SFT+GRPO)")
    wd.finish("rollouts_trained", inputs, {"agents": held}, 0.0)
    summary = {"train_tasks": len(report.train_tasks), "held_out_tasks": len(report.held_out_tasks), "grpo_steps": len(report.steps),
               "demos": report.demos}
    return wd.finish("train", inputs, summary, time.monotonic() - started)
