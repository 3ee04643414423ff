"""Worlds at scale: N distinct generated worlds built and integrity-checked (target: 1,000 in under 60 s on 2 cores), then every app's projection of the first M of them loaded into real instances on the real app servers (target: no seed error)."""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bench.targets import WORLDS_1000
from factory.worlds.builder import generated_world
from factory.worlds.integrity import problems
from factory.worlds.seeds.load import load_on_apps
from factory.worlds.size import world_size



def main(
    worlds: Annotated[int, typer.Option(help="Generated worlds to build and check.")] = 1000,
    projections: Annotated[int, typer.Option(help="Of those, how many to load into every app (0: skip).")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the generated population.")] = 0,
    people: Annotated[int, typer.Option(help="Size knob: people per world besides the user.")] = 14,
    documents: Annotated[int, typer.Option(help="Size knob: routine documents per world.")] = 8,
    history_days: Annotated[int, typer.Option(help="Size knob: days of bank and mail history.")] = 60,
    distractor_rate: Annotated[float, typer.Option(help="Size knob: chance of each distractor.")] = 0.3,
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
) -> None:
    console = Console()
    size = world_size(people=people, documents=documents, history_days=history_days, distractor_rate=distractor_rate)
    started = time.monotonic()
    built, digests, scenarios, locales, records = [], set(), Counter(), Counter(), 0
    for i in range(worlds):
        w = generated_world(seed, i, size)  # integrity-checked as it is built
        digests.add(hashlib.sha256(w.model_dump_json().encode()).hexdigest())
        scenarios[w.scenario.id] += 1
        locales[w.persona.locale] += 1
        records += sum(len(x) for x in (w.people, w.invoices, w.meetings, w.documents, w.messages, w.transactions))
        if i < projections:
            built.append(w)
    build_s = time.monotonic() - started
    unsound = sum(bool(problems(w)) for w in built)  # re-checked on their own, as any world loaded from disk would be
    result: dict = {
        "worlds": worlds, "distinct": len(digests), "build_and_check_s": round(build_s, 2), "target_s": WORLDS_1000.value,
        "per_world_ms": round(1000 * build_s / max(1, worlds), 2), "records": records, "scenarios": len(scenarios),
        "locales": dict(sorted(locales.items())), "size": size.model_dump(), "unsound_on_recheck": unsound,
    }
    table = Table(title=f"gymfactory worlds: {worlds} generated worlds (seed {seed})")
    for col in ("measure", "value", "target"):
        table.add_column(col)
    table.add_row("distinct worlds", str(len(digests)), str(worlds))
    table.add_row("built + integrity-checked (s)", f"{build_s:.1f}", WORLDS_1000.marked(build_s * 1000 / max(1, worlds), suffix=" per 1,000"))
    table.add_row("per world (ms)", f"{result['per_world_ms']}", "")
    table.add_row("records (people, invoices, events, docs, mail, transactions)", str(records), "")
    table.add_row("scenarios / locales", f"{len(scenarios)} / {len(locales)}", ">= 24 / several")
    console.print(table)
    if projections:
        loads = load_on_apps(built[:projections])
        result["projections"] = {app: {"worlds": r.worlds, "created": r.created, "seed_errors": len(r.seed_errors),
                                       "row_mismatches": len(r.row_mismatches), "seconds": r.seconds,
                                       "first_errors": (r.seed_errors + r.row_mismatches)[:3]} for app, r in loads.items()}
        ptable = Table(title=f"every app's projection of {len(built[:projections])} generated worlds, loaded into real instances")
        for col in ("app", "instances created", "seed errors", "row mismatches", "s"):
            ptable.add_column(col)
        for app, r in loads.items():
            ptable.add_row(app, f"{r.created}/{r.worlds}", str(len(r.seed_errors)), str(len(r.row_mismatches)), f"{r.seconds:.1f}")
        console.print(ptable)
        for app, r in loads.items():
            for line in (r.seed_errors + r.row_mismatches)[:3]:
                console.print(f"[red]{app}[/red] {line}")
    if out:
        out.write_text(json.dumps(result, indent=2))
