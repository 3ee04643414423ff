"""`gymfactory serve openenv|verifiers`: gymfactory tasks behind the servers other trainers connect to.

- `serve openenv --tasks FILE`: openenv-core 0.3.0's protocol (a session per WebSocket at /ws, /health), for OpenEnv
  clients (TRL, SkyRL, ART use those); `reset` opens the next task, round robin.
- `serve verifiers --dataset FOLDER_OR_REPO`: the `verifiers` 0.4 environment server (ZMQ), which prime-rl and
  verifiers' `EnvClient` drive; each worker process loads the `gymfactory_verifiers` environment.

Both run until Ctrl-C (or SIGTERM), then close their app servers and browsers.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import typer

from contracts.signals import interrupt_on_signals

serve_app = typer.Typer(help="Serve gymfactory tasks to other trainers: an OpenEnv server, a verifiers environment server.",
                        no_args_is_help=True)


def _wait_for_stop() -> None:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()


@serve_app.command("openenv")
def serve_openenv(
    tasks: Path = typer.Option(..., "--tasks", "-t", help="A task .json, a .jsonl, or a folder of them (a run's tasks/final.jsonl)."),
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port (0: any free port, printed)."),
    max_steps: int = typer.Option(30, min=1, help="Steps per episode before it is truncated."),
    screenshots: bool = typer.Option(False, "--screenshots/--no-screenshots",
                                     help="Add the page as a base64 PNG to every observation (a capture per step)."),
    sessions: int = typer.Option(1, "--sessions", min=1,
                                 help="Episodes at once, one per OpenEnv client connection (openenv-core's max_concurrent_envs)."),
) -> None:
    """Serve tasks over OpenEnv's protocol; any OpenEnv client (an EnvClient, GenericEnvClient) can reset and step them."""
    from contracts.taskfiles import load_tasks
    from runtime.interop.openenv_server import OpenEnvServer
    from runtime.manager import EnvironmentManager

    loaded = load_tasks(tasks)
    with EnvironmentManager() as manager:
        with OpenEnvServer(loaded, manager, max_steps=max_steps, host=host, port=port, screenshots=screenshots,
                           max_concurrent_envs=sessions) as server:
            typer.echo(f"OpenEnv server on {server.url} serving {len(loaded)} tasks, up to {sessions} session(s) at once "
                       "(Ctrl-C stops it)", err=True)
            _wait_for_stop()


@serve_app.command("verifiers")
def serve_verifiers(
    dataset: str = typer.Option(..., "--dataset", "-d", help="A gymfactory dataset: an exported folder or a Hub repo id."),
    split: str = typer.Option("train", help="Dataset split."),
    address: str = typer.Option("tcp://127.0.0.1:5000", help="ZMQ address the server binds."),
    workers: int = typer.Option(1, min=1, help="Worker processes (each runs its own app servers and browser)."),
    max_steps: int = typer.Option(30, min=1, help="Steps per rollout before it is truncated."),
    screenshots: bool = typer.Option(False, "--screenshots/--no-screenshots",
                                     help="Show the model each page as an image next to its text (for vision-language models)."),
) -> None:
    """Serve a dataset as a `verifiers` environment server (ZMQ): point prime-rl or an EnvClient at ADDRESS."""
    from verifiers.v1.serve import serve_env

    from runtime.interop.verifiers_env import env_config

    typer.echo(f"verifiers environment server on {address} over {dataset} ({split}), {workers} worker(s) (Ctrl-C stops it)", err=True)
    config = env_config(dataset, split, max_steps=max_steps, screenshots=screenshots)
    interrupt_on_signals()  # its server then stops through its own cleanup
    # one worker: a server in this process; more: a broker over that many worker processes, all started at once
    serve_env(config=config, max_workers=workers, address=address, elastic=False)


def register(root: typer.Typer) -> None:
    root.add_typer(serve_app, name="serve")
