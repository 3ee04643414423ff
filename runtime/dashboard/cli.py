"""`gymfactory dashboard`: serve the replay dashboard over a trajectory store."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from contracts.errors import InputError


def dashboard_command(
    store: Optional[str] = typer.Option(None, help="Trajectory store URL or SQLite path (a run folder's rollouts/trajectories.db); "
                                        "default $GYMFACTORY_HOME/trajectories.db."),
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8765, min=0, max=65535, help="Port to listen on."),
) -> None:
    """Browse runs, agents, tasks and attempts; replay each attempt step by step; JSON diagnosis under /api."""
    import uvicorn

    from runtime.dashboard.app import create_app
    from runtime.store import TrajectoryStore

    trajectories = TrajectoryStore(_existing(store)) if store else TrajectoryStore()
    typer.echo(f"dashboard over {trajectories.url}: http://{host}:{port}/  (API: http://{host}:{port}/api/docs)")
    from runtime.dashboard.data import TrajectoryView

    uvicorn.run(create_app(view=TrajectoryView(trajectories)), host=host, port=port, log_level="warning")


def _existing(store: str) -> str:
    """A `--store` the dashboard only reads: a SQLite file must exist (opening a missing one would create it, empty)."""
    if "://" in store and not store.startswith("sqlite:///"):
        return store  # a server database (postgresql://): its own error names it when it cannot be reached
    path = Path(store.removeprefix("sqlite:///")).expanduser()
    if path.is_dir():
        raise InputError(f"--store {store}: is a folder; pass its trajectory store, e.g. {path / 'rollouts' / 'trajectories.db'}")
    if not path.is_file():
        raise InputError(f"--store {store}: no such trajectory store; pass an existing one (a run folder's "
                         "rollouts/trajectories.db), or leave --store out for $GYMFACTORY_HOME/trajectories.db")
    return store
