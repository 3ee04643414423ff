"""The Ray half of `gymfactory bench runtime --runner ray`: aggregate steps/s with 1 and 2 environment workers side by side.

Each Ray worker (one per node, its own app servers and Chromium) drives `sessions` concurrent sessions
through the same navigating steps as the local throughput run; the workers start together and the
rate is every step over the span from the first start to the last end. Without `--ray-address` the
bench starts its own cluster on loopback (`runtime.ray_cluster`: a head with no CPUs, as on KubeRay,
and one node per worker), and then also says where the CPU went while the most workers ran: Ray's
own processes, the environment workers (Python: sessions, actions, screenshots), the app servers
and Chromium, as a share of this machine's cores.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass

import psutil

from contracts.task import Task
from runtime.manager import EnvironmentManager
from runtime.ray_cluster import LocalRayCluster
from runtime.ray_pool import RayPool, RayPoolConfig, RayPoolError

__all__ = ["ThroughputJob", "ray_throughput"]


@dataclass(frozen=True)
class ThroughputJob:
    """On one worker: `sessions` concurrent sessions, `steps` steps each; returns (steps, first start, last end)."""

    task: Task
    sessions: int
    steps: int

    def run(self, manager: EnvironmentManager, item: int) -> tuple[int, float, float]:
        from bench.runtime import drive_sessions

        return drive_sessions(manager, self.task, self.sessions, self.steps, True)

    def lost(self, item: int, reason: str) -> None:
        pass

    def failed(self, item: int, reason: str) -> tuple[int, float, float]:
        raise RayPoolError(f"a bench worker died, so there is no number: {reason}")


def _kind(cmdline: str) -> str:
    if "chrom" in cmdline:
        return "chromium"
    if "playwright" in cmdline or "/node " in cmdline or cmdline.startswith("node "):
        return "playwright driver"
    if "mocked_apps" in cmdline:
        return "app servers"
    if cmdline.startswith("ray::_EnvWorker"):
        return "env workers (python)"
    if "bwrap" in cmdline or "python3 -I" in cmdline:
        return "sandboxes"
    return "ray system (gcs, raylets, agents)"


def _usage() -> tuple[Counter, Counter]:
    """(cumulative CPU seconds, resident MiB) by kind of this process and every live process under it (the cluster's nodes too)."""
    me = psutil.Process()
    cpu, rss = Counter(), Counter()
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
            kind = "bench driver" if p.pid == me.pid else _kind(" ".join(p.cmdline()))
            cpu[kind] += t.user + t.system + t.children_user + t.children_system
            rss[kind] += p.memory_info().rss / 2**20
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return cpu, rss


def _measure(pool: RayPool, task: Task, workers: int, sessions: int, steps: int) -> dict:
    runs = pool.map(ThroughputJob(task, sessions, steps), range(workers))  # one item per worker: the freest takes each
    total = sum(n for n, _, _ in runs)
    span = max(end for _, _, end in runs) - min(start for _, start, _ in runs)
    return {"steps_per_s": round(total / span, 1), "per_worker": [round(n / (end - start), 1) for n, start, end in runs]}


def ray_throughput(task: Task, address: str | None, workers: list[int], sessions: list[int], steps: int) -> dict:
    """Steps/s for each (workers, sessions per worker) on one pool; with a cluster of its own, the CPU split of the widest run."""
    cluster = None if address else LocalRayCluster(workers=max(workers)).start()
    out: dict = {"address": address or "local loopback cluster", "steps_per_s": {}, "per_worker": {}}
    try:
        with RayPool(RayPoolConfig(address=address or cluster.address, sessions=max(sessions), max_workers=max(workers))) as pool:
            if len(pool.workers) < max(workers):
                raise RayPoolError(f"the cluster has {len(pool.workers)} nodes with CPUs; {max(workers)} workers asked for")
            pool.map(ThroughputJob(task, max(sessions), 2), range(len(pool.workers)))  # warm: servers, pages, browsers up
            for n in workers:  # fewer workers than the pool has: the others stay idle
                for s in sessions:
                    (before, _), began, load, machine = _usage(), time.perf_counter(), os.getloadavg()[0], psutil.cpu_times()
                    m = _measure(pool, task, n, s, steps)
                    if cluster and n == max(workers) and s == max(sessions):
                        wall, cores = time.perf_counter() - began, os.cpu_count() or 1
                        after, rss = _usage()
                        used = after - before
                        idle = sum(getattr(psutil.cpu_times(), f) - getattr(machine, f) for f in ("idle", "iowait"))
                        out["cpu_share_widest"] = {k: round(v / (wall * cores), 3) for k, v in used.most_common()}
                        out["cpu_busy_widest"] = round(sum(used.values()) / (wall * cores), 3)
                        out["machine_busy_widest"] = round(1 - idle / (wall * cores), 3)  # every process, others' too
                        out["rss_mib_widest"] = {k: round(v) for k, v in rss.most_common()}
                        out["load_average_1m"] = [round(load, 2), round(os.getloadavg()[0], 2)]
                    out["steps_per_s"][f"{n}x{s}"] = m["steps_per_s"]
                    out["per_worker"][f"{n}x{s}"] = m["per_worker"]
    finally:
        if cluster:
            cluster.stop()
    return out
