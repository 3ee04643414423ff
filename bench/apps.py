"""App kit speed: reset p50/p99 and dump p50 of an instance with ~ROWS rows, and the wall time to create INSTANCES fresh instances (sequential and 8 clients), all over loopback HTTP. Targets: bench/targets.py (1,000 instances: the design's)."""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bench.targets import INSTANCES_PER_1000, KIT_RESET_P50
from mocked_apps.kit import AdminClient, AppServer, load_package
from mocked_apps.registry import resolve

NOTES_FIXTURE = str(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "apps" / "notes")
CLIENTS = 8


def grow_seed(seed: dict[str, list[dict]], rows: int) -> dict[str, list[dict]]:
    """The seed with its largest integer-keyed table cloned (new ids) until the seed has about `rows` rows."""
    total = sum(len(r) for r in seed.values())
    tables = [t for t, r in seed.items() if r and all(isinstance(row.get("id"), int) for row in r)]
    if total >= rows or not tables:
        return seed
    table = max(tables, key=lambda t: len(seed[t]))
    originals = seed[table]
    next_id = max(row["id"] for row in originals) + 1
    clones = [{**originals[k % len(originals)], "id": next_id + k} for k in range(rows - total)]
    return {**seed, table: originals + clones}


def _ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_s(pid: int | None) -> float | None:
    """CPU seconds (user + system) a process has used, from /proc; None where /proc is missing."""
    stat = Path(f"/proc/{pid}/stat")
    if pid is None or not stat.exists():
        return None
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_ms_per(pid: int | None, fn, n: int) -> tuple[list[float], float | None]:
    """Wall samples of `n` calls, and the server's plus this client's CPU ms per call (load-independent)."""
    server0, client0 = _cpu_s(pid), time.process_time()
    samples = _timed(fn, n)
    server1, client1 = _cpu_s(pid), time.process_time()
    if server0 is None or server1 is None:
        return samples, None
    return samples, 1000 * ((server1 - server0) + (client1 - client0)) / n


def _timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        began = time.perf_counter()
        fn()
        out.append(time.perf_counter() - began)
    return out


def _create_many(server: AppServer, seed: dict, clock: str, count: int, clients: int) -> tuple[float, list[str]]:
    """Wall seconds to create `count` instances with `clients` concurrent admin clients."""
    admins = [AdminClient(server.url, server.token) for _ in range(clients)]
    try:
        began = time.perf_counter()
        if clients == 1:
            ids = [admins[0].create(seed, clock)["instance_id"] for _ in range(count)]
        else:
            with ThreadPoolExecutor(clients) as pool:
                ids = list(pool.map(lambda i: admins[i % clients].create(seed, clock)["instance_id"], range(count)))
        return time.perf_counter() - began, ids
    finally:
        for admin in admins:
            admin.close()


def _delete_all(server: AppServer, ids: list[str]) -> None:
    for instance_id in ids:
        server.admin.delete(instance_id)


def _print_lines(app: str, at: str | None, out: Path | None) -> None:
    from bench.lines import app_lines

    counted = app_lines(app, at)
    table = Table("file", "lines")
    for name, n in sorted(counted.files.items()):
        table.add_row(name, str(n))
    Console().print(table)
    files, total = counted.authored
    extra = "".join(f"; generated, not counted: {name} ({n} lines)" for name, n in counted.generated.items())
    typer.echo(f"{app} ({counted.at}): {files} files, {total} lines written{extra}")
    if out:
        out.write_text(counted.model_dump_json(indent=2))


