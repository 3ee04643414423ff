"""Flow: roll agents out on the reviewed tasks (evaluation and data collection), then the difficulty filter.

Golden attempts keep every screenshot; the other agents' attempts keep theirs for a sample drawn under the run's
bound on their size (`runtime.replay`: `--replay-sample`, `--replay-max-mb`), and the stage's summary says how
many did and why the others did not.
"""

from __future__ import annotations

import json
import math
import time

from prefect import flow, task
from prefect.cache_policies import NONE
from prefect.task_runners import ThreadPoolTaskRunner

from contracts.spread import round_robin
from contracts.taskfiles import load_tasks, save_tasks
from contracts.task import Task
from runtime.agents import AgentOptions, is_baseline
from runtime.replay import ReplayBudget
from runtime.rollout import AttemptResult, RolloutReport, rollout
from contracts.status import SCORED
from runtime.store import TrajectoryStore

from .environment import browser_slot, current
from .run_evidence import replay_counts
from .runners import RolloutJob, fanout, pool_summary, ray_pool, shared_url
from .artifacts import ProgressArtifact, table
from .config import PipelineConfig
from .difficulty import ORACLE, judge
from .workdir import Workdir


@task(name="rollout-batch", cache_policy=NONE)
def rollout_batch(tasks: list[Task], agent: str, attempts: int, max_steps: int, store_url: str, model: str | None,
                  run: str, screenshots: bool = True, replay: ReplayBudget | None = None) -> list[AttemptResult]:
    """Attempts of one agent at a batch of tasks, one browser slot at a time per attempt.

    Attempts are stored under `run`: a rerun keeps those already finished and redoes the ones an
    interruption cut off (closed as interrupted), so no attempt is done twice. With a `replay` budget
    (the run's, shared by its batches), only the attempts it draws keep their screenshots.
    """
    if (pool := ray_pool()) is not None:  # the Ray runner: the batch's tasks spread over its workers
        job = RolloutJob(agent, attempts, max_steps, shared_url(store_url), model, run, screenshots,
                         replay.sample if replay is not None else None)
        return [r for results in pool.map(job, tasks) for r in results]
    store = TrajectoryStore(store_url)
    try:
        out: list[AttemptResult] = []
        for t in tasks:
            with browser_slot():
                report = rollout([t], agent, attempts, 1, options=AgentOptions(model=model), max_steps=max_steps,
                                 manager=current(), store=store, run=run, screenshots=screenshots, replay=replay)
            out.extend(report.results)
        return out
    finally:
        store.close()


def _sample(tasks: list[Task], most: int | None) -> list[Task]:
    """`most` tasks taken round-robin over the families, each family's in task order (one of every family before a second
    of any), or all. The first `most` tasks would not do: synthesis visits world after world, and a world offers only some
    families, so the first 103 tasks of the default run covered 74 of its 103 families."""
    return round_robin(tasks, lambda t: t.meta.family)[:most] if most else tasks


def summarize(agent: str, results: list[AttemptResult]) -> dict:
    """Success over scored attempts; env errors counted apart (never failures)."""
    scored = [r for r in results if r.status in SCORED]
    return {"agent": agent, "attempts": len(results), "scored": len(scored), "successes": sum(r.success for r in scored),
            "success_rate": round(sum(r.success for r in scored) / len(scored), 3) if scored else 0.0,
            "mean_reward": round(sum(r.reward for r in scored) / len(scored), 3) if scored else 0.0,
            "env_errors": sum(r.status == "env_error" for r in results),
            "resumed": sum(r.resumed for r in results)}


