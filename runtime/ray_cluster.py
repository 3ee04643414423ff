"""A Ray cluster on this machine's loopback: a head and worker nodes, each a `ray start --block` process.

    with LocalRayCluster(workers=1) as cluster:      # head on 127.0.0.2, worker nodes on 127.0.0.3, ...
        pool = RayPool(RayPoolConfig(address=cluster.address))
        cluster.kill_worker(0)                       # a node dies: its raylet, workers, apps and browser

The bench and the tests use it to run the Ray runner for real without a second machine. Each node gets
its own loopback address (Ray turns 127.0.0.1 into the machine's outward address, so 127.0.0.2 and up
are used: every byte stays on loopback) and its own temp dir; `stop()` ends exactly the processes it
started (never `ray stop`, which ends every Ray process on the machine, other users' included).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["LocalRayCluster", "RayClusterError"]

_RAY = str(Path(sys.executable).with_name("ray"))
_STARTED = "Ray runtime started"


class RayClusterError(RuntimeError):
    """A node of the local Ray cluster did not start; the message carries its last output."""


def _free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class _Node:
    """One `ray start --block` process: its whole process group dies with it (Ray's fate sharing)."""

    def __init__(self, name: str, ip: str, args: list[str], env: dict[str, str]):
        self.name, self.ip = name, ip
        self.temp = tempfile.mkdtemp(prefix=f"gr{name[0]}", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
        self.log = Path(self.temp) / "start.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen([_RAY, "start", "--block", "--node-ip-address", ip, "--temp-dir", self.temp,
                                          "--disable-usage-stats", *args], stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=env, start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.is_file() else ""

    def wait_started(self, deadline: float) -> None:
        while _STARTED not in self.output():
            if self.proc.poll() is not None:
                raise RayClusterError(f"ray node {self.name} exited with {self.proc.returncode}:\n{self.output()}")
            if time.monotonic() > deadline:
                raise RayClusterError(f"ray node {self.name} did not start in time:\n{self.output()}")
            time.sleep(0.2)

    def kill(self, sig: int = signal.SIGKILL, grace_s: float = 5.0) -> None:
        """End the node's process group (ray start, raylet, ...; its workers die with the raylet).

        SIGTERM lets Ray drain for up to `grace_s` (it would wait 30 s), then SIGKILL ends what is left.
        """
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # what outlived `ray start` in its group (a raylet, a monitor)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def remove(self) -> None:
        shutil.rmtree(self.temp, ignore_errors=True)


class LocalRayCluster:
    """A head node (no CPUs: it hosts no environment worker, as on KubeRay) and `workers` worker nodes."""

    def __init__(self, workers: int = 1, cpus_per_worker: int = 1, head_cpus: int = 0, timeout_s: float = 180.0):
        self.workers_wanted, self.cpus, self.head_cpus, self.timeout_s = workers, cpus_per_worker, head_cpus, timeout_s
        self.head: _Node | None = None
        self.workers: list[_Node] = []
        self.address = ""

    def start(self) -> "LocalRayCluster":
        env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
        deadline = time.monotonic() + self.timeout_s
        try:
            ip = "127.0.0.2"
            port = _free_port(ip)
            self.head = _Node("head", ip, ["--head", "--port", str(port), "--num-cpus", str(self.head_cpus),
                                          "--include-dashboard=false", "--dashboard-agent-listen-port", str(_free_port(ip))], env)
            self.head.wait_started(deadline)
            self.address = f"{ip}:{port}"
            for i in range(self.workers_wanted):
                self.add_worker(deadline)
        except BaseException:
            self.stop()
            raise
        return self

    def add_worker(self, deadline: float | None = None) -> str:
        """One more worker node on the next loopback address; returns its address."""
        ip = f"127.0.0.{3 + len(self.workers)}"
        node = _Node(f"worker{len(self.workers)}", ip, ["--address", self.address, "--num-cpus", str(self.cpus),
                                                          "--dashboard-agent-listen-port", str(_free_port(ip))],
                     {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
        self.workers.append(node)
        node.wait_started(deadline or time.monotonic() + self.timeout_s)
        return ip

    def kill_worker(self, index: int) -> None:
        """Kill worker node `index` at once (SIGKILL to its process group), as a machine that dies."""
        self.workers[index].kill(signal.SIGKILL)

    def stop(self) -> None:
        """End every node this cluster started (workers first), and remove their temp dirs."""
        for node in [*self.workers, *([self.head] if self.head else [])]:
            node.kill(signal.SIGTERM)
            node.remove()
        self.workers, self.head = [], None

    def __enter__(self) -> "LocalRayCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
