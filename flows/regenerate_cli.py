"""`gymfactory regenerate --from RUN` and `gymfactory loop --rounds N --agent A`: the CLI of the regenerate and loop flows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from pydantic import ValidationError

from contracts.errors import InputError


class BadLoopOption(InputError, ValueError):
    """An option of `regenerate` or `loop` that cannot work; the message names it."""


def _config(cls, **options):
    try:
        return cls(**options)
    except ValidationError as err:
        first = err.errors()[0]
        raise BadLoopOption(f"--{str(first['loc'][0]).replace('_', '-')}: {first['msg'].lower()}") from None


def regenerate_command(
    source: Path = typer.Option(..., "--from", help="Run folder (of `gymfactory run`) whose rollouts are diagnosed."),
    agent: Optional[str] = typer.Option(None, help="Agent to diagnose; default the run's first agent other than golden."),
    tasks: int = typer.Option(16, help="Targeted tasks to synthesize before the gates."),
    concurrency: int = typer.Option(4, help="Browser sessions at once (validation)."),
    seed: int = typer.Option(0, help="Seed of the new worlds."),
) -> None:
    """Diagnose a run's agent, synthesize tasks aimed at its weak capabilities, validate them, write RUN/regenerated/v<k>/."""
    from flows.cli import _prefect_defaults
    from flows.regenerate import RegenerateConfig, regenerate_flow

    if not source.joinpath("rollouts", "trajectories.db").is_file():
        raise BadLoopOption(f"--from {source}: no rollouts/trajectories.db there; pass a folder made by `gymfactory run`")
    config = _config(RegenerateConfig, out=source, diagnose_agent=agent, new_tasks=tasks, concurrency=concurrency, seed=seed)
    _prefect_defaults()
    summary = regenerate_flow(config)
    typer.echo(f"{summary['agent']}: weakest at {', '.join(summary['top']) or 'nothing (no failures)'}; "
               f"{summary['accepted']} of {summary['synthesized']} targeted tasks accepted; "
               f"{summary['targeted_share']:.0%} exercise the top capability -> {summary['path']}")


def loop_command(
    rounds: int = typer.Option(3, help="Rounds of rollouts -> diagnose -> regenerate."),
    agent: str = typer.Option(..., "--agent", "-a", help="Agent measured and diagnosed each round."),
    out: Path = typer.Option(Path("runs/loop"), help="Output folder (the loop writes OUT/loop/)."),
    base_tasks: int = typer.Option(12, help="Tasks of the first round's training pool."),
    heldout_tasks: int = typer.Option(8, help="Tasks of the fixed held-out set."),
    new_tasks: int = typer.Option(16, help="Targeted tasks per round, before the gates."),
    max_steps: int = typer.Option(15, help="Step limit of an attempt."),
    concurrency: int = typer.Option(4, help="Browser sessions at once."),
    seed: int = typer.Option(0, help="Seed of worlds and synthesis."),
) -> None:
    """Rounds of rollouts -> diagnosis -> regeneration; prints success per capability per round on the held-out set."""
    from flows.cli import _prefect_defaults
    from flows.loop import LoopConfig, loop_flow
    from runtime.agents import check_agent

    check_agent(agent)
    config = _config(LoopConfig, out=out, rounds=rounds, agent=agent, agents=(agent,), base_tasks=base_tasks, heldout_tasks=heldout_tasks,
                     new_tasks=new_tasks, max_steps=max_steps, concurrency=concurrency, seed=seed, validation_runs=1)
    _prefect_defaults()
    summary = loop_flow(config)
    for row in summary["rounds"]:
        typer.echo(f"round {row['round']}: top {', '.join(row['top']) or '-'}, targeted share {row['targeted_share']:.2f}, "
                   f"held-out by capability {json.dumps(row['heldout_success'])}")
    typer.echo(f"report: {out / 'loop' / 'report.md'}")


def register(root: typer.Typer) -> None:
    root.command("regenerate")(regenerate_command)
    root.command("loop")(loop_command)