@flow(name="rollouts", log_prints=True, task_runner=ThreadPoolTaskRunner(max_workers=16))
def rollouts_flow(config: PipelineConfig, tasks_file: str = "tasks/reviewed.jsonl", agents: tuple[str, ...] | None = None,
                  model: str | None = None, stage: str = "rollouts") -> dict:
    """Each agent attempts every task; results in rollouts/<agent>.jsonl, trajectories in rollouts/trajectories.db."""
    wd, started = Workdir(config.out), time.monotonic()
    source = wd.path(*tasks_file.split("/"))
    agents = agents or config.agents
    model = model or config.model
    inputs = [Workdir.fingerprint(source.read_text()), agents, config.attempts, config.max_steps, config.golden_sample, model]
    if config.baseline_sample is not None:  # a run without a baseline sample fingerprints as before, so it still resumes
        inputs.append(config.baseline_sample)
    if models(agents):  # likewise for a run without model agents
        inputs += [config.pass_k, config.model_sample, config.model_max_steps]
    if (done := wd.done(stage, inputs)) is not None:
        print(f"{stage}: already done, skipping")
        return done
    tasks = load_tasks(source) if source.stat().st_size else []
    wd.path("rollouts", "x")  # the folder of the agents' results, whichever store holds the trajectories
    store_url = config.trajectory_store()
    TrajectoryStore(store_url).close()  # create the tables once, before batches open it from several threads
    runs = {agent: _run_name(stage, agent, inputs[0], model, config) for agent in agents}
    replay = replay_budget(config, store_url, {r for a, r in runs.items() if a != ORACLE})
    by_agent: dict[str, list[AttemptResult]] = {}
    with fanout(config) as pool:
        submitted = []  # every agent's batches at once: the golden sample alone is too few batches to fill the slots
        for agent in agents:
            plan = _plan(agent, config)
            mine = _sample(tasks, plan["sample"])
            progress = ProgressArtifact(f"{stage}-{agent}-progress", len(mine), f"Tasks attempted by {agent}")
            size = max(1, min(config.batch, math.ceil(len(mine) / config.concurrency)))  # at least one batch per slot
            batches = [mine[i : i + size] for i in range(0, len(mine), size)]
            sampled = None if agent == ORACLE else replay  # golden runs are demonstrations: kept whole
            futures = [rollout_batch.submit(b, agent, plan["attempts"], plan["steps"], store_url, model, runs[agent],
                                            config.screenshots, sampled) for b in batches]
            submitted.append((agent, futures, batches, progress))
        for agent, futures, batches, progress in submitted:
            results: list[AttemptResult] = []
            for f, b in zip(futures, batches):
                results.extend(f.result())
                progress.advance(len(b))
            by_agent[agent] = results
            wd.path("rollouts", f"{agent}.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    rows = [summarize(a, r) for a, r in by_agent.items()]
    table(f"{stage}-by-agent", rows, "Rollout success by agent (env errors apart, never counted as failures)")
    summary = {"agents": rows, "replay": replay_summary(by_agent, config), **pool_summary(pool)}
    if stage == "rollouts" and ("random" in by_agent or models(by_agent)):
        summary["difficulty"] = _difficulty_filter(wd, tasks, by_agent, config)
        if summary["difficulty"]["families"]:
            table(f"{stage}-difficulty", summary["difficulty"]["families"], "Measured difficulty: pass@k per family of each model agent")
    return wd.finish(stage, inputs, summary, time.monotonic() - started)


def _run_name(stage: str, agent: str, source: str, model: str | None, config: PipelineConfig) -> str:
    """The name an agent's attempts are stored under: the same work gets the same name, so a rerun resumes it."""
    plan = _plan(agent, config)
    return f"{stage}-{agent}-{Workdir.fingerprint([source, plan['attempts'], plan['steps'], model])}"


def replay_budget(config: PipelineConfig, store_url: str, runs: set[str]) -> ReplayBudget:
    """The one budget of the non-golden attempts' screenshots of `runs` (`--replay-sample`, `--replay-max-mb`), counting
    what their finished attempts in the store kept already: the rollouts stage's, and the loop's over all its rounds."""
    return ReplayBudget(config.replay(), used=_kept_bytes(store_url, runs))


def _kept_bytes(store_url: str, runs: set[str]) -> int:
    """Bytes of the screenshots that finished attempts of `runs` kept already (a resumed stage starts its budget there)."""
    store = TrajectoryStore(store_url)
    try:
        return sum(int(a.info.get("screenshot_bytes") or 0) for a in store.attempts()
                   if a.info.get("run") in runs and a.info.get("screenshots") == "kept")
    finally:
        store.close()


def replay_summary(by_agent: dict[str, list[AttemptResult]], config: PipelineConfig) -> dict:
    """How many non-golden attempts kept their screenshots for replay, their size, and why the others did not."""
    return {**replay_counts(by_agent), "sample": config.replay_sample, "max_mb": config.replay_max_mb}


def models(agents) -> list[str]:
    """The agents whose pass rates measure difficulty: all but the golden oracle and baselines (random)."""
    return [a for a in agents if a != ORACLE and not is_baseline(a)]


def _plan(agent: str, config: PipelineConfig) -> dict:
    """Sample, attempts and step limit of one agent: the oracle runs to its end on a sample, models k times each."""
    if agent == ORACLE:
        return {"sample": config.golden_sample, "attempts": config.attempts, "steps": max(config.max_steps, 60)}
    if is_baseline(agent):
        return {"sample": config.baseline_sample, "attempts": config.attempts, "steps": config.max_steps}
    return {"sample": config.model_sample, "attempts": config.pass_k, "steps": config.model_max_steps}


def _difficulty_filter(wd: Workdir, tasks: list[Task], by_agent: dict[str, list[AttemptResult]], config: PipelineConfig) -> dict:
    """Measured difficulty, too-easy drops and unsolved flags (flows.difficulty): tasks/final.jsonl, too_easy.json, unsolved.json."""
    verdict = judge(tasks, by_agent, models(by_agent), config.easy_above)
    save_tasks(list(verdict.tasks), wd.path("tasks", "final.jsonl"))
    wd.path("tasks", "too_easy.json").write_text(json.dumps(list(verdict.too_easy)))
    wd.path("tasks", "unsolved.json").write_text(json.dumps(list(verdict.unsolved)))
    measured = sum(t.meta.difficulty_source == "measured" for t in verdict.tasks)
    return {"kept": len(verdict.tasks), "too_easy": len(verdict.too_easy), "unsolved": len(verdict.unsolved), "measured": measured,
            "families": list(verdict.families)}
