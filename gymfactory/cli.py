"""The `gymfactory` command. Each package adds its own commands through `register(root)`."""

from __future__ import annotations

import gc
import importlib
import inspect
import os
from pathlib import Path
from typing import NoReturn

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError  # Typer's own click (typer.BadParameter's base)
from typer.core import TyperGroup

from contracts.errors import InputError
from runtime.confine import UNSAFE_ENV, ConfinementUnavailable

# Packages that contribute commands: each has a `cli` module with `register(root: typer.Typer)`.
COMMAND_MODULES = ("mocked_apps.cli", "factory.apps.cli", "runtime.cli", "factory.cli", "flows.cli", "rl.cli",
                   "flows.publish_cli", "factory.bundles_cli", "runtime.adapters.cli", "flows.regenerate_cli", "gymfactory.seeds",
                   "runtime.interop.cli", "flows.reference")
# Benchmarks: each module has `main(...)`, a Typer command, shown as `gymfactory bench NAME`.
BENCH_MODULES = {"apps": "bench.apps", "runtime": "bench.runtime", "sandbox": "bench.sandbox", "validation": "bench.validation", "train": "bench.train", "learn": "bench.learn", "transfer": "bench.transfer", "prompts": "bench.prompts",
                 "worlds": "bench.worlds", "verdicts": "bench.verdicts"}


def prepare_home() -> Path:
    """Create the per-user folders every command may need, before any command (or Prefect) starts.

    `GYMFACTORY_HOME` (default `~/.gymfactory`) holds registered apps, trajectories, screenshots and
    the Prefect home. Prefect creates only the last folder of `PREFECT_HOME`, and its temporary
    server then fails to open its database, so the whole path is made here, at the one entry point.
    """
    from mocked_apps.registry import home

    root = home()
    os.environ.setdefault("PREFECT_HOME", str(root / "prefect"))
    # Prefect reads its settings when first imported: set here, before any command imports it (a temporary server
    # starts in 8-18 s on 2 idle cores and took over 20 s, Prefect's default limit, under load: `flows serve` failed)
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "600")
    for folder in (root, Path(os.environ["PREFECT_HOME"]).expanduser()):
        folder.mkdir(parents=True, exist_ok=True)
    return root


class _Root(TyperGroup):
    """The root command: an InputError from any command becomes one line on stderr and exit code 2, no traceback;
    so does a usage error (a bad or missing option value, an unknown option or command), not Typer's panel."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:  # the root's own options are parsed here, before `invoke`
            return super().make_context(info_name, args, parent=parent, **extra)
        except UsageError as err:
            _usage_line(err)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as err:
            typer.echo(f"error: {' '.join(str(err).split())}", err=True)
            raise typer.Exit(2) from None
        except ConfinementUnavailable as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(3) from None
        except UsageError as err:
            _usage_line(err)


def _usage_line(err: UsageError) -> NoReturn:
    """A usage error as one line naming the command and its --help; exit code 2. A bare group still shows its help."""
    if isinstance(err, NoArgsIsHelpError):
        raise err
    where = err.ctx.command_path if err.ctx else "gymfactory"
    typer.echo(f"error: {where}: {' '.join(err.format_message().split())} (see {where} --help)", err=True)
    raise typer.Exit(2) from None


def _root_options(
    unsafe_no_confinement: bool = typer.Option(
        False, "--unsafe-no-confinement",
        help="Run verifier, golden and shell code WITHOUT bubblewrap where it cannot run. Unsafe: rewards become "
             "hackable; reports and dataset cards say so.",
    ),
) -> None:
    if unsafe_no_confinement:
        os.environ[UNSAFE_ENV] = "1"  # children (flows, workers) inherit the choice
        typer.echo("warning: --unsafe-no-confinement: untrusted code may run unconfined", err=True)


def build() -> typer.Typer:
    root = typer.Typer(
        name="gymfactory",
        cls=_Root,
        help="Mocked apps, verified tasks and GRPO training for GUI agents.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        callback=_root_options,
    )
    for name in COMMAND_MODULES:  # every listed module exists: a missing one is an ImportError, never hidden
        importlib.import_module(name).register(root)
    bench = typer.Typer(cls=_Benches, help="Benchmarks: the speed and memory targets in docs/architecture.md.", no_args_is_help=True)
    root.add_typer(bench, name="bench")
    return root


class _Benches(TyperGroup):
    """`gymfactory bench NAME`: a benchmark's module (some import torch, 1.3 s) is imported only when it is named
    (or listed by `gymfactory bench --help`), not at every start of the command."""

    def list_commands(self, ctx) -> list[str]:
        return list(BENCH_MODULES)

    def get_command(self, ctx, name: str):
        if name not in BENCH_MODULES:
            return None
        module = importlib.import_module(BENCH_MODULES[name])
        one = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        one.command(name, help=inspect.getdoc(module))(module.main)
        return typer.main.get_command(one)


def main() -> None:
    prepare_home()
    try:
        build()()
    finally:
        # Exiting: spare the interpreter its final collection over every imported module's objects, which
        # takes seconds once torch and pyarrow are loaded (measured 7.9 s -> 1.2 s) and delays a Ctrl-C.
        gc.freeze()


if __name__ == "__main__":
    main()
