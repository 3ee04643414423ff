"""`gymfactory worlds ...` and `gymfactory tasks ...`: build worlds, synthesize and validate tasks."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

from contracts.options import config_options
from factory.tasks.synthesize import SynthConfig

worlds_app = typer.Typer(help="Worlds: persona + scenario -> people, events, documents -> app seeds.", no_args_is_help=True)
tasks_app = typer.Typer(help="Tasks: synthesize (requirements, golden, verifier) and validate by execution.", no_args_is_help=True)
console = Console()


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console)


@worlds_app.command("build")
def worlds_build(
    persona: list[str] = typer.Option(None, help="Shipped persona ids (default: all)."),
    scenario: list[str] = typer.Option(None, help="Shipped scenario ids (default: all)."),
    seeds: int = typer.Option(1, help="Worlds per persona x scenario."),
    out: Path = typer.Option(Path("worlds"), help="Folder for one JSON file per world."),
    provider: str = typer.Option("template", help="'template': the procedural builder; an LLM provider invents the facts."),
    generated: int = typer.Option(0, help="Build this many worlds of generated personas x the catalogue instead (procedural only)."),
    seed: int = typer.Option(0, help="With --generated: seed of the generated population (same seed, same worlds)."),
    people: int = typer.Option(14, help="Size knob: people per world besides the user."),
    documents: int = typer.Option(8, help="Size knob: routine documents per world."),
    history_days: int = typer.Option(60, help="Size knob: days of bank and mail history."),
    distractor_rate: float = typer.Option(0.3, help="Size knob: chance of each distractor."),
) -> None:
    """Build worlds (integrity-checked) and save each as JSON."""
    from factory.worlds.builder import build_world, generated_world
    from factory.worlds.catalog import PERSONAS, SCENARIOS
    from factory.worlds.size import world_size
    from contracts.registry import check_name

    _check_provider(provider)
    size = world_size(people=people, documents=documents, history_days=history_days, distractor_rate=distractor_rate)
    if generated and provider != "template":
        from contracts.errors import InputError

        raise InputError("--generated builds procedural worlds; drop --provider, or build LLM worlds per --persona/--scenario")
    for p in persona or ():
        check_name("persona", p, PERSONAS)
    for s in scenario or ():
        check_name("scenario", s, SCENARIOS)
    if provider != "template":
        from factory.providers import get_provider
        from factory.worlds.llm import generate_world

        llm = get_provider(provider)

        def build_world(p, s, seed):  # noqa: F811 - the same call, the facts from the model
            persona, scenario = PERSONAS[p], SCENARIOS[s]
            return generate_world(llm, f"{persona.name}, {persona.role} at {persona.company}", scenario.description, seed)

    out.mkdir(parents=True, exist_ok=True)
    table = Table("world", "people", "invoices", "meetings", "messages", "transactions", "documents")
    if generated:
        built = (generated_world(seed, i, size, tuple(scenario) if scenario else None) for i in range(generated))
    else:
        built = (build_world(p, s, seed) if provider != "template" else build_world(p, s, seed, size)
                 for p in persona or list(PERSONAS) for s in scenario or list(SCENARIOS) for seed in range(seeds))
    for w in built:
        (out / f"{w.id}.json").write_text(w.model_dump_json(indent=2))
        table.add_row(w.id, *(str(len(x)) for x in (w.people, w.invoices, w.meetings, w.messages, w.transactions, w.documents)))
    console.print(table)
    console.print(f"saved to {out}/")


@tasks_app.command("families")
def tasks_families(
    catalogue: bool = typer.Option(False, "--catalogue", help="Also the families derived from the compiled catalogue apps' specs."),
) -> None:
    """List the task families: the hand-made apps', and with --catalogue the compiled apps' too."""
    from factory.tasks.families import FAMILIES, with_catalogue

    families = with_catalogue() if catalogue else FAMILIES
    # a family's name is what --family takes: never cut, whatever the terminal's width (the description wraps instead)
    table = Table(Column("family", no_wrap=True, min_width=max(len(n) for n in families)), "apps", "difficulty", "description")
    for f in families.values():
        table.add_row(f.name, "+".join(f.apps), f.difficulty, f.description)
    console.print(table)
    apps = len({a for f in families.values() for a in f.apps})
    console.print(f"{len(families)} families over {apps} apps" + ("" if catalogue else "; --catalogue adds the compiled apps' families"))


@tasks_app.command("synthesize")
@config_options(SynthConfig, names={"families": "--family"})
def tasks_synthesize(
    config: SynthConfig,
    provider: str = typer.Option("template", help="Who writes golden and verifier code: template (offline) or an LLM provider."),
    out: Path = typer.Option(Path("tasks.jsonl"), help="Output JSONL file."),
) -> None:
    """Synthesize tasks: requirements first, then golden and verifier code in two separate generations.

    A task the provider fails on (unreachable, garbage replies) is recorded in OUT.failures.txt and
    synthesis goes on; the exit code is 1 when no task could be written.
    """
    from factory.tasks.synthesize import save_jsonl, select_families, synthesize

    _check_provider(provider)
    try:
        select_families(config)  # an unknown family: did-you-mean
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--apps/--family") from None
    author = _author(provider)
    failures: list[str] = []
    dropped: list[str] = []
    with _progress() as bar:
        job = bar.add_task("synthesizing", total=config.n)
        tasks = synthesize(config, author, on_task=lambda _t: bar.advance(job), failures=failures, dropped=dropped)
    out.parent.mkdir(parents=True, exist_ok=True)  # --out may name a folder not made yet (made only now: bad input wrote nothing)
    failures_file = out.with_suffix(".failures.txt")
    if failures:
        failures_file.write_text("\n".join(failures) + "\n")
        console.print(f"[yellow]{len(failures)} task(s) failed at the provider[/yellow] (listed in {failures_file}); first: {failures[0]}")
    if not tasks:
        typer.echo(f"error: no task could be synthesized with provider {provider!r}; see {failures_file}", err=True)
        raise typer.Exit(1)
    save_jsonl(tasks, out)
    from factory.tasks.diversity import diversity_report, report_tables

    diversity = diversity_report(tasks, config.near_duplicate_threshold, dropped=len(dropped))
    out.with_suffix(".diversity.json").write_text(diversity.model_dump_json(indent=1))
    for table in report_tables(diversity):
        console.print(table)
    cross = sum(t.meta.cross_app for t in tasks)
    console.print(f"{len(tasks)} tasks, {cross} cross-app ({100 * cross / max(1, len(tasks)):.0f}%), written to {out}")


def _check_provider(name: str) -> None:
    """A provider users may choose ('template' included), checked before anything starts."""
    if name != "template":
        from factory.providers import check_provider

        check_provider(name)


def _author(provider: str):
    from factory.tasks.synthesize import Author

    if provider == "template":
        return Author()
    from factory.tasks.llm_author import LLMAuthor
    from factory.providers import get_provider

    return LLMAuthor(get_provider(provider))


@tasks_app.command("validate")
def tasks_validate(
    path: Path = typer.Argument(help="Tasks: a .jsonl file, a .json task, or a folder of them."),
    concurrency: int = typer.Option(4, help="Validation sessions at once."),
    runs: int = typer.Option(2, help="Full runs per task; verdicts must repeat."),
    out: Path = typer.Option(None, help="Write accepted tasks here (JSONL) and results next to it."),
) -> None:
    """Validate tasks by execution on the real apps; print accepted/rejected with the reason."""
    from contracts.taskfiles import TaskFileError, load_tasks
    from factory.verifiers.validate import ValidationConfig, accepted_task, validate_task
    from runtime.manager import EnvironmentManager

    try:
        tasks = load_tasks(path)
    except TaskFileError as err:
        console.print(f"[red]{err}[/red]")
        raise typer.Exit(2) from None
    results = []
    from concurrent.futures import ThreadPoolExecutor

    with EnvironmentManager() as manager, _progress() as bar, ThreadPoolExecutor(max_workers=concurrency) as pool:
        job = bar.add_task("validating", total=len(tasks))
        config = ValidationConfig(runs=runs)

        def one(task):
            result = validate_task(task, manager, config)
            bar.advance(job)
            return result

        results = list(pool.map(one, tasks))
    _print_validation(tasks, results)
    if out:
        accepted = {r.task_id for r in results if r.accepted}
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w") as f:
            for t, r in zip(tasks, results):
                if r.accepted:  # with the footprint validation recorded: the guard of its scoring
                    f.write(accepted_task(t, r).model_dump_json() + "\n")
        out.with_suffix(".results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
        console.print(f"{len(accepted)} accepted tasks written to {out}")


def _print_validation(tasks, results) -> None:
    table = Table("task", "verdict", "reason", "detail", "s")
    for r in results:
        table.add_row(r.task_id, "[green]accepted[/green]" if r.accepted else "[red]rejected[/red]", r.reason or "", r.detail[:80], f"{r.seconds:.1f}")
    console.print(table)
    family = {t.id: t.meta.family for t in tasks}
    by = defaultdict(Counter)
    for r in results:
        by[family[r.task_id]]["accepted" if r.accepted else r.reason] += 1
    summary = Table("family", "accepted", "rejected (reason: count)")
    for name in sorted(by):
        c = by[name]
        summary.add_row(name, str(c["accepted"]), ", ".join(f"{k}: {v}" for k, v in c.items() if k != "accepted"))
    console.print(summary)
    ok = sum(r.accepted for r in results)
    console.print(f"{ok}/{len(results)} accepted")


def register(root: typer.Typer) -> None:
    root.add_typer(worlds_app, name="worlds")
    root.add_typer(tasks_app, name="tasks")
