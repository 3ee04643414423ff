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
    from mocked_apps.kit import load_package
    from mocked_apps.registry import available

    table = Table("name", "title", "category", "source")
    for name, ref in sorted(available().items()):
        try:
            manifest = load_package(ref).manifest
            table.add_row(name, manifest.title, manifest.category, ref)
        except Exception as err:  # a broken registered app is listed, not fatal
            table.add_row(name, f"[red]cannot load: {err}[/red]", "", ref)
    console.print(table)


@apps.command("serve")
def serve(
    app: str = typer.Argument(help="App name, module, or package folder."),
    seed: str = typer.Option(None, help="JSON file {\"seed\": {...}, \"clock\": ...}; default: the app's seed."),
) -> None:
    """Start an app, create an instance from its seed, and print the URL to open."""
    import json

    from mocked_apps.kit import AppServer
    from mocked_apps.registry import resolve

    body = json.loads(open(seed).read()) if seed else {}
    with AppServer(resolve(app)) as server:
        inst = server.admin.create(body.get("seed"), body.get("clock"))
        console.print(f"[bold]{app}[/bold] instance ready: {server.url}{inst['url']}")
        console.print(f"admin token (header X-Gym-Admin-Token): {server.token}")
        console.print("Ctrl-C to stop.")
        try:
            while server.alive():
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass


def register(root: typer.Typer) -> None:
    root.add_typer(apps, name="apps")
