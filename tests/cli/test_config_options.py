"""CLI options come from the entry point's config model: every field is an option, typed once."""

from __future__ import annotations

import typer.main

from contracts.options import option_name
from factory.tasks.synthesize import SynthConfig
from gymfactory.cli import build
from rl.config import TrainConfig


def _options(*path: str) -> set[str]:
    command = typer.main.get_command(build())
    for name in path:
        command = command.commands[name]
    return {opt for param in command.params for opt in param.opts}


def test_train_has_an_option_for_every_train_config_field():
    assert {option_name(f) for f in TrainConfig.model_fields} <= _options("train")


def test_synthesize_has_an_option_for_every_synth_config_field():
    names = {"families": "--family"}
    assert {option_name(f, names) for f in SynthConfig.model_fields} | {"--provider", "--out"} <= _options("tasks", "synthesize")
