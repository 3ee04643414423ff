"""`gymfactory eval miniwob --agent A`: an outside benchmark through the same harness, with a summary table."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

eval_app = typer.Typer(help="Outside benchmarks through gymfactory's harness and agents.", no_args_is_help=True)
console = Console()


@eval_app.command("miniwob")
def miniwob_command(
    agent: str = typer.Option("random", "--agent", "-a", help="Agent name (random, openai, anthropic, ...)."),
    task: list[str] = typer.Option([], "--task", help="MiniWoB task names (default: every task that runs from file://)."),
    seeds: int = typer.Option(1, min=1, help="Episodes per task (seeds 0..n-1)."),
    max_steps: int = typer.Option(10, min=1, help="Agent steps per episode (MiniWoB also ends an episode after 10 s, unless --no-timer)."),
    timer: bool = typer.Option(True, "--timer/--no-timer", help="MiniWoB's own 10-second episode timer, as it ships; --no-timer "
                               "leaves only --max-steps to end an episode, as suites evaluate slow agents (a CPU model)."),
    concurrency: int = typer.Option(4, min=1, max=16, help="Pages at once."),
    model: str | None = typer.Option(None, help="Model name for LLM agents."),
    out: Path | None = typer.Option(None, help="Write every episode as JSONL here."),
    per_task: bool = typer.Option(False, "--per-task", help="Also print one row per task."),
) -> None:
    """Run MiniWoB++ tasks (the miniwob package's own pages, offline) with MiniWoB's own initialisation and reward."""
    from contracts.errors import InputError
    from contracts.registry import check_name, suggest
    from runtime.adapters.benchmark import EvalConfig, check_agent_fits, run, summary
    from runtime.adapters.miniwob import task_names
    from runtime.agents import AgentOptions, check_agent

    check_agent(agent)
    known = task_names()
    for name in task:
        if name not in known and not suggest(name, known):  # no near name: a few of them, not all 125 on one line
            raise InputError(f"unknown MiniWoB task {name!r}; known: {', '.join(known[:8])}, ... ({len(known)} in all; "
                             "the miniwob package's file:// tasks)")
        check_name("MiniWoB task", name, known)  # a typo: one line with near names
    config = EvalConfig(agent=agent, tasks=tuple(task), seeds=seeds, max_steps=max_steps, concurrency=concurrency,
                        episode_timer=timer, options=AgentOptions(model=model))
    check_agent_fits(config)  # refused in one line before the progress bar starts
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console) as bar:
        job = bar.add_task(f"MiniWoB++ episodes ({agent})", total=len(config.tasks or known) * seeds)
        results = run(config, on_episode=lambda _r: bar.advance(job))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(r.model_dump_json() + "\n" for r in results))
    if per_task:
        rows = defaultdict(list)
        for r in results:
            rows[r.task].append(r)
        table = Table("task", "episodes", "success", "mean raw reward", "env errors", title="MiniWoB++ by task")
        for name, rs in rows.items():
            scored = [r for r in rs if r.status != "env_error"]
            table.add_row(name, str(len(rs)), f"{sum(r.status == 'success' for r in scored)}/{len(scored)}",
                          f"{sum(r.reward for r in scored) / max(1, len(scored)):.2f}", str(len(rs) - len(scored)))
        console.print(table)
    s = summary(results)
    table = Table("agent", "tasks", "episodes", "scored", "ended by MiniWoB", "success rate", "mean raw reward", "env errors",
                  title="MiniWoB++ (MiniWoB's own rewards; env errors apart)")
    table.add_row(agent, str(s["tasks"]), str(s["episodes"]), str(s["scored"]), str(s["ended_by_miniwob"]),
                  f"{s['success_rate']:.3f}", f"{s['mean_reward']:.3f}", str(s["env_errors"]))
    console.print(table)


def register(root: typer.Typer) -> None:
    root.add_typer(eval_app, name="eval")
