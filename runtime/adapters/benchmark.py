"""A benchmark run: every (MiniWoB task, seed) attempted by one agent through `runtime.rollout.run_attempt`.

Results keep MiniWoB's own numbers (raw reward, time-scaled reward, reason) and the attempt status;
env errors are counted apart and never averaged into rewards.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contracts.errors import InputError
from runtime.agents import AgentOptions, make_agent
from runtime.agents.flawed import FlawedAgent
from runtime.agents.golden import GoldenAgent
from runtime.backends.base import EnvError
from runtime.backends.chromium import ChromiumHost
from runtime.objectstore import ObjectStore
from runtime.rollout import run_attempt
from contracts.status import SCORED
from runtime.store import TrajectoryStore

from .miniwob import MiniWoBSession, task_names


class EvalConfig(BaseModel):
    """`gymfactory eval miniwob`: which tasks, which agent, how many seeds."""

    model_config = ConfigDict(frozen=True)

    agent: str = Field(default="random", description="Agent name (random, an LLM endpoint, ...).")
    tasks: tuple[str, ...] = Field(default=(), description="MiniWoB task names; empty: every file:// task.")
    seeds: int = Field(default=1, ge=1, description="Episodes per task, seeds 0..n-1.")
    max_steps: int = Field(default=10, ge=1, description="Agent steps per episode (MiniWoB also ends it after 10 s, unless episode_timer is off).")
    episode_timer: bool = Field(default=True, description="MiniWoB's own 10-second episode timer, as it ships; off, only max_steps "
                                "ends an episode, as benchmark suites run slow agents (a CPU model thinks for seconds a step).")
    concurrency: int = Field(default=4, ge=1, le=16, description="Pages at once, in one Chromium.")
    store: Path | None = Field(default=None, description="Trajectory store (SQLite file); default: a fresh one under /tmp.")
    options: AgentOptions = Field(default_factory=AgentOptions, description="How to build the agent.")


class EpisodeResult(BaseModel):
    """One episode: the attempt's status and MiniWoB's own record of it."""

    model_config = ConfigDict(frozen=True)

    task: str
    seed: int
    agent: str
    status: str = Field(description="success / failure (scored) or env_error (infrastructure, never scored).")
    reward: float = Field(description="MiniWoB's raw reward (-1..1) when the episode ended; 0 when it did not.")
    env_reward: float | None = Field(default=None, description="MiniWoB's time-scaled reward.")
    done: bool = False
    reason: str | None = None
    steps: int = 0
    seconds: float = 0.0
    error: str | None = None


def check_agent_fits(config: EvalConfig) -> None:
    """A bad agent name, or one that replays golden code (MiniWoB++ tasks have none), fails before any page opens."""
    probe = make_agent(config.agent, config.options)
    probe.close()
    if isinstance(probe, (GoldenAgent, FlawedAgent)):
        raise InputError(f"eval miniwob: agent {config.agent!r} replays a task's golden code, and MiniWoB++ tasks have none "
                         "(MiniWoB scores its own episodes); use random or a model agent (openai, anthropic, policy)")


def run(config: EvalConfig, on_episode: Callable[[EpisodeResult], None] | None = None,
        done: Sequence[EpisodeResult] = ()) -> list[EpisodeResult]:
    """Every episode of the config, `concurrency` at a time; one Chromium for all; `on_episode` hears each as it ends.

    `done`: episodes an earlier, cut-short call finished (as `on_episode` heard them); they are kept, in the job order,
    and not run again. An env error is run again."""
    names = list(config.tasks) or task_names()
    check_agent_fits(config)
    path = config.store or Path(tempfile.mkdtemp(prefix="gym-miniwob-")) / "trajectories.db"
    store, shots = TrajectoryStore(str(path)), ObjectStore(path.with_suffix(".shots"))
    host = ChromiumHost()

    def episode(job: tuple[str, int]) -> EpisodeResult:
        name, seed = job
        started = time.monotonic()
        agent = make_agent(config.agent, config.options)
        session = None
        try:
            session = MiniWoBSession(host, name, screenshots=shots if agent.vision else None, timer=config.episode_timer)
            task = session.prepare(seed)
            result = run_attempt(session, task, agent, store, config.max_steps, images=shots, info={"benchmark": "miniwob"},
                                 view=config.options.view)
            meta = session.metadata
            return EpisodeResult(task=name, seed=seed, agent=config.agent, status=result.status, reward=result.reward,
                                 env_reward=meta.env_reward if meta else None, done=bool(meta and meta.done),
                                 reason=meta.reason if meta else None, steps=result.steps,
                                 seconds=round(time.monotonic() - started, 3), error=result.error)
        except (EnvError, ValidationError) as err:  # the page or the adapter failed: infrastructure, never a score
            return EpisodeResult(task=name, seed=seed, agent=config.agent, status="env_error", reward=0.0,
                                 seconds=round(time.monotonic() - started, 3), error=f"environment: {err}")
        finally:
            agent.close()
            if session is not None:
                session.close()

    def reported(job: tuple[str, int]) -> EpisodeResult:
        result = episode(job)
        if on_episode is not None:
            on_episode(result)
        return result

    jobs = [(n, s) for n in names for s in range(config.seeds)]
    kept = {(r.task, r.seed): r for r in done if r.status != "env_error" and r.agent == config.agent}
    try:
        todo = [j for j in jobs if j not in kept]
        pool = ThreadPoolExecutor(max_workers=config.concurrency)
        try:
            ran = dict(zip(todo, pool.map(reported, todo)))
        finally:  # cut short (Ctrl-C): the episodes under way finish and are heard; those not started never start
            pool.shutdown(wait=True, cancel_futures=True)
        return [kept.get(j) or ran[j] for j in jobs]
    finally:
        host.close()
        store.close()


def summary(results: list[EpisodeResult]) -> dict:
    """Counts and means over scored episodes; env errors apart."""
    scored = [r for r in results if r.status in SCORED]
    return {"episodes": len(results), "tasks": len({r.task for r in results}), "scored": len(scored),
            "env_errors": sum(r.status == "env_error" for r in results),
            "ended_by_miniwob": sum(r.done for r in scored),
            "success_rate": round(sum(r.status == "success" for r in scored) / len(scored), 3) if scored else 0.0,
            "mean_reward": round(sum(r.reward for r in scored) / len(scored), 3) if scored else 0.0}
