"""Environment workers on a Ray cluster: one Ray actor per node, each with its own environment manager.

    with RayPool(RayPoolConfig(address="10.0.0.5:6379", sessions=4)) as pool:
        results = pool.map(job, items)          # in the order of items, whichever node ran each

A worker holds an `EnvironmentManager` on its node (app servers and browser there, nothing shared
between nodes but the store its jobs write to) and runs up to `sessions` items at once. A `Job` says
what to do with one item (`run`, on the worker) and what a lost one means (`lost` and `failed`, on the
driver): a worker that dies, its process or its whole node, fails only the items it was running;
each is handed to `job.lost` (which closes what the dead worker left open as env_error) and then
retried on another live worker, at most `retries` times; with no worker left, `job.failed` gives its
result. An item's result comes back once, from the one worker that finished it.
"""

from __future__ import annotations

import ipaddress
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, Sequence, TypeVar

import ray
from pydantic import BaseModel, ConfigDict, Field
from ray.exceptions import ActorUnavailableError, GetTimeoutError, RayActorError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from runtime.confine import UNSAFE_ENV
from runtime.manager import EnvironmentManager

__all__ = ["Job", "PoolStats", "RayPool", "RayPoolConfig", "RayPoolError", "WorkerInfo"]

I = TypeVar("I")
R = TypeVar("R")
_LOST = (RayActorError, ActorUnavailableError)  # the worker died or cannot be reached: its items are lost
# what every worker must see as the driver does: the apps, and the S3-compatible object store's endpoint and keys
_PASSED_ENV = (UNSAFE_ENV, "GYMFACTORY_HOME", "GYMFACTORY_APP_PATH", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ACCESS_KEY_ID",
               "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_DEFAULT_REGION")


class RayPoolError(RuntimeError):
    """The Ray runner cannot work: no cluster at the address, no node to hold a worker, or every worker died."""


class RayPoolConfig(BaseModel):
    """Where the cluster is and how much each node's worker takes on."""

    model_config = ConfigDict(frozen=True)

    address: str = Field(description="The Ray cluster's address (`ray start --head` prints it), e.g. 10.0.0.5:6379.")
    sessions: int = Field(default=4, ge=1, description="Items (browser sessions) each worker runs at once.")
    max_workers: int | None = Field(default=None, ge=1, description="Use at most this many nodes (default: every node with CPUs).")
    retries: int = Field(default=2, ge=0, description="Times an item lost with a dead worker is retried on another.")
    start_timeout_s: float = Field(default=300.0, gt=0, description="Deadline for the workers to be ready (app code imported).")
    backend: str = Field(default="local", description="Where each worker runs its app servers: 'local' or 'docker'.")
    objects_url: str | None = Field(default=None, description="Object store every worker writes screenshots to (an s3:// URL "
                                    "when the nodes are separate machines); default each node's $GYMFACTORY_HOME/objects.")


class WorkerInfo(BaseModel):
    """Where a worker runs."""

    model_config = ConfigDict(frozen=True)

    name: str
    node_id: str
    node_ip: str
    pid: int


class PoolStats(BaseModel):
    """What the pool did: items finished per worker, items lost with dead workers and retried."""

    done: dict[str, int] = Field(default_factory=dict, description="Worker name -> items it finished.")
    lost: int = Field(default=0, description="Items whose worker died under them.")
    retried: int = Field(default=0, description="Lost items run again on another worker.")
    failed: int = Field(default=0, description="Lost items with no worker (or retry) left: job.failed gave their result.")
    dead: list[str] = Field(default_factory=list, description="Workers that died.")


class Job(Protocol[I, R]):
    """What a worker does with one item; pickled to the worker, so a module-level class."""

    def run(self, manager: EnvironmentManager, item: I) -> R:
        """Do the item with the worker's manager (on the worker's node)."""

    def lost(self, item: I, reason: str) -> None:
        """The worker running `item` died (on the driver): close what it left open as env_error, before the retry."""

    def failed(self, item: I, reason: str) -> R:
        """The result of a lost item that cannot be retried (env_error)."""


class _EnvWorker:
    """The Ray actor: an environment manager on its node, running jobs' items in threads."""

    def __init__(self, name: str, env: dict[str, str], backend: str = "local", objects_url: str | None = None):
        os.environ.update(env)
        self.name = name
        self.manager = EnvironmentManager(backend=backend, screenshots=objects_url)

    def info(self) -> WorkerInfo:
        ctx = ray.get_runtime_context()
        return WorkerInfo(name=self.name, node_id=ctx.get_node_id(), node_ip=ray.util.get_node_ip_address(), pid=os.getpid())

    def run(self, job: Job, item):
        return job.run(self.manager, item)

    def close(self) -> None:
        self.manager.close()


class _Worker:
    """The driver's handle on one actor: free slots, alive or not."""

    def __init__(self, actor, info: WorkerInfo, slots: int):
        self.actor, self.info, self.free, self.alive = actor, info, slots, True


