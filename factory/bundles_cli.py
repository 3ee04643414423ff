"""`gymfactory tasks bundle` and `gymfactory tasks load`: task bundles (`factory.bundles`) from the command line."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

console = Console()


def bundle_cmd(
    tasks: Path = typer.Argument(..., help="A task file (.json/.jsonl), a folder of them, or a run folder (its tasks/final.jsonl)."),
    name: str = typer.Option("tasks", "--name", help="Bundle name; files are NAME-vN.tar.gz."),
    out: Path = typer.Option(Path("bundles"), "--out", help="Folder of the bundles; the newest one there gives the revisions."),
) -> None:
    """Bundle tasks with the versions of their apps: a checksummed NAME-vN.tar.gz, revisions kept per task."""
    from factory.bundles import bundle, load
    from contracts.taskfiles import load_tasks

    source = tasks
    if tasks.is_dir() and (tasks / "tasks").is_dir():
        source = next((p for p in (tasks / "tasks" / "final.jsonl", tasks / "tasks" / "reviewed.jsonl") if p.is_file()), tasks)
    path = bundle(load_tasks(source), out, name)
    m = load(path).manifest
    changed = sum(e.revision > 1 for e in m.tasks)
    console.print(f"{path}: version {m.version}, {len(m.tasks)} tasks ({changed} at revision > 1), "
                  f"apps {', '.join(f'{a.app} {a.version}' for a in m.apps)}; digest {m.digest}")


def load_cmd(
    path: Path = typer.Argument(..., help="A NAME-vN.tar.gz bundle."),
    out: Path = typer.Option(Path("tasks.jsonl"), "--out", help="Where to write its tasks (JSONL)."),
    expect: str | None = typer.Option(None, "--expect", help="The bundle digest it must have (as published)."),
    strict: bool = typer.Option(False, "--strict", help="Refuse when the apps here differ from the bundle's."),
) -> None:
    """Check a bundle (every checksum, the apps' versions) and write its tasks; a tampered bundle is refused."""
    from factory.bundles import BundleTampered, app_mismatches, load
    from contracts.taskfiles import save_tasks

    b = load(path, expect=expect)
    problems = app_mismatches(b.manifest)
    for p in problems:
        typer.echo(f"warning: {p}", err=True)
    if problems and strict:
        raise BundleTampered(f"{path}: the apps here are not the ones its tasks were validated on (--strict)")
    save_tasks(list(b.tasks), out)
    console.print(f"{path}: {b.manifest.name} v{b.manifest.version} intact, {len(b.tasks)} tasks -> {out}")


def register(root: typer.Typer) -> None:
    from factory.cli import tasks_app

    tasks_app.command("bundle")(bundle_cmd)
    tasks_app.command("load")(load_cmd)
