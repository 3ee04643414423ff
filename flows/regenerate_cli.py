"""`gymfactory regenerate --from RUN` and `gymfactory loop --rounds N --agent A`: the CLI of the regenerate and loop flows."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from contracts.errors import InputError


class BadLoopOption(InputError, ValueError):
    """An option of `regenerate` or `loop` that cannot work; the message names it."""


def regenerate_command(config: "RegenerateConfig") -> None:
    """Diagnose a run's agent, synthesize tasks aimed at its weak capabilities, validate them, write RUN/regenerated/v<k>/."""
    from flows.cli import _prefect_defaults
    from flows.regenerate import regenerate_flow

    if not Path(config.out).joinpath("rollouts", "trajectories.db").is_file():
        raise BadLoopOption(f"--from {config.out}: no rollouts/trajectories.db there; pass a folder made by `gymfactory run`")
    _prefect_defaults()
    summary = regenerate_flow(config)
    typer.echo(f"{summary['agent']}: weakest at {', '.join(summary['top']) or 'nothing (no failures)'}; "
               f"{summary['accepted']} of {summary['synthesized']} targeted tasks accepted; "
               f"{summary['targeted_share']:.0%} exercise the top capability -> {summary['path']}")


def loop_command(config: "LoopConfig") -> None:
    """Rounds of rollouts -> diagnosis -> regeneration (-> training, with --train); prints held-out success per capability per round."""
    from flows.cli import _prefect_defaults
    from flows.loop import LoopConfig, loop_flow
    from runtime.agents import check_agent

    check_agent(config.agent)
    config = LoopConfig(**{**config.model_dump(), "agents": (config.agent,)})  # the measured agent is the one rolled out
    from flows.interrupt import loop_kept, on_ctrl_c

    _prefect_defaults()
    on_ctrl_c(config.out, describe=loop_kept).install()  # Ctrl-C or SIGTERM: one line (what was kept, how to resume), children stopped
    summary = loop_flow(config)
    for row in summary["rounds"]:
        typer.echo(f"round {row['round']}: top {', '.join(row['top']) or '-'}, targeted share {row['targeted_share']:.2f}, "
                   f"held-out by capability {json.dumps(row['heldout_success'])}")
    typer.echo(f"report: {Path(config.out) / 'loop' / 'report.md'}")


def register(root: typer.Typer) -> None:
    from contracts.options import config_options
    from flows.loop import LoopConfig
    from flows.regenerate import RegenerateConfig

    regenerate = config_options(RegenerateConfig, names={"out": "--from", "diagnose_agent": "--agent", "new_tasks": "--tasks"},
                                only=("out", "diagnose_agent", "new_tasks", "concurrency", "synth.seed", "distractor_rate", "use_llm"),
                                helps={"out": "Run folder (of `gymfactory run`) whose rollouts are diagnosed; versions go to "
                                              "RUN/regenerated/v<k>/.", "synth.seed": "Seed of the new worlds."})
    root.command("regenerate")(regenerate(regenerate_command))
    loop = config_options(LoopConfig, only=("out", "rounds", "agent", "model", "base_tasks", "heldout_tasks", "new_tasks", "max_steps",
                                            "concurrency", "validation_runs", "synth.seed", "synth.families", "train", "train_sft_epochs",
                                            "train_steps", "train_lr", "train_layers", "screenshots", "replay_sample", "replay_max_mb"),
                          names={"synth.families": "--family"},
                          helps={"out": "Output folder (the loop writes OUT/loop/; a rerun resumes).",
                                 "model": "With --agent reference or policy: the model to start from (a registered name or a "
                                          "saved model's folder; default smollm2-135m)."})
    root.command("loop")(loop(loop_command))