def main(
    rows: Annotated[int, typer.Option(help="Rows in the instance's seed (the largest table is cloned to reach it).")] = 1000,
    instances: Annotated[int, typer.Option(help="Fresh instances to create, sequentially and with 8 clients.")] = 1000,
    app: Annotated[str, typer.Option(help="App name or package folder; default: the notes fixture app.")] = NOTES_FIXTURE,
    resets: Annotated[int, typer.Option(help="Resets to time.")] = 200,
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
    compiled: Annotated[int, typer.Option(help="Instead: bench N catalogue apps compiled from specs (checker time, memory of serving them at once).")] = 0,
    checks: Annotated[int, typer.Option(help="With --compiled: how many of them to run the checker on.")] = 3,
    lines: Annotated[str, typer.Option(help="Instead: the files and lines an author wrote for this app (mocked_apps/APP/, generated seed apart).")] = "",
    at: Annotated[str, typer.Option(help="With --lines: count the folder at this commit (e.g. the #13 baseline 8b43953).")] = "",
) -> None:
    if lines:
        _print_lines(lines, at or None, out)
        return
    if compiled:
        from bench.compiled import bench_compiled

        result = bench_compiled(compiled, checks)
        if out:
            out.write_text(json.dumps(result, indent=2))
        return
    package = load_package(resolve(app))
    seed = grow_seed(package.default_seed, rows)
    clock = package.default_clock
    seed_rows = sum(len(r) for r in seed.values())
    with AppServer(resolve(app)) as server:
        began = time.perf_counter()
        instance_id = server.admin.create(seed, clock)["instance_id"]
        first_create = time.perf_counter() - began
        reset_s, reset_cpu = _cpu_ms_per(server.pid, lambda: server.admin.reset(instance_id), resets)
        dump_s, _ = _cpu_ms_per(server.pid, lambda: server.admin.state(instance_id), max(20, resets // 4))
        create_s, create_cpu = _cpu_ms_per(server.pid, lambda: server.admin.create(seed, clock), 50)
        sequential_s, ids = _create_many(server, seed, clock, instances, 1)
        _delete_all(server, ids)
        pooled_s, ids = _create_many(server, seed, clock, instances, CLIENTS)
        _delete_all(server, ids)
    result = {
        "app": package.name,
        "seed_rows": seed_rows,
        "first_create_ms": round(1000 * first_create, 2),
        "reset_p50_ms": round(_ms(reset_s, 0.5), 2),
        "reset_p99_ms": round(_ms(reset_s, 0.99), 2),
        "resets": resets,
        "reset_cpu_ms": None if reset_cpu is None else round(reset_cpu, 2),
        "dump_p50_ms": round(_ms(dump_s, 0.5), 2),
        "create_cpu_ms": None if create_cpu is None else round(create_cpu, 2),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "instances": instances,
        "create_sequential_s": round(sequential_s, 2),
        "create_8_clients_s": round(pooled_s, 2),
        "create_mean_ms": round(1000 * sequential_s / max(instances, 1), 2),
    }
    table = Table(title=f"bench apps: {package.name}, {seed_rows} seed rows (load average {result['load_average_1m']} on {os.cpu_count()} cores)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target")
    table.add_row("first create (builds the seed template)", f"{result['first_create_ms']:.1f} ms", "")
    table.add_row(f"reset p50 ({resets} resets)", f"{result['reset_p50_ms']:.2f} ms", KIT_RESET_P50.marked(result["reset_p50_ms"]))
    table.add_row("reset p99", f"{result['reset_p99_ms']:.2f} ms", "")
    table.add_row("reset CPU (server + client) per call", _maybe_ms(reset_cpu), "load-independent")
    table.add_row("state dump p50", f"{result['dump_p50_ms']:.2f} ms", "")
    table.add_row("create CPU (server + client) per call", _maybe_ms(create_cpu), "load-independent")
    table.add_row(f"{instances} instances, sequential", f"{sequential_s:.2f} s", INSTANCES_PER_1000.marked(sequential_s * 1000 / max(instances, 1), suffix=" per 1,000"))
    table.add_row(f"{instances} instances, {CLIENTS} clients", f"{pooled_s:.2f} s", INSTANCES_PER_1000.marked(pooled_s * 1000 / max(instances, 1), suffix=" per 1,000"))
    Console().print(table)
    if out:
        out.write_text(json.dumps(result, indent=2))


def _maybe_ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f} ms"
