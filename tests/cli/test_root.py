"""The root command lists only modules that exist: each command module registers, each bench module is a command."""

from __future__ import annotations

import typer.main

from gymfactory.cli import BENCH_MODULES, build


def test_every_listed_bench_module_is_a_command():
    root = typer.main.get_command(build())
    bench = root.commands["bench"]
    assert set(bench.commands) == set(BENCH_MODULES) and "validation" in bench.commands
