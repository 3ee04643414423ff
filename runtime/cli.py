"""`gymfactory rollout`: run an agent on tasks, with a progress bar and a summary table."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from runtime.agents.registry import agent_names

console = Console()


def register(root: typer.Typer) -> None:
    from runtime.dashboard.cli import dashboard_command

    root.command("rollout")(rollout_command)
    root.command("dashboard")(dashboard_command)


def rollout_command(
    agent: str = typer.Option(..., "--agent", "-a", help=f"Agent name: {', '.join(agent_names())}."),
    tasks: Path = typer.Option(..., "--tasks", "-t", help="A task .json, a .jsonl, or a folder of them."),
    attempts: int = typer.Option(1, min=1, help="Attempts per task."),
    concurrency: int = typer.Option(1, min=1, help="Attempts run at once (threads)."),
    model: Optional[str] = typer.Option(None, help="Model name for LLM agents."),
    form_factor: Optional[str] = typer.Option(None, "--form-factor", help="Override every task's form factor: desktop or mobile."),
    store: Optional[str] = typer.Option(None, help="Trajectory store URL or SQLite path; default $GYMFACTORY_HOME/trajectories.db."),
    screenshots: Optional[str] = typer.Option(None, help="Screenshot folder or fsspec URL; default $GYMFACTORY_HOME/objects."),
    backend: str = typer.Option("local", help="Where app servers run: local (processes) or docker (containers, daemon from DOCKER_HOST)."),
    max_steps: int = typer.Option(30, min=1, help="Agent replies per attempt."),
    seed: int = typer.Option(0, help="Seed of the random agent (offset by the attempt number)."),
    vision: bool = typer.Option(True, help="Send screenshots to LLM agents."),
    keep_screenshots: bool = typer.Option(True, "--keep-screenshots/--no-screenshots",
                                          help="Keep every observation's screenshot in the object store, for replay in the dashboard."),
    run: Optional[str] = typer.Option(None, help="Run name in the store; rerun with the same name to resume it "
                                      "(finished attempts are kept, interrupted ones redone). Default: a new run."),
) -> None:
    """Run an agent on tasks; failures are results (exit code 0); exit 1 when every attempt was an env error."""
    import secrets
    from datetime import datetime

    from runtime.agents import AgentOptions, check_agent
    from runtime.manager import EnvironmentManager
    from contracts.taskfiles import load_tasks
    from runtime.rollout import RolloutInterrupted, rollout
    from runtime.store import TrajectoryStore

    check_agent(agent)  # UnknownAgent / TaskFileError below are InputErrors: one line at the CLI root, exit 2
    from runtime.backends import backend_names

    if backend not in backend_names():
        raise typer.BadParameter(f"use one of {', '.join(backend_names())}", param_hint="--backend")
    if form_factor not in (None, "desktop", "mobile"):
        raise typer.BadParameter("use desktop or mobile", param_hint="--form-factor")
    task_list = load_tasks(tasks)
    options = AgentOptions(model=model, seed=seed, vision=vision)
    try:
        from runtime.agents import make_agent

        make_agent(agent, options).close()
    except ValueError as err:  # e.g. an LLM agent without a model or key
        raise typer.BadParameter(str(err), param_hint="--agent/--model") from None

    run = run or f"{agent}-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C stops the rollout even when this process was started with SIGINT ignored (a parent's SIG_IGN is
        # inherited, and Python then installs no KeyboardInterrupt; pytest-xdist's workers are such parents)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    trajectories = TrajectoryStore(store) if store else TrajectoryStore()
    console.print(f"run [bold]{run}[/bold] -> {trajectories.url}", soft_wrap=True)  # paths and commands stay whole, to copy
    total = len(task_list) * attempts
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.fields[tally]}"), console=console, transient=False,
    ) as progress:
        bar = progress.add_task(f"{agent} on {len(task_list)} tasks", total=total, tally="")
        tally = {"success": 0, "failure": 0, "env_error": 0, "interrupted": 0}

        def on_result(result, done: int, _total: int) -> None:
            tally[result.status] += 1
            text = f"[green]{tally['success']} ok[/] [red]{tally['failure']} fail[/] [yellow]{tally['env_error']} env_error[/]"
            progress.update(bar, completed=done, tally=text)

        try:
            with EnvironmentManager(backend=backend, screenshots=screenshots) as manager:
                report = rollout(
                    task_list, agent, attempts, concurrency, options=options, max_steps=max_steps, manager=manager,
                    store=trajectories, form_factor=form_factor, progress=on_result, run=run, screenshots=keep_screenshots,
                )
                objects = manager.screenshots.url
        except RolloutInterrupted as stopped:
            report, objects = stopped.report, screenshots or "$GYMFACTORY_HOME/objects"
        finally:
            trajectories.close()
    console.print(summary_table(report))
    console.print(f"results: {len(report.results)} attempts of run {run} in {trajectories.url}; screenshots and final states in "
                  f"{objects}\nreplay them: gymfactory dashboard --store {trajectories.url}", soft_wrap=True)
    resumed = sum(r.resumed for r in report.results)
    if resumed:
        console.print(f"resumed run {run}: {resumed} attempt(s) finished earlier were kept, not redone", soft_wrap=True)
    errors = [r for r in report.results if r.status == "env_error"]
    for r in errors[:5]:
        console.print(f"[yellow]env_error[/] {r.task_id} (attempt {r.attempt_id}): {r.error}")
    if len(report.results) < total:
        typer.echo(f"interrupted: {len(report.results)} of {total} attempts finished and kept in {trajectories.url}; "
                   f"resume with the same command and --run {run}", err=True)
        raise typer.Exit(130)
    if report.results and len(errors) == len(report.results):
        typer.echo(f"error: all {len(errors)} attempts ended in env_error (first: {errors[0].error}); "
                   "fix the environment or the agent's server and rerun", err=True)
        raise typer.Exit(1)


def summary_table(report) -> Table:
    """Per-task and overall success rate and mean reward; env errors in their own column, outside the rates."""
    table = Table(title=f"rollout: {report.agent} ({report.seconds:.1f}s)")
    for col in ("task", "attempts", "success rate", "mean reward", "env errors"):
        table.add_column(col, justify="left" if col == "task" else "right")

    def row(label: str, s) -> None:
        table.add_row(
            label, str(s.attempts), f"{s.success_rate:.0%}" if s.scored else "-",
            f"{s.mean_reward:.2f}" if s.scored else "-", f"[yellow]{s.env_errors}[/]" if s.env_errors else "0",
        )

    for s in report.by_task():
        row(s.task_id, s)
    table.add_section()
    row("[bold]all[/]", report.overall())
    return table
