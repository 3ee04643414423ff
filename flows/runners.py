"""Where a stage's batches run: `local` (threads over this process's one environment manager) or `ray`.

With `runner="ray"` the validation and rollouts flows keep their Prefect tasks (coarse batches, seen in
the UI as before); each batch spreads its tasks over a `RayPool`: one environment worker per node of
the cluster at `ray_address`, each with its own app servers and browser, `concurrency` sessions each.
Rollout workers write attempts to the one trajectory store (its URL; PostgreSQL when the nodes are
separate machines). A worker that dies loses nothing: validation re-runs the lost task elsewhere; a
lost rollout attempt is set aside in the store as env_error (outside the run) and redone elsewhere
under the run, so each attempt is counted once.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from contracts.task import Task
from factory.verifiers.validate import ValidationConfig, ValidationResult, validate_task
from runtime.agents import AgentOptions
from runtime.replay import ReplaySample, budget_for
from runtime.rollout import AttemptResult, rollout
from runtime.session import Outcome
from runtime.store import TrajectoryStore

from .config import PipelineConfig
from .environment import environment

if TYPE_CHECKING:
    from runtime.manager import EnvironmentManager
    from runtime.ray_pool import RayPool

__all__ = ["RolloutJob", "ValidateJob", "fanout", "pool_summary", "ray_pool", "shared_url"]

_pool: "RayPool | None" = None


@contextmanager
def fanout(config: PipelineConfig) -> Iterator["RayPool | None"]:
    """The runner of a flow's batches for its duration: None for `local`, the Ray pool for `ray`."""
    global _pool
    if config.runner == "local":
        with environment(config.concurrency, config.backend, config.object_store()):
            yield None
        return
    from runtime.ray_pool import RayPool, RayPoolConfig  # Ray (seconds to import) only when asked for

    pool_config = RayPoolConfig(address=config.ray_address, sessions=config.concurrency, backend=config.backend,
                                objects_url=config.object_store())
    with RayPool(pool_config) as pool:
        _pool = pool
        try:
            yield pool
        finally:
            _pool = None


def ray_pool() -> "RayPool | None":
    """The Ray pool of the running flow, or None under the local runner."""
    return _pool


def pool_summary(pool: "RayPool | None") -> dict:
    """What a stage's summary says about the Ray workers (nothing under the local runner)."""
    if pool is None:
        return {}
    s = pool.stats
    return {"ray": {"workers": len(pool.workers), "done": dict(s.done), "lost": s.lost, "retried": s.retried,
                    "failed": s.failed, "dead": list(s.dead)}}


def shared_url(store_url: str) -> str:
    """The store's URL as every worker opens it (a relative SQLite path made absolute on the driver)."""
    store = TrajectoryStore(store_url)
    store.close()
    return store.url


@dataclass(frozen=True)
class ValidateJob:
    """Validate one task on a worker; a task lost with its worker is validated again from the start elsewhere."""

    runs: int
    screenshots: bool = False

    def run(self, manager: "EnvironmentManager", task: Task) -> ValidationResult:
        return validate_task(task, manager, ValidationConfig(runs=self.runs, screenshots=self.screenshots))

    def lost(self, task: Task, reason: str) -> None:
        pass  # validation leaves nothing behind: its verdict comes back only from the worker that finished it

    def failed(self, task: Task, reason: str) -> ValidationResult:
        return ValidationResult(task_id=task.id, accepted=False, reason="env_error", detail=f"environment: {reason}")


@dataclass(frozen=True)
class RolloutJob:
    """Every attempt of one agent at one task, on a worker, stored under `run` in the shared store; with `replay`, the
    attempts the sample draws keep their screenshots, each worker bounding what it keeps of the run by the same figure
    (so the run keeps at most workers x bound)."""

    agent: str
    attempts: int
    max_steps: int
    store_url: str
    model: str | None
    run_name: str
    screenshots: bool = True
    replay: ReplaySample | None = None

    def run(self, manager: "EnvironmentManager", task: Task) -> list[AttemptResult]:
        store = TrajectoryStore(self.store_url)
        budget = budget_for(self.run_name, self.replay) if self.replay is not None else None
        try:
            report = rollout([task], self.agent, self.attempts, 1, options=AgentOptions(model=self.model),
                             max_steps=self.max_steps, manager=manager, store=store, run=self.run_name,
                             screenshots=self.screenshots, replay=budget)
            return list(report.results)
        finally:
            store.close()

    def lost(self, task: Task, reason: str) -> None:
        store = TrajectoryStore(self.store_url)
        try:
            store.set_aside(self.run_name, self.agent, task.id, f"{reason}; redone on another worker")
        finally:
            store.close()

    def failed(self, task: Task, reason: str) -> list[AttemptResult]:
        """No worker left: the attempts not finished yet end as env_error, recorded under the run as any env error."""
        store = TrajectoryStore(self.store_url)
        try:
            finished = store.resume(self.run_name, self.agent, {task.id})
            out = []
            for k in range(self.attempts):
                if (task.id, k) in finished:
                    out.append(AttemptResult.from_record(finished[(task.id, k)], store.step_count(finished[(task.id, k)].id)))
                    continue
                attempt_id = store.start_attempt(task.id, self.agent, self.model, info={"attempt": k, "run": self.run_name})
                outcome = Outcome(status="env_error", error=f"environment: {reason}")
                store.finish_attempt(attempt_id, outcome, {})
                out.append(AttemptResult(task_id=task.id, agent=self.agent, attempt_id=attempt_id, status="env_error",
                                         error=outcome.error))
            return out
        finally:
            store.close()
