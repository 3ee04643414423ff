"""`gymfactory train`: SFT warm-up + GRPO on tasks, then a table of training reward and held-out success."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from contracts.options import config_options

from .config import TrainConfig

console = Console()


def register(root: typer.Typer) -> None:
    root.command("train")(train_command)  # the `policy` agent is in runtime.agents.registry, loaded (torch) when used


@config_options(TrainConfig)
def train_command(config: TrainConfig) -> None:
    """Train a policy with SFT on golden demonstrations then GRPO; prints reward per step and held-out success."""
    from .train import TrainError, train

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
