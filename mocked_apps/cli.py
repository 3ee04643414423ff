"""`gymfactory apps ...`: list, serve and check mocked apps."""

from __future__ import annotations

import time

import typer
from rich.console import Console
from rich.table import Table

apps = typer.Typer(help="Mocked apps: list, serve, check.", no_args_is_help=True)
console = Console()


@apps.command("list")
def list_apps() -> None:
    """Every registered app: shipped ones and those added from other folders."""
    from mocked_apps.kit import AppPackageError, load_manifest
    from mocked_apps.registry import SHIPPED, AppRegistryError, available

    try:
        apps_by_name = available()
    except AppRegistryError as err:  # the shipped apps are still listed; the bad file is named
        apps_by_name, broken = dict(SHIPPED), err
    else:
        broken = None
    table = Table("name", "title", "category", "source")
    for name, ref in sorted(apps_by_name.items()):
        try:
            manifest = load_manifest(ref)
            table.add_row(name, manifest.title, manifest.category, ref)
        except (AppPackageError, ImportError, SyntaxError) as err:  # a broken registered app is listed, not fatal
            table.add_row(name, f"[red]cannot load: {err}[/red]", "", ref)
    console.print(table)
    if broken is not None:
        typer.echo(f"warning: registered apps not listed: {broken}", err=True)


@apps.command("serve")
def serve(
    app: str = typer.Argument(help="App name, module, or package folder."),
    seed: str = typer.Option(None, help="JSON file {\"seed\": {...}, \"clock\": ...}; default: the app's seed."),
) -> None:
    """Start an app, create an instance from its seed, and print the URL to open."""
    import json

    from contracts.errors import InputError
    from mocked_apps.kit import AppServer
    from mocked_apps.registry import resolve

    from contracts.signals import interrupt_on_signals

    interrupt_on_signals()  # Ctrl-C or SIGTERM stops it, even where it was started with SIGINT ignored (`cmd &` in a script)
    ref = resolve(app)  # an unknown name fails here, with did-you-mean, before anything starts
    try:
        body = json.loads(open(seed, "rb").read().decode("utf-8")) if seed else {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"--seed {seed}: cannot read it as JSON ({err}); pass a JSON file {{\"seed\": {{...}}, \"clock\": ...}}") from None
    with AppServer(ref) as server:
        inst = server.admin.create(body.get("seed"), body.get("clock"))
        console.print(f"[bold]{app}[/bold] instance ready: {server.url}{inst['url']}")
        console.print(f"admin token (header X-Gym-Admin-Token): {server.token}")
        console.print("Ctrl-C to stop.")
        try:
            while server.alive():
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass


