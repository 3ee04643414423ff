"""Compiled apps: spec -> passing checker time per app (target: bench/targets.py), and the memory of serving N compiled apps at
once on the shared host, against one process per app (`gymfactory bench apps --compiled N`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.targets import COMPILED_CHECK
from mocked_apps.catalogue import compiled
from mocked_apps.checker import check_app
from mocked_apps.kit import AppServer



def _rss_mb(pid: int | None) -> float:
    """Resident memory of a process (MiB), from /proc."""
    status = Path(f"/proc/{pid}/status")
    if pid is None or not status.exists():
        return 0.0
    line = next(l for l in status.read_text().splitlines() if l.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def serve_many(names: list[str]) -> dict:
    """Start every app in `names` on the shared host, open an instance of each, and measure the host's memory."""
    began = time.perf_counter()
    servers = [AppServer(n).start() for n in names]
    try:
        for s in servers:
            s.admin.create()
        started = time.perf_counter() - began
        pids = {s.pid for s in servers}
        return {"apps": len(servers), "processes": len(pids), "start_s": round(started, 1),
                "rss_mb": round(sum(_rss_mb(p) for p in pids), 1)}
    finally:
        for s in servers:
            s.stop()


def one_process_each(names: list[str]) -> float:
    """Mean resident memory (MiB) of an app server with a process of its own (GYMFACTORY_SHARED_APPS=0)."""
    os.environ["GYMFACTORY_SHARED_APPS"] = "0"
    try:
        servers = [AppServer(n).start() for n in names]
        try:
            for s in servers:
                s.admin.create()
            return sum(_rss_mb(s.pid) for s in servers) / len(servers)
        finally:
            for s in servers:
                s.stop()
    finally:
        os.environ.pop("GYMFACTORY_SHARED_APPS", None)


def bench_compiled(count: int, checks: int) -> dict:
    names = sorted(compiled())[:count]
    timings = {}
    for name in names[:checks]:
        began = time.perf_counter()
        report = check_app(compiled()[name])
        timings[name] = (round(time.perf_counter() - began, 1), report.ok)
    shared = serve_many(names)
    alone = one_process_each(names[:2])
    result = {"checks": timings, "shared": shared, "one_process_rss_mb": round(alone, 1),
              "one_process_each_estimate_mb": round(alone * len(names), 1), "load_average_1m": round(os.getloadavg()[0], 2)}
    table = Table(title=f"bench apps --compiled {len(names)} (load average {result['load_average_1m']} on {os.cpu_count()} cores)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target")
    for name, (seconds, ok) in timings.items():
        table.add_row(f"{name}: spec -> checker verdict", f"{seconds:.1f} s ({'pass' if ok else 'FAIL'})",
                      COMPILED_CHECK.marked(seconds if ok else float("inf")))
    table.add_row(f"{shared['apps']} compiled apps served at once", f"{shared['processes']} process(es), {shared['rss_mb']:.0f} MiB", "")
    table.add_row("  started (and one instance each) in", f"{shared['start_s']:.1f} s", "")
    table.add_row("one process per app instead (measured on 2)", f"{alone:.0f} MiB each, ~{alone * len(names):.0f} MiB for {len(names)}", "")
    Console().print(table)
    return result


__all__ = ["bench_compiled", "one_process_each", "serve_many"]
