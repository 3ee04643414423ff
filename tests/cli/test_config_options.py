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
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


def test_train_has_an_option_for_every_train_config_field():
    assert {option_name(f) for f in TrainConfig.model_fields} <= _options("train")


def test_synthesize_has_an_option_for_every_synth_config_field():
    names = {"families": "--family"}
    assert {option_name(f, names) for f in SynthConfig.model_fields} | {"--provider", "--out"} <= _options("tasks", "synthesize")


def test_run_has_an_option_for_every_pipeline_field_and_every_synthesis_field():
    from flows.config import RUN_OPTIONS, PipelineConfig

    expected = {option_name(f, RUN_OPTIONS) for f in PipelineConfig.model_fields if f != "synth"}
    expected |= {RUN_OPTIONS.get(f"synth.{f}") or option_name(f) for f in SynthConfig.model_fields}
    assert expected | {"--verbose"} <= _options("run")
    assert {"--store-url", "--objects-url", "--backend", "--catalogue", "--tasks", "--no-screenshots"} <= _options("run")


def test_run_builds_the_nested_synthesis_config_from_its_options(tmp_path):
    """The flattened options land in `config.synth`, with the run's own defaults where none is given."""
    import typer
    from typer.testing import CliRunner

    from contracts.options import config_options
    from flows.config import RUN_OPTIONS, PipelineConfig

    seen = []
    app = typer.Typer()
    app.command()(config_options(PipelineConfig, names=RUN_OPTIONS)(lambda config: seen.append(config)))
    args = ["--out", str(tmp_path / "r"), "--tasks", "7", "--family", "mail.star_invoice_email", "--catalogue",
            "--store-url", "postgresql://u@127.0.0.1/db", "--no-screenshots"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    [config] = seen
    assert (config.synth.n, config.synth.families, config.synth.catalogue) == (7, ("mail.star_invoice_email",), True)
    assert config.synth.worlds_per_pair == 1  # the run's default, not the synthesis command's (2)
    assert config.store_url == "postgresql://u@127.0.0.1/db" and config.screenshots is False
    bad = CliRunner().invoke(build(), ["run", "--out", str(tmp_path / "r"), "--tasks", "0"])
    assert bad.exit_code == 2 and "--tasks" in bad.output and not (tmp_path / "r").exists()
