"""Validation throughput and its two error rates, per family, over tasks synthesized from the shipped families.

Tasks per minute with the adversarial probes on, at a given concurrency (apps and browser warmed first, so
start-up is not counted), measured three times in one run on the same tasks: the path before (every golden
run in the browser, a session per task: `ValidationConfig(replay=False, keep_sessions=False)`) and the default
path (later runs at state level, sessions kept across tasks), each with the recall checks
(`factory.verifiers.recall`: honest answer forms, view state, a note, the family's second solution), and the
default path without them; in the order before/default/without, then without/default/before, over two halves,
so that a drifting machine load weighs on each alike. The two paths are compared side by side: CPU seconds per
task (this process, the browser, app servers, sandboxes), tasks per CPU-hour, acceptance, recall and precision;
the design's target is twice the tasks per CPU-hour at the same precision and recall. The recall checks may
cost at most 15% of the throughput. Per family: acceptance, recall (honest variants paid /
tried) and precision (probes refused / tried; with `--plants N`, also the planted defects of
`factory.verifiers.plants` rejected / tried, on the first N accepted tasks, outside the timing). Target: at least
40 tasks/min at concurrency 4 on 2 cores.
"""

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

from contracts.task import Task
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.plants import plant_defects
from factory.verifiers.validate import ValidationConfig, ValidationResult, validate_tasks

from .cputree import cpu_by_kind
from .targets import VALIDATION_SPEEDUP
from runtime.manager import EnvironmentManager

TARGET_PER_MIN = 40.0
MAX_RECALL_COST = 0.15
"""The most throughput the recall checks may cost (a share of tasks per minute without them)."""


