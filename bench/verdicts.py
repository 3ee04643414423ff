"""Same verdicts on Ray: the default run's task set validated by the local runner and by a two-node Ray cluster.

The tasks are the ones `gymfactory run` synthesizes with its defaults (or `--tasks N`, `--catalogue`);
the local side is the run's own validation (one environment manager, `--concurrency` sessions), the
Ray side the run's `--runner ray` path (`flows.runners.ValidateJob` on a `RayPool`): one environment
worker on each node of a loopback cluster (a head with one CPU that holds a worker too, and one
worker node), each with its own app servers and Chromium. Every task's whole result is compared
(accepted or not, reason, every phase's verdicts, footprint, golden actions, probes), timings aside.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from factory.tasks.synthesize import Author, synthesize
from factory.verifiers.validate import ValidationConfig, ValidationResult, validate_tasks
from flows.config import PipelineConfig
from flows.runners import ValidateJob
from runtime.manager import EnvironmentManager
from runtime.ray_cluster import LocalRayCluster
from runtime.ray_pool import RayPool, RayPoolConfig

TIMINGS = {"seconds", "probe_seconds"}


def _comparable(result: ValidationResult) -> dict:
    return result.model_dump(mode="json", exclude=TIMINGS)


def main(
    tasks: Annotated[int | None, typer.Option(help="Tasks to synthesize; default the default run's count.")] = None,
    catalogue: Annotated[bool, typer.Option(help="Also the compiled catalogue apps' families, as `run --catalogue`.")] = False,
    concurrency: Annotated[int, typer.Option(help="Sessions at once: locally, and on each Ray worker.")] = 2,
    runs: Annotated[int, typer.Option(help="Full validation runs per task (the run's default is 2).")] = 2,
    out: Annotated[Path | None, typer.Option(help="Write the numbers (and any task whose verdicts differ) as JSON here.")] = None,
) -> None:
    synth = PipelineConfig().synth.model_copy(update={k: v for k, v in (("n", tasks), ("catalogue", catalogue)) if v})
    todo = synthesize(synth, Author())
    config = ValidationConfig(runs=runs)
    console = Console()
    console.print(f"{len(todo)} tasks of the default run's set; validating locally, then on a two-node Ray cluster")
    began = time.perf_counter()
    with EnvironmentManager() as manager:
        local = validate_tasks(todo, manager, config, concurrency=concurrency)
    local_s = time.perf_counter() - began
    began = time.perf_counter()
    with LocalRayCluster(workers=1, head_cpus=1) as cluster, \
            RayPool(RayPoolConfig(address=cluster.address, sessions=concurrency)) as pool:
        on_ray = pool.map(ValidateJob(runs=runs), todo)
        stats = pool.stats
    ray_s = time.perf_counter() - began
    differ = [t.id for t, a, b in zip(todo, local, on_ray) if _comparable(a) != _comparable(b)]
    result = {
        "tasks": len(todo), "apps": len({a for t in todo for a in t.apps}), "families": len({t.meta.family for t in todo}),
        "same_verdicts": len(todo) - len(differ), "differ": differ,
        "accepted_local": sum(r.accepted for r in local), "accepted_ray": sum(r.accepted for r in on_ray),
        "rejected_by_reason": dict(Counter(r.reason for r in local if not r.accepted)),
        "ray_done_per_worker": dict(stats.done), "ray_lost": stats.lost,
        "local_s": round(local_s, 1), "ray_s": round(ray_s, 1),
    }
    console.print(f"same verdicts: {result['same_verdicts']}/{len(todo)}; accepted {result['accepted_local']} locally, "
                  f"{result['accepted_ray']} on Ray; per worker {result['ray_done_per_worker']}; "
                  f"local {result['local_s']} s, Ray {result['ray_s']} s (cluster start included)")
    for task_id in differ:
        a, b = (next(r for r in rs if r.task_id == task_id) for rs in (local, on_ray))
        console.print(f"  differs: {task_id}: local {a.reason or 'accepted'}, Ray {b.reason or 'accepted'}")
    if out:
        out.write_text(json.dumps(result, indent=2))
    if differ:
        raise typer.Exit(1)