@apps.command("check")
def check(
    refs: list[str] = typer.Argument(None, help="App names or package folders; default: every registered app."),
    max_pages: int = typer.Option(40, help="At most this many pages crawled per app."),
    budget: float = typer.Option(45.0, help="Seconds per app and viewport for clicking controls; the rest are reported unchecked."),
    json_out: str = typer.Option(None, "--json", help="Write the reports as a JSON list to this file."),
    variants: int = typer.Option(1, min=1, help="Check each app as drawn (variant 0) and in K-1 appearance variants drawn from "
                                 "its name, as `run --variants` draws a task's."),
    variant: list[int] = typer.Option(None, "--variant", min=0, help="Check exactly these variant seeds (repeatable; "
                                      "0: as drawn), instead of --variants."),
    jobs: int = typer.Option(1, min=1, help="Check this many apps at once, each in its own process and Chromium "
                             "(a check keeps about one core busy)."),
    brief: bool = typer.Option(False, help="One line per app that passes; the full table only for failures."),
) -> None:
    """Drive each app with a real browser and judge every law of the app contract (DESIGN.md Contract 1)."""
    import json
    from pathlib import Path

    from rich.markup import escape

    from contracts.signals import interrupt_on_signals
    from mocked_apps.checker import render
    from mocked_apps.checker.batch import check_many, drawn_variants
    from mocked_apps.registry import available

    began = time.monotonic()
    names = refs or sorted(available())
    todo = [(ref, seed) for ref in names for seed in (variant or drawn_variants(ref, variants))]
    index = {job: i for i, job in enumerate(todo)}

    def order(report) -> int:  # the reports in the order asked, whichever finished first
        return index.get((report.ref, report.variant), len(index))

    reports, written = [], time.monotonic()

    def save() -> None:
        if json_out:
            Path(json_out).write_text(json.dumps([r.model_dump() for r in sorted(reports, key=order)], indent=2))

    interrupt_on_signals()  # Ctrl-C or SIGTERM: the reports done are kept, the worker processes stopped
    try:
        for report in check_many(todo, workers=jobs, max_pages=max_pages, controls_budget_s=budget):
            reports.append(report)
            if not (brief and report.ok):
                console.print(render(report))
            if len(todo) > 1:
                shown = f"{report.app} variant {report.variant}" if report.variant else report.app
                verdict = "[green]pass[/green]" if report.ok else "[bold red]FAIL[/bold red]"
                console.print(f"[{len(reports)}/{len(todo)}] {escape(shown)}: {verdict} in {report.seconds:.1f}s "
                              f"({time.monotonic() - began:.0f}s so far)")
                console.file.flush()  # progress shows as it goes through a pipe or into a log file too
            if time.monotonic() - written > 30:  # a long check keeps its reports as it goes
                save()
                written = time.monotonic()
    except KeyboardInterrupt:
        save()
        console.print(f"[yellow]interrupted after {len(reports)} of {len(todo)} check(s)[/yellow]"
                      + (f"; their reports are in {json_out}" if json_out else ""))
        raise typer.Exit(130) from None
    save()
    failed = [r for r in reports if not r.ok]
    for report in failed:  # the first failure's first line, and the exception behind it
        console.print("[bold red]FAIL[/bold red] " + escape(report.fail_line()), soft_wrap=True)
    elapsed = time.monotonic() - began
    if failed:
        console.print(f"[red]{len(failed)} of {len(reports)} check(s) fail[/red] ({elapsed:.0f}s)")
        raise typer.Exit(1)
    console.print(f"[green]{len(reports)} app(s) pass every law[/green] ({elapsed:.0f}s)")


@apps.command("compile")
def compile_app(
    spec: str = typer.Argument(help="App spec file (YAML)."),
    check: bool = typer.Option(True, help="Run the contract checker on the compiled app."),
) -> None:
    """Compile an app spec into a kit app, register it by name (under GYMFACTORY_HOME/specs) and check it."""
    from pathlib import Path

    from rich.markup import escape

    from contracts.errors import InputError
    from mocked_apps.catalogue import user_specs
    from mocked_apps.checker import check_app, render
    from mocked_apps.kit import load_package
    from mocked_apps.kit.spec import SpecError, read_spec
    from mocked_apps.kit.spec.write import save_spec

    began = time.monotonic()
    try:
        parsed = read_spec(Path(spec))
    except SpecError as err:
        raise InputError(f"apps compile: {err}") from None
    path = save_spec(parsed, user_specs())
    package = load_package(str(path))
    console.print(f"compiled [bold]{parsed.name}[/bold] ({len(package.tables)} tables, {len(package.router.routes)} routes) "
                  f"in {time.monotonic() - began:.1f}s -> {path}")
    if check:
        report = check_app(str(path))
        console.print(render(report))
        if not report.ok:
            console.print("[bold red]FAIL[/bold red] " + escape(report.fail_line()), soft_wrap=True)
            raise typer.Exit(1)
        console.print(f"[green]spec -> passing checker in {time.monotonic() - began:.1f}s[/green]")


def register(root: typer.Typer) -> None:
    root.add_typer(apps, name="apps")