def main(
    tasks: Annotated[int, typer.Option(help="Tasks to validate (synthesized from the shipped families, template author).")] = 48,
    seed: Annotated[int, typer.Option(help="Synthesis seed.")] = 7,
    concurrency: Annotated[int, typer.Option(help="Validation sessions at once.")] = 4,
    runs: Annotated[int, typer.Option(help="Full runs per task (the CLI's default is 2).")] = 2,
    probes: Annotated[bool, typer.Option(help="Adversarial probes on (the default, and what the target is about).")] = True,
    families: Annotated[list[str] | None, typer.Option("--family", help="Only these families (repeatable); default: every family.")] = None,
    plants: Annotated[int, typer.Option(help="Plant every known defect into this many accepted tasks (one per family first) "
                                        "and count the rejected, per family; not timed.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
) -> None:
    todo = synthesize(SynthConfig(n=tasks, seed=seed, families=tuple(families) if families else None), Author())
    full = ValidationConfig(runs=runs, probes=probes, recall=True)
    configs = {"with": full, "without": full.model_copy(update={"recall": False}),
               "before": full.model_copy(update={"replay": False, "keep_sessions": False})}
    half = len(todo) // 2
    with EnvironmentManager() as manager:
        warm = list({t.apps: t for t in todo}.values())  # one task per app combination: servers, pools and pages up
        validate_tasks(warm, manager, full, concurrency=concurrency)
        load_before = os.getloadavg()[0]
        timed: dict[str, list] = {mode: [] for mode in configs}
        for part, order in ((todo[:half], ("before", "with", "without")), (todo[half:], ("without", "with", "before"))):
            for mode in order:
                if part:
                    timed[mode].append(_timed(part, manager, configs[mode], concurrency))
        load_after = os.getloadavg()[0]
        without, with_recall, before = (_merged(timed[mode]) for mode in ("without", "with", "before"))
        results, wall, by_kind = with_recall
        family = {t.id: t.meta.family for t in todo}
        planted = _plants(todo, results, family, plants, manager, full, concurrency) if plants else {}
        planted_before = _plants(todo, before[0], family, plants, manager, configs["before"], concurrency) if plants else {}
    paths = {"before": _path(before, planted_before, len(todo)), "default": _path(with_recall, planted, len(todo))}
    cpu = sum(by_kind.values())
    cost = 1 - without[1] / wall if wall else 0.0  # throughput lost: 1 - (tasks/min with) / (tasks/min without)
    result = {
        "tasks": len(todo),
        "concurrency": concurrency,
        "runs": runs,
        "probes_on": probes,
        "recall_on": True,
        "cores": os.cpu_count(),
        "wall_s": round(wall, 2),
        "tasks_per_min": round(60 * len(todo) / wall, 1),
        "tasks_per_min_without_recall": round(60 * len(todo) / without[1], 1),
        "recall_cost": round(cost, 3),
        "max_recall_cost": MAX_RECALL_COST,
        "target_per_min": TARGET_PER_MIN,
        "accepted": sum(r.accepted for r in results),
        "accepted_without_recall": sum(r.accepted for r in without[0]),
        "probes_per_task": round(sum(r.probes for r in results) / max(1, len(results)), 1),
        "recall_variants_per_task": round(sum(r.recall_tried for r in results) / max(1, len(results)), 1),
        "mean_task_s": round(sum(r.seconds for r in results) / max(1, len(results)), 2),
        "mean_probe_s": round(sum(r.probe_seconds for r in results) / max(1, len(results)), 3),
        "mean_recall_s": round(sum(r.recall_seconds for r in results) / max(1, len(results)), 3),
        "cpu_s_per_task": round(cpu / len(todo), 2),
        "cpu_s_per_task_by_kind": {k: round(v / len(todo), 3) for k, v in sorted(by_kind.items())},
        "cpu_bound_per_min": round(60 * (os.cpu_count() or 1) * len(todo) / cpu, 1) if cpu else None,
        "load_average_1m_before": round(load_before, 2),
        "load_average_1m_after": round(load_after, 2),
        "paths": paths,
        "speedup_per_cpu_hour": round(paths["default"]["tasks_per_cpu_hour"] / paths["before"]["tasks_per_cpu_hour"], 2),
        "target_speedup": VALIDATION_SPEEDUP.value,
        "same_verdicts": sum((a.accepted, a.reason) == (b.accepted, b.reason) for a, b in zip(before[0], results)),
        "by_family": _by_family(results, family, planted),
    }
    _print(result, concurrency, runs, probes)
    if out:
        out.write_text(json.dumps(result, indent=2))


def _timed(todo: list[Task], manager: EnvironmentManager, config: ValidationConfig, concurrency: int) -> tuple[list[ValidationResult], float, Counter]:
    began, cpu_before = time.perf_counter(), cpu_by_kind()
    results = validate_tasks(todo, manager, config, concurrency=concurrency)
    return results, time.perf_counter() - began, cpu_by_kind() - cpu_before  # this process, the browser, app servers, sandboxes


def _path(timed: tuple[list[ValidationResult], float, Counter], planted: dict[str, list[int]], n: int) -> dict:
    """One path's numbers: CPU per task (by kind), tasks per CPU-hour, acceptance, recall, precision, plants rejected."""
    results, wall, by_kind = timed
    cpu = sum(by_kind.values())
    tried, paid = sum(r.recall_tried for r in results), sum(r.recall_paid for r in results)
    probes = sum(r.probes for r in results)
    through = sum(bool(r.reason and r.reason.startswith("probe_")) for r in results)
    plants = [sum(v[0] for v in planted.values()), sum(v[1] for v in planted.values())]
    return {"cpu_s_per_task": round(cpu / n, 3), "cpu_s_per_task_by_kind": {k: round(v / n, 3) for k, v in sorted(by_kind.items())},
            "tasks_per_cpu_hour": round(3600 * n / cpu) if cpu else None, "tasks_per_min": round(60 * n / wall, 1) if wall else None,
            "accepted": sum(r.accepted for r in results), "recall": _rate(paid, tried), "variants": tried,
            "precision": _rate(probes - through, probes), "probes": probes,
            "plants_rejected": _rate(*plants), "plants": plants[1],
            "replayed_runs": sum(r.replayed_runs for r in results), "replay_misses": [m for r in results for m in r.replay_misses][:5],
            "rejected": [f"{r.task_id}: {r.reason}: {r.detail[:300]}" for r in results if not r.accepted][:10]}


def _merged(parts: list[tuple[list[ValidationResult], float, Counter]]) -> tuple[list[ValidationResult], float, Counter]:
    return [r for p in parts for r in p[0]], sum(p[1] for p in parts), sum((p[2] for p in parts), Counter())


def _plants(todo: list[Task], results: list[ValidationResult], family: dict[str, str], n: int, manager: EnvironmentManager,
            config: ValidationConfig, concurrency: int) -> dict[str, list[int]]:
    """Family -> [plants rejected, plants tried], over the first `n` accepted tasks, one per family before a second."""
    accepted = [t for t, r in zip(todo, results) if r.accepted]
    firsts: dict[str, Task] = {}
    for t in accepted:
        firsts.setdefault(family[t.id], t)
    chosen = (list(firsts.values()) + [t for t in accepted if t not in firsts.values()])[:n]
    bad = [(family[t.id], p.task) for t in chosen for p in plant_defects(t)]
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (name, _), r in zip(bad, validate_tasks([t for _, t in bad], manager, config, concurrency=concurrency)):
        counts[name][0] += not r.accepted
        counts[name][1] += 1
    return counts


def _by_family(results: list[ValidationResult], family: dict[str, str], planted: dict[str, list[int]]) -> dict[str, dict]:
    """Per family: outcomes, recall (honest variants paid / tried), precision (probes refused / tried; plants rejected / tried).

    A task a probe got through counts that one probe as not refused (the batch stops at the first).
    """
    rows: dict[str, dict] = defaultdict(lambda: {"outcomes": Counter(), "recall": [0, 0], "precision": [0, 0], "refused_honest": []})
    for r in results:
        row = rows[family[r.task_id]]
        row["outcomes"]["accepted" if r.accepted else r.reason] += 1
        row["recall"][0] += r.recall_paid
        row["recall"][1] += r.recall_tried
        row["refused_honest"] += list(r.recall_refused[:3])
        got_through = int(bool(r.reason and r.reason.startswith("probe_")))
        row["precision"][0] += r.probes - got_through
        row["precision"][1] += r.probes
    return {f: {"outcomes": dict(row["outcomes"]), "recall": _rate(*row["recall"]), "variants": row["recall"][1],
                "precision": _rate(*row["precision"]), "probes": row["precision"][1], "refused_honest": row["refused_honest"][:5],
                "plants_rejected": _rate(*planted[f]) if f in planted else None, "plants": planted[f][1] if f in planted else 0}
            for f, row in sorted(rows.items())}


def _rate(hits: int, tried: int) -> float | None:
    return round(hits / tried, 3) if tried else None


def _print(result: dict, concurrency: int, runs: int, probes: bool) -> None:
    table = Table(title=f"bench validation: {result['tasks']} tasks, concurrency {concurrency}, {runs} runs, probes {'on' if probes else 'off'}, "
                        f"recall on ({result['cores']} cores)")
    table.add_column("family")
    table.add_column("accepted / rejected (reason: count)", justify="right")
    table.add_column("recall (paid/tried)", justify="right")
    table.add_column("precision (probes refused/tried)", justify="right")
    table.add_column("plants rejected/tried", justify="right")
    for name, row in result["by_family"].items():
        c = row["outcomes"]
        table.add_row(name, f"{c.get('accepted', 0)}/{sum(c.values())}  " + ", ".join(f"{k}: {v}" for k, v in c.items() if k != "accepted"),
                      f"{row['recall']} of {row['variants']}", f"{row['precision']} of {row['probes']}",
                      f"{row['plants_rejected']} of {row['plants']}" if row["plants"] else "-")
    console = Console()
    console.print(table)
    side = Table(title="the path before (every golden run in the browser, a session per task) and the default path, side by side")
    side.add_column("path")
    for column in ("CPU-s / task", "tasks / CPU-hour", "accepted", "recall", "precision (probes)", "plants rejected", "runs replayed"):
        side.add_column(column, justify="right")
    for name, p in result["paths"].items():
        side.add_row(name, f"{p['cpu_s_per_task']}", f"{p['tasks_per_cpu_hour']}", f"{p['accepted']}/{result['tasks']}",
                     f"{p['recall']} of {p['variants']}", f"{p['precision']} of {p['probes']}",
                     f"{p['plants_rejected']} of {p['plants']}" if p["plants"] else "-", f"{p['replayed_runs']}")
    console.print(side)
    console.print(f"default path: {result['speedup_per_cpu_hour']}x the tasks per CPU-hour of the path before, target "
                  f"{VALIDATION_SPEEDUP.marked(result['speedup_per_cpu_hour'])}; same verdict on {result['same_verdicts']}/{result['tasks']} tasks")
    verdict = "meets" if result["tasks_per_min"] >= TARGET_PER_MIN else "misses"
    within = "within" if result["recall_cost"] <= MAX_RECALL_COST else "over"
    console.print(f"{result['tasks_per_min']} tasks/min with recall, {result['tasks_per_min_without_recall']} without: recall costs "
                  f"{100 * result['recall_cost']:.1f}% ({within} the {100 * MAX_RECALL_COST:g}% allowed); {verdict} the target of "
                  f"{TARGET_PER_MIN:g}; {result['accepted']}/{result['tasks']} accepted ({result['accepted_without_recall']} without recall); "
                  f"{result['probes_per_task']} probes and {result['recall_variants_per_task']} honest variants per task, "
                  f"{result['mean_probe_s']} s of probes and {result['mean_recall_s']} s of recall per task; {result['cpu_s_per_task']} CPU-s "
                  f"per task ({', '.join(f'{k} {v}' for k, v in result['cpu_s_per_task_by_kind'].items())}) (at most "
                  f"{result['cpu_bound_per_min']} tasks/min on {result['cores']} idle cores); load average "
                  f"{result['load_average_1m_before']} -> {result['load_average_1m_after']}")
