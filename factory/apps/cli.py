"""`gymfactory apps synthesize`: coding agents build new mocked apps from specs; added to the existing `apps` group."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

console = Console()


def synthesize(
    spec: list[Path] = typer.Option(None, "--spec", help="App spec file (JSON or YAML); repeat for several."),
    category: str = typer.Option(None, help="Generate specs for this category with the provider instead."),
    n: int = typer.Option(1, "--n", min=1, help="How many specs to generate for --category."),
    provider: str = typer.Option(None, help="openai | anthropic | template (the brief's draft spec, no model) | claude | codex (installed CLIs); "
                                            "default: the one whose API key is set."),
    model: str = typer.Option(None, help="Model name (default: OPENAI_MODEL / ANTHROPIC_MODEL)."),
    rounds: int = typer.Option(3, min=1, help="Checker verdicts before an app is rejected."),
    out: Path = typer.Option(Path("runs/apps"), help="Workspaces and session logs go here."),
    max_pages: int = typer.Option(12, help="Pages the checker crawls per verdict."),
    budget: float = typer.Option(15.0, help="Seconds the checker spends clicking controls per verdict."),
) -> None:
    """Draft each brief as an app spec, let a coding agent grow it on compiler and checker feedback, and register the
    specs that pass (their task families are derived from them)."""
    from factory.providers import ProviderError

    from .agent import SynthesisConfig
    from .chat import ProviderNotConfigured
    from .cli_agent import CodingAgentUnavailable
    from .run import collect_specs, resolve_provider, run_one
    from .spec import SpecError

    try:
        chosen = resolve_provider(provider)
        specs = collect_specs(spec or [], category, n, chosen, model)
    except (ProviderNotConfigured, SpecError, ProviderError) as err:
        console.print(f"[red]{err}[/red]")
        raise typer.Exit(2) from err
    config = SynthesisConfig(rounds=rounds, max_pages=max_pages, controls_budget_s=budget)
    table = Table("app", "status", "rounds", "turns", "tokens in/out", "s")
    notes: list[str] = []
    failed = 0
    for s in specs:
        try:
            result = run_one(s, chosen, out, config, model)
        except (ProviderNotConfigured, CodingAgentUnavailable) as err:
            console.print(f"[red]{err}[/red]")
            raise typer.Exit(2) from err
        failed += not result.accepted
        colour = "green" if result.accepted else "red"
        table.add_row(result.name, f"[{colour}]{result.status}[/{colour}]", str(result.rounds), str(result.turns),
                      f"{result.usage.get('input_tokens', 0)}/{result.usage.get('output_tokens', 0)}", f"{result.seconds:.0f}")
        notes.append(f"{result.name}: {result.status}: {result.reason}; log {result.log}"
                     + (f"; registered at {result.spec}; families: {', '.join(result.families) or 'none'}" if result.spec else ""))
        if result.report is not None and not result.accepted:
            from mocked_apps.checker import render

            console.print(render(result.report))
    console.print(table)
    for line in notes:
        console.print(line, soft_wrap=True)
    if failed:
        raise typer.Exit(1)


def new(
    category: str = typer.Option(..., help="App category, e.g. 'pets', 'travel' (the catalogue's categories)."),
    provider: str = typer.Option("template", help="'template' (a deterministic variation of a catalogue spec) or an LLM provider that writes a spec."),
    seed: int = typer.Option(0, help="Which variation (template provider)."),
    model: str = typer.Option(None, help="Model name for an LLM provider."),
    check: bool = typer.Option(True, help="Run the contract checker on the new app."),
) -> None:
    """Write a new app spec for a category, compile it and register it (GYMFACTORY_HOME/specs), then check it."""
    from contracts.errors import InputError
    from mocked_apps.catalogue import user_specs
    from mocked_apps.checker import check_app, render
    from mocked_apps.kit import load_package
    from mocked_apps.kit.spec.write import save_spec
    from factory.providers import ProviderError

    from .specgen import new_spec

    try:
        spec = new_spec(category, provider, seed, model)
    except ProviderError as err:
        raise InputError(f"apps new: the provider wrote no usable spec: {err}") from None
    path = save_spec(spec, user_specs())
    load_package(str(path))
    console.print(f"new app [bold]{spec.name}[/bold] ({spec.title}) -> {path}")
    if check:
        report = check_app(str(path))
        console.print(render(report))
        if not report.ok:
            raise typer.Exit(1)


def register(root: typer.Typer) -> None:
    """Add `synthesize` and `new` to the `apps` group that mocked_apps.cli registered on `root`."""
    for group in root.registered_groups:
        if group.name == "apps" or getattr(group.typer_instance.info, "name", None) == "apps":
            group.typer_instance.command("synthesize")(synthesize)
            group.typer_instance.command("new")(new)
            return
    raise RuntimeError("factory.apps.cli needs the `apps` group: list it after mocked_apps.cli in COMMAND_MODULES")