class RayPool:
    """Environment workers on the nodes of a Ray cluster; `map` spreads a job's items over them."""

    def __init__(self, config: RayPoolConfig):
        self.config = config
        self.stats = PoolStats()
        self._cond = threading.Condition()
        self._own_ray = not ray.is_initialized()
        if self._own_ray:
            self._connect()
        try:
            self.workers = self._start_workers()
        except BaseException:
            self.close()
            raise

    # ---- public ----------------------------------------------------------------------------------
    @property
    def capacity(self) -> int:
        """Items that can run at once on the live workers."""
        return self.config.sessions * sum(w.alive for w in self.workers)

    def live(self) -> list[WorkerInfo]:
        return [w.info for w in self.workers if w.alive]

    def map(self, job: Job[I, R], items: Sequence[I]) -> list[R]:
        """Every item run once by some live worker (lost ones retried); results in the order of `items`."""
        if not items:
            return []
        with ThreadPoolExecutor(max_workers=max(1, min(len(items), self.capacity)), thread_name_prefix="ray-pool") as threads:
            return list(threads.map(lambda item: self._one(job, item), items))

    def close(self) -> None:
        """Close every live worker's manager (app servers, browser), end the actors, leave the cluster."""
        workers = getattr(self, "workers", [])
        closing = [w.actor.close.remote() for w in workers if w.alive]
        try:
            ray.get(closing, timeout=60)
        except (*_LOST, GetTimeoutError):
            pass  # a worker that died or hangs while closing: killing it below ends its processes' owner
        for w in workers:
            ray.kill(w.actor, no_restart=True)
        if self._own_ray and ray.is_initialized():
            ray.shutdown()

    def __enter__(self) -> "RayPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- the cluster -----------------------------------------------------------------------------
    def _connect(self) -> None:
        host = self.config.address.removeprefix("ray://").rsplit(":", 1)[0]
        kwargs = {}
        try:
            if ipaddress.ip_address(host).is_loopback:
                # a cluster on this machine's loopback: the driver joins the node at that address (Ray would
                # otherwise pick this machine's outward address and find no node there)
                kwargs["_node_ip_address"] = host
        except ValueError:
            pass  # a host name: Ray resolves it
        try:
            ray.init(address=self.config.address, namespace="gymfactory", logging_level="WARNING", log_to_driver=False, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise RayPoolError(f"cannot join the Ray cluster at {self.config.address}: {err}") from None

    def _start_workers(self) -> list[_Worker]:
        nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0]
        nodes.sort(key=lambda n: (n["NodeManagerAddress"], n["NodeID"]))
        if self.config.max_workers:
            nodes = nodes[: self.config.max_workers]
        if not nodes:
            raise RayPoolError(f"the Ray cluster at {self.config.address} has no live node with CPUs to hold a worker")
        env = {k: os.environ[k] for k in _PASSED_ENV if k in os.environ}
        cls = ray.remote(_EnvWorker)
        actors = []
        for i, node in enumerate(nodes):
            actors.append(cls.options(
                name=None, num_cpus=0, max_concurrency=self.config.sessions + 2, max_restarts=0, max_task_retries=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
            ).remote(f"worker{i}@{node['NodeManagerAddress']}", env, self.config.backend, self.config.objects_url))
        try:
            infos = ray.get([a.info.remote() for a in actors], timeout=self.config.start_timeout_s)
        except GetTimeoutError:
            raise RayPoolError(f"the Ray workers were not ready within {self.config.start_timeout_s:.0f} s") from None
        except RayActorError as err:
            raise RayPoolError(f"a Ray worker could not start its environment manager: {err}") from None
        return [_Worker(a, info, self.config.sessions) for a, info in zip(actors, infos)]

    # ---- one item --------------------------------------------------------------------------------
    def _one(self, job: Job[I, R], item: I) -> R:
        tries = 0
        while True:
            worker = self._acquire()
            if worker is None:
                reason = f"no live Ray worker left (dead: {', '.join(self.stats.dead)})"
                with self._cond:
                    self.stats.failed += 1
                return job.failed(item, reason)
            try:
                result = ray.get(worker.actor.run.remote(job, item))
            except _LOST as err:
                reason = f"Ray worker {worker.info.name} died under this item ({type(err).__name__})"
                self._bury(worker)
                job.lost(item, reason)
                tries += 1
                with self._cond:
                    self.stats.lost += 1
                    if tries > self.config.retries:
                        self.stats.failed += 1
                        return job.failed(item, reason)
                    self.stats.retried += 1
                continue
            finally:
                self._release(worker)
            with self._cond:
                self.stats.done[worker.info.name] = self.stats.done.get(worker.info.name, 0) + 1
            return result

    def _acquire(self) -> _Worker | None:
        """The live worker with the most free slots (waiting for one), or None when none is alive."""
        with self._cond:
            while True:
                alive = [w for w in self.workers if w.alive]
                if not alive:
                    return None
                best = max(alive, key=lambda w: w.free)
                if best.free > 0:
                    best.free -= 1
                    return best
                self._cond.wait(timeout=1.0)

    def _release(self, worker: _Worker) -> None:
        with self._cond:
            worker.free += 1
            self._cond.notify_all()

    def _bury(self, worker: _Worker) -> None:
        """Mark a worker dead (once) and make sure it is: an unreachable one might still be running."""
        with self._cond:
            if not worker.alive:
                return
            worker.alive = False
            self.stats.dead.append(worker.info.name)
            self._cond.notify_all()
        ray.kill(worker.actor, no_restart=True)

