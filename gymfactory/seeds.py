"""`gymfactory apps seed [APP...]`: rewrite hand-made apps' seed.json as their projection of the default world.

It lives here, not in mocked_apps/cli.py, because worlds are built by `factory` and `mocked_apps` may not
import it (imports point down: tests/test_imports.py).
"""

from __future__ import annotations

from typing import Annotated

import typer


def seed(apps: Annotated[list[str] | None, typer.Argument(help="Apps to rewrite; default: every app with projection.py and seed.json.")] = None) -> None:
    """Rewrite each app's seed.json as {"clock": the default world's clock, "seed": the app's projection of it}."""
    from factory.worlds.default import DEFAULT_WORLD, seed_apps, write_default_seeds
    from contracts.registry import check_name
    from mocked_apps.registry import UnknownApp

    known = seed_apps()
    for app in apps or []:
        check_name("app with a projection and a seed.json", app, known, UnknownApp)
    for app, changed in write_default_seeds(apps or known).items():
        typer.echo(f"{app}: {'rewritten' if changed else 'unchanged'} (default world {'/'.join(map(str, DEFAULT_WORLD))})")


def register(root: typer.Typer) -> None:
    from mocked_apps.cli import apps

    apps.command("seed")(seed)
