"""The root command lists only modules that exist: each command module registers, each bench module is a command."""

from __future__ import annotations

import subprocess
import sys

import click
import typer.main

from gymfactory.cli import BENCH_MODULES, build


def test_every_listed_bench_module_is_a_command():
    root = typer.main.get_command(build())
    bench = root.commands["bench"]
    ctx = click.Context(bench)
    assert bench.list_commands(ctx) == list(BENCH_MODULES) and "validation" in BENCH_MODULES
    for name in BENCH_MODULES:
        command = bench.get_command(ctx, name)
        assert command is not None and command.name == name and command.help, name
    assert bench.get_command(ctx, "nope") is None


def test_starting_the_command_imports_no_benchmark():
    """Every `gymfactory` start builds the whole command tree: a benchmark's imports (torch) wait until it is named."""
    code = "import sys, gymfactory.cli as c; c.build(); print(sorted(m for m in ('torch', 'bench.train') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout
