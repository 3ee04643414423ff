"""`gymfactory run` (the whole pipeline, offline by default) and `gymfactory flows serve` (deployments for the UI)."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

if TYPE_CHECKING:
    from flows.config import PipelineConfig

console = Console()
flows_app = typer.Typer(help="Prefect flows: serve them as deployments for the Prefect UI.", no_args_is_help=True)


def _prefect_defaults() -> None:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    # 8-18 s on 2 idle cores; minutes on 2 cores that other work keeps busy
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "600")


def run(config: "PipelineConfig", verbose: bool = typer.Option(False, help="Show Prefect's logs.")) -> None:
    """Run the whole pipeline: worlds, tasks, validation, review, rollouts, dataset, report."""
    from flows.options import check_run

    check_run(config)  # a bad option is one line, before Prefect starts
    if not config.fresh:
        from flows.workdir import Workdir

        Workdir(config.out).check()  # a corrupt stage marker or store is named (with --fresh as the way out) before Prefect starts
    from flows.interrupt import on_ctrl_c, scratch_folder

    with scratch_folder() as scratch:
        on_ctrl_c(config.out, scratch).install()  # Ctrl-C: one line (what was kept, how to resume), exit 130 within seconds
        _run(config, verbose)


def _run(config: PipelineConfig, verbose: bool) -> None:
    """The pipeline under Prefect: on a temporary server of the run's own unless PREFECT_API_URL names one."""
    out = config.out
    _prefect_defaults()
    if not verbose:  # the env var for the processes Prefect starts; the logger, in case Prefect was imported already
        os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
        logging.getLogger("prefect").setLevel(os.environ["PREFECT_LOGGING_LEVEL"])
    with ExitStack() as stack:
        if not os.environ.get("PREFECT_API_URL"):
            stack.enter_context(_temporary_prefect(out))
        _pipeline(config)


@contextmanager
def _temporary_prefect(out: Path) -> Iterator[None]:
    """Prefect's temporary server for this run, as PREFECT_API_URL; a failed start is one line naming its cause."""
    from flows.prefect_server import PrefectStartError, serving_prefect

    timeout = float(os.environ["PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"])
    with ExitStack() as stack:
        try:
            stack.enter_context(serving_prefect(out, timeout))
        except PrefectStartError as err:
            hint = ("a busy machine starts it slowly: raise PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS, or point "
                    "PREFECT_API_URL at a running `prefect server start`" if err.timed_out else
                    "fix that, or point PREFECT_API_URL at a running `prefect server start`")
            typer.echo(f"error: {err}\n({hint}; nothing was lost, rerun with the same --out to resume)", err=True)
            raise typer.Exit(1) from None
        yield


def _pipeline(config: PipelineConfig) -> None:
    """The pipeline with its progress bars, then the summary; exit 1 if an agent measured nothing."""
    out = config.out
    from flows.artifacts import listen
    from flows.pipeline import StageIncomplete, pipeline

    console.print(f"[bold]gymfactory run[/bold] -> {out}  (Prefect UI: set PREFECT_API_URL to watch; see README)", soft_wrap=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console) as bars:
        shown: dict[str, int] = {}

        def on_progress(key: str, description: str, done: int, total: int) -> None:
            if key not in shown:
                shown[key] = bars.add_task(description, total=total)
            bars.update(shown[key], completed=done, total=total)

        listen(on_progress)
        try:
            report = pipeline(config)
        except StageIncomplete as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(1) from None
    _summary(report)
    console.print(f"report: {out / 'report.md'}  dataset: {out / 'dataset'}", soft_wrap=True)
    broken = [a for stage in ("rollouts", "rollouts_trained") for a in report["stages"].get(stage, {}).get("agents", [])
              if a["attempts"] and a["env_errors"] == a["attempts"]]
    if broken:  # nothing was measured for these agents: the run failed, whatever else it made
        names = ", ".join(a["agent"] for a in broken)
        typer.echo(f"error: every rollout attempt of {names} was an env_error (its environment or endpoint was down); "
                   f"the reasons are in {out / 'rollouts'}/<agent>.jsonl", err=True)
        raise typer.Exit(1)


def _summary(report: dict) -> None:
    stages = report["stages"]
    table = Table("stage", "result", "seconds", title="gymfactory run")
    for stage, s in stages.items():
        shown = ", ".join(f"{k}={v}" for k, v in s.items() if k not in ("seconds", "agents", "reasons", "findings", "difficulty", "path", "ray"))
        table.add_row(stage, shown, f"{s['seconds']:.1f}")
    console.print(table)
    for stage in ("rollouts", "rollouts_trained"):
        if stage in stages:
            agents = Table("agent", "attempts", "success rate", "mean reward", "env errors", title=stage)
            for a in stages[stage]["agents"]:
                agents.add_row(a["agent"], str(a["attempts"]), f"{a['success_rate']:.2f}", f"{a['mean_reward']:.2f}", str(a["env_errors"]))
            console.print(agents)
    console.print(f"[bold]{report['accepted_tasks']}[/bold] accepted tasks")


@flows_app.command("serve")
def serve(
    name: str = typer.Option("gymfactory", help="Prefix of the deployment names: each flow is served as NAME-<flow>."),
) -> None:
    """Register every flow as a deployment (each its own name) and serve them; start runs from the Prefect UI.

    SIGTERM stops it cleanly, exit code 0: while serving, Prefect's runner pauses the deployments; before that (the
    temporary Prefect server still starting), the exit stops that server rather than orphaning it.
    """
    _prefect_defaults()
    signal.signal(signal.SIGTERM, _exit)  # until Prefect's runner installs its own graceful handler
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C stops it even where it was started with SIGINT ignored
    from prefect import serve as prefect_serve

    from flows import deployable

    if not os.environ.get("PREFECT_API_URL"):
        console.print("[yellow]PREFECT_API_URL is not set: start `prefect server start` and export "
                      "PREFECT_API_URL=http://127.0.0.1:4200/api to see these deployments in the UI.[/yellow]")
    prefect_serve(*(f.to_deployment(name=deployment_name(name, f.name)) for f in deployable()))


def _exit(_signum: int, _frame) -> None:
    """A stop request as an ordinary exit (code 0, as the runner's), so exit handlers (Prefect's stop of its temporary
    server) run."""
    raise SystemExit(0)


def deployment_name(prefix: str, flow: str) -> str:
    """The served deployment of `flow`: distinct per flow, so the UI and `run_deployment` tell them apart."""
    return f"{prefix}-{flow}"


def register(root: typer.Typer) -> None:
    from contracts.options import config_options
    from flows.config import RUN_OPTIONS, PipelineConfig

    root.command("run")(config_options(PipelineConfig, names=RUN_OPTIONS)(run))
    root.add_typer(flows_app, name="flows")
