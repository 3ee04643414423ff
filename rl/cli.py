"""`gymfactory train`: SFT warm-up + GRPO on tasks, then a table of training reward and held-out success."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

console = Console()


def register(root: typer.Typer) -> None:
    from . import agent  # noqa: F401 - registers the `policy` agent for `gymfactory rollout --agent policy`

    root.command("train")(train_command)


def train_command(
    tasks: Path = typer.Option(..., "--tasks", "-t", help="Task .json, .jsonl, or a folder of them."),
    out: Path = typer.Option(..., "--out", "-o", help="Run folder (checkpoints, metrics.jsonl, trajectories.db)."),
    policy: Optional[Path] = typer.Option(None, "--policy", help="Start from this saved causal LM (local path)."),
    init_tiny: bool = typer.Option(False, "--init-tiny", help="Build the tiny policy from the tasks' texts (without --policy)."),
    sft_epochs: int = typer.Option(20, "--sft-epochs", min=0, help="SFT passes over the golden demonstrations."),
    grpo_steps: int = typer.Option(10, "--grpo-steps", min=0, help="GRPO steps."),
    group_size: int = typer.Option(8, "--group-size", min=2, help="Attempts per task (G) for unseen / sometimes-solved tasks."),
    tasks_per_step: int = typer.Option(4, "--tasks-per-step", min=1, help="Tasks per GRPO step."),
    held_out: float = typer.Option(0.25, "--held-out", min=0, max=0.99, help="Fraction of task instances kept for evaluation."),
    seed: int = typer.Option(0, "--seed", help="Seed of the split, sampler, init and sampling."),
    resume: bool = typer.Option(False, "--resume", help="Continue from the last checkpoint in --out."),
    max_steps: int = typer.Option(8, "--max-steps", min=1, help="Agent replies per attempt."),
    concurrency: int = typer.Option(2, "--concurrency", min=1, help="Attempts at once."),
    lr: float = typer.Option(1e-4, "--lr", help="GRPO learning rate."),
    kl_coef: float = typer.Option(0.0, "--kl-coef", min=0, help="KL-to-SFT-reference weight."),
    eval_attempts: int = typer.Option(1, "--eval-attempts", min=1, help="Attempts per held-out task in each evaluation."),
    eval_temperature: float = typer.Option(0.0, "--eval-temperature", min=0, help="Sampling temperature of evaluation (0: greedy)."),
) -> None:
    """Train a policy with SFT on golden demonstrations then GRPO; prints reward per step and held-out success."""
    from pydantic import ValidationError

    from .config import TrainConfig
    from .train import TrainError, train

    try:
        config = TrainConfig(
            tasks=tasks, out=out, policy=policy, init_tiny=init_tiny, sft_epochs=sft_epochs, grpo_steps=grpo_steps,
            group_size=group_size, tasks_per_step=tasks_per_step, held_out=held_out, seed=seed, resume=resume,
            max_steps=max_steps, concurrency=concurrency, lr=lr, kl_coef=kl_coef, eval_attempts=eval_attempts,
            eval_temperature=eval_temperature,
        )
    except ValidationError as err:
        raise typer.BadParameter(err.errors()[0]["msg"]) from None
    try:
        report = train(config, log=console.print)
    except TrainError as err:
        console.print(f"[red]train: {err}[/]")
        raise typer.Exit(1) from None
    console.print(steps_table(report))
    console.print(held_out_table(report))


def steps_table(report) -> Table:
    """Training reward, success, loss and k3 per GRPO step."""
    table = Table(title="GRPO training")
    for col in ("step", "reward", "success", "loss", "k3", "clip frac", "attempts", "tok/s", "seconds"):
        table.add_column(col, justify="right")
    for r in report.steps:
        table.add_row(str(r["step"]), f"{r['reward_mean']:.3f}", f"{r['success_rate']:.0%}", f"{r['loss']:.4f}", f"{r['k3']:.1e}",
                      f"{r['clip_frac']:.3f}", str(r["attempts"]), f"{r['tokens_per_s']:.0f}", f"{r['seconds']:.1f}")
    return table


def held_out_table(report) -> Table:
    """Held-out success of the SFT-only and SFT+GRPO checkpoints."""
    table = Table(title=f"held-out ({len(report.held_out_tasks)} task instances never trained on)")
    for col in ("checkpoint", "success", "mean reward", "scored", "env errors"):
        table.add_column(col, justify="left" if col == "checkpoint" else "right")
    for label, h in report.held_out.items():
        table.add_row(f"{label} ({h.checkpoint})", f"{h.success_rate:.0%} ({h.successes}/{h.scored})", f"{h.mean_reward:.3f}",
                      str(h.scored), str(h.env_errors))
    return table
