"""Validation throughput: tasks validated per minute, with the adversarial probes on, at a given concurrency, over tasks synthesized from the shipped families (apps and browser warmed first, so start-up is not counted), plus the acceptance rate per family and the probe count. Target: at least 40 tasks/min at concurrency 4 on 2 cores."""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, validate_tasks

from .cputree import cpu_by_kind
from runtime.manager import EnvironmentManager

TARGET_PER_MIN = 40.0


def main(
    tasks: Annotated[int, typer.Option(help="Tasks to validate (synthesized from the shipped families, template author).")] = 48,
    seed: Annotated[int, typer.Option(help="Synthesis seed.")] = 7,
    concurrency: Annotated[int, typer.Option(help="Validation sessions at once.")] = 4,
    runs: Annotated[int, typer.Option(help="Full runs per task (the CLI's default is 2).")] = 2,
    probes: Annotated[bool, typer.Option(help="Adversarial probes on (the default, and what the target is about).")] = True,
    families: Annotated[list[str] | None, typer.Option("--family", help="Only these families (repeatable); default: every family.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
) -> None:
    todo = synthesize(SynthConfig(n=tasks, seed=seed, families=tuple(families) if families else None), Author())
    config = ValidationConfig(runs=runs, probes=probes)
    with EnvironmentManager() as manager:
        warm = list({t.apps: t for t in todo}.values())  # one task per app combination: servers, pools and pages up
        validate_tasks(warm, manager, config, concurrency=concurrency)
        began, load_before, cpu_before = time.perf_counter(), os.getloadavg()[0], cpu_by_kind()
        results = validate_tasks(todo, manager, config, concurrency=concurrency)
        wall = time.perf_counter() - began
        by_kind = cpu_by_kind() - cpu_before  # this process, the browser, its driver, app servers, sandboxes
    cpu = sum(by_kind.values())
    family = {t.id: t.meta.family for t in todo}
    by_family: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        by_family[family[r.task_id]]["accepted" if r.accepted else r.reason] += 1
    result = {
        "tasks": len(todo),
        "concurrency": concurrency,
        "runs": runs,
        "probes_on": probes,
        "cores": os.cpu_count(),
        "wall_s": round(wall, 2),
        "tasks_per_min": round(60 * len(todo) / wall, 1),
        "target_per_min": TARGET_PER_MIN,
        "accepted": sum(r.accepted for r in results),
        "probes_per_task": round(sum(r.probes for r in results) / max(1, len(results)), 1),
        "mean_task_s": round(sum(r.seconds for r in results) / max(1, len(results)), 2),
        "mean_probe_s": round(sum(r.probe_seconds for r in results) / max(1, len(results)), 3),
        "cpu_s_per_task": round(cpu / len(todo), 2),
        "cpu_s_per_task_by_kind": {k: round(v / len(todo), 3) for k, v in sorted(by_kind.items())},
        "cpu_bound_per_min": round(60 * (os.cpu_count() or 1) * len(todo) / cpu, 1) if cpu else None,
        "load_average_1m_before": round(load_before, 2),
        "load_average_1m_after": round(os.getloadavg()[0], 2),
        "by_family": {f: dict(c) for f, c in sorted(by_family.items())},
    }
    table = Table(title=f"bench validation: {len(todo)} tasks, concurrency {concurrency}, {runs} runs, probes {'on' if probes else 'off'} ({os.cpu_count()} cores)")
    table.add_column("family")
    table.add_column("accepted / rejected (reason: count)", justify="right")
    for name, c in sorted(by_family.items()):
        table.add_row(name, f"{c['accepted']}/{sum(c.values())}  " + ", ".join(f"{k}: {v}" for k, v in c.items() if k != "accepted"))
    console = Console()
    console.print(table)
    verdict = "meets" if result["tasks_per_min"] >= TARGET_PER_MIN else "misses"
    console.print(f"{result['tasks_per_min']} tasks/min ({verdict} the target of {TARGET_PER_MIN:g}); "
                  f"{result['accepted']}/{len(todo)} accepted; {result['probes_per_task']} probes per task, "
                  f"{result['mean_probe_s']} s of probes per task; {result['cpu_s_per_task']} CPU-s per task "
                  f"({', '.join(f'{k} {v}' for k, v in result['cpu_s_per_task_by_kind'].items())}) "
                  f"(at most {result['cpu_bound_per_min']} tasks/min on {os.cpu_count()} idle cores); "
                  f"load average {result['load_average_1m_before']} -> {result['load_average_1m_after']}")
    if out:
        out.write_text(json.dumps(result, indent=2))
