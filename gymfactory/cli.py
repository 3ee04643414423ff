"""The `gymfactory` command. Each package adds its own commands through `register(root)`."""

from __future__ import annotations

import importlib
import inspect

import typer

# Packages that contribute commands: each has a `cli` module with `register(root: typer.Typer)`.
COMMAND_MODULES = ("mocked_apps.cli", "factory.apps.cli", "runtime.cli", "factory.cli", "flows.cli", "rl.cli")
# Benchmarks: each module has `main(...)`, a Typer command, shown as `gymfactory bench NAME`.
BENCH_MODULES = {"apps": "bench.apps", "runtime": "bench.runtime", "validation": "bench.validation", "train": "bench.train"}


def _optional(module: str):
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name and module.startswith(err.name):
            return None
        raise


def build() -> typer.Typer:
    root = typer.Typer(
        name="gymfactory",
        help="Mocked apps, verified tasks and GRPO training for GUI agents.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for name in COMMAND_MODULES:
        module = _optional(name)
        if module is not None:
            module.register(root)
    bench = typer.Typer(help="Benchmarks: speed and memory targets of DESIGN.md.", no_args_is_help=True)
    for name, path in BENCH_MODULES.items():
        module = _optional(path)
        if module is not None:
            bench.command(name, help=inspect.getdoc(module))(module.main)
    root.add_typer(bench, name="bench")
    return root


def main() -> None:
    build()()


if __name__ == "__main__":
    main()
