"""The one rollout path: an agent attempts tasks in sessions, every step written to the trajectory store as it happens.

Evaluation, data collection and RL all call `run_attempt` (one attempt) or `rollout` (many, in
threads). Infrastructure faults end an attempt as `env_error`; they are counted apart and are
never a failure of the agent.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Callable, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from factory.tasks.schema import Task
from runtime.agents import Agent, AgentError, AgentFailed, AgentOptions, make_agent
from runtime.harness import Harness, HarnessError, ImageSource, Turn
from runtime.observation import Observation
from runtime.manager import EnvError, EnvironmentManager, Lease, Outcome, Session, SessionSpec
from runtime.store import StepRecord, TrajectoryStore

Status = Literal["success", "failure", "env_error"]


class AttemptResult(BaseModel):
    """How one attempt ended."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    agent: str
    attempt_id: int = Field(description="Row id in the trajectory store.")
    status: Status
    reward: float = 0.0
    success: bool = False
    steps: int = Field(default=0, description="Agent replies taken (parse errors included).")
    error: str | None = None
    timings: dict[str, float] = Field(default_factory=dict, description="Seconds spent in reset, agent, env, evaluate, total.")


class TaskSummary(BaseModel):
    """Results of one task across its attempts; env_error attempts are counted apart and left out of the rates."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    attempts: int
    scored: int = Field(description="Attempts that were not env_error.")
    successes: int
    env_errors: int
    mean_reward: float = Field(description="Over scored attempts (0 when none).")

    @property
    def success_rate(self) -> float:
        return self.successes / self.scored if self.scored else 0.0


class RolloutReport(BaseModel):
    """Every attempt of a rollout, and the per-task and overall numbers."""

    model_config = ConfigDict(frozen=True)

    agent: str
    results: tuple[AttemptResult, ...]
    seconds: float

    def by_task(self) -> list[TaskSummary]:
        return [_summary(task_id, [r for r in self.results if r.task_id == task_id]) for task_id in dict.fromkeys(r.task_id for r in self.results)]

    def overall(self) -> TaskSummary:
        return _summary("all", list(self.results))


def _summary(task_id: str, results: list[AttemptResult]) -> TaskSummary:
    scored = [r for r in results if r.status != "env_error"]
    return TaskSummary(
        task_id=task_id,
        attempts=len(results),
        scored=len(scored),
        successes=sum(r.success for r in scored),
        env_errors=len(results) - len(scored),
        mean_reward=sum(r.reward for r in scored) / len(scored) if scored else 0.0,
    )


def run_attempt(
    session: Session,
    task: Task,
    agent: Agent,
    store: TrajectoryStore,
    max_steps: int = 30,
    *,
    images: ImageSource | None = None,
    info: dict | None = None,
) -> AttemptResult:
    """One attempt of `agent` at `task` in `session`, each step written to `store` as it happens.

    The agent is reset for the task; the caller closes it. Screenshots are read from `images`
    (default: the session's manager's object store) when the agent is a vision agent.
    """
    attempt_id = store.start_attempt(task.id, agent.name, agent.model, info=info)
    if images is None and agent.vision:
        images = session.manager.screenshots
    harness = Harness(task.instruction, task.form_factor, vision=agent.vision, images=images)
    timings = {"reset": 0.0, "agent": 0.0, "env": 0.0, "evaluate": 0.0}
    started = time.monotonic()
    agent_error: str | None = None
    steps = 0
    try:
        agent.reset(task)
        clock = time.monotonic()
        obs = session.reset(task)
        timings["reset"] = time.monotonic() - clock
        while steps < max_steps and not obs.done:
            prompt = harness.prompt(obs)
            clock = time.monotonic()
            try:
                output = agent.act(prompt, obs)
            except AgentFailed as err:
                agent_error = f"agent: {err}"
                break
            latency = time.monotonic() - clock
            timings["agent"] += latency
            if output is None:
                break
            turn = harness.record(obs, output)
            store.add_step(attempt_id, StepRecord(
                index=steps, url=obs.url, axtree=obs.axtree, screenshot=obs.screenshot, raw_output=output,
                action=turn.action, error=turn.error or obs.last_action_error, shell_output=obs.shell_output, latency_s=latency,
            ))
            steps += 1
            if turn.action is not None:
                clock = time.monotonic()
                obs = session.step(turn.action, action_id=f"{attempt_id}-{steps}")
                timings["env"] += time.monotonic() - clock
        clock = time.monotonic()
        outcome = session.evaluate()
        timings["evaluate"] = time.monotonic() - clock
    except EnvError as err:
        outcome = Outcome(status="env_error", error=f"environment: {err}")
    except AgentError as err:
        outcome = Outcome(status="env_error", error=f"agent infrastructure: {err}")
    except HarnessError as err:
        outcome = Outcome(status="env_error", error=f"harness: {err}")
    if agent_error and outcome.status != "env_error":
        outcome = outcome.model_copy(update={"error": agent_error})
    timings["total"] = time.monotonic() - started
    store.finish_attempt(attempt_id, outcome, timings)
    return AttemptResult(
        task_id=task.id, agent=agent.name, attempt_id=attempt_id, status=outcome.status, reward=outcome.reward,
        success=outcome.success, steps=steps, error=outcome.error, timings=timings,
    )


Progress = Callable[[AttemptResult, int, int], None]


def rollout(
    tasks: Iterable[Task],
    agent_name: str,
    attempts: int = 1,
    concurrency: int = 1,
    *,
    options: AgentOptions | None = None,
    max_steps: int = 30,
    manager: EnvironmentManager | None = None,
    store: TrajectoryStore | None = None,
    form_factor: Literal["desktop", "mobile"] | None = None,
    lease_s: float = 900.0,
    progress: Progress | None = None,
) -> RolloutReport:
    """`attempts` attempts of agent `agent_name` at each task, `concurrency` at a time (threads).

    Each attempt gets its own agent (the random agent's seed is offset by the attempt number) and
    its own session. `progress(result, done, total)` is called as each attempt finishes.
    """
    options = options or AgentOptions()
    make_agent(agent_name, options).close()  # fail fast on a bad name or missing model, before any env work
    tasks = [t.model_copy(update={"form_factor": form_factor}) if form_factor else t for t in tasks]
    jobs = [(task, k) for task in tasks for k in range(attempts)]
    own_manager, own_store = manager is None, store is None
    manager = manager or EnvironmentManager()
    store = store or TrajectoryStore()
    lock, done, results = threading.Lock(), 0, []
    started = time.monotonic()

    def attempt(task: Task, k: int) -> AttemptResult:
        agent = make_agent(agent_name, options.model_copy(update={"seed": options.seed + k}))
        try:
            session = manager.request(SessionSpec.for_task(task, screenshots=agent.vision), Lease(seconds=lease_s))
            try:
                return run_attempt(session, task, agent, store, max_steps, info={"attempt": k})
            finally:
                session.close()
        except EnvError as err:  # the session could not even be requested or closed
            attempt_id = store.start_attempt(task.id, agent.name, agent.model, info={"attempt": k})
            outcome = Outcome(status="env_error", error=f"environment: {err}")
            store.finish_attempt(attempt_id, outcome, {})
            return AttemptResult(task_id=task.id, agent=agent.name, attempt_id=attempt_id, status="env_error", error=outcome.error)
        finally:
            agent.close()

    try:
        with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="rollout") as pool:
            futures = [pool.submit(attempt, task, k) for task, k in jobs]
            for future in as_completed(futures):
                result = future.result()
                with lock:
                    results.append(result)
                    done += 1
                if progress is not None:
                    progress(result, done, len(jobs))
    finally:
        if own_manager:
            manager.close()
        if own_store:
            store.close()
    order = {t.id: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: (order.get(r.task_id, 0), r.attempt_id))
    return RolloutReport(agent=agent_name, results=tuple(results), seconds=time.monotonic() - started)


def recorded_turns(store: TrajectoryStore, attempt_id: int) -> list[Turn]:
    """An attempt's steps as harness turns, so `Harness.replay` rebuilds its prompts and window samples.

    The store keeps one error per step: a parse error when no action was parsed, else the error
    the agent saw from its previous action.
    """
    turns = []
    for record in store.steps(attempt_id):
        seen_error = record.error if record.action is not None else None
        obs = Observation(step=record.index, url=record.url, axtree=record.axtree, screenshot=record.screenshot,
                          last_action_error=seen_error, shell_output=record.shell_output)
        turns.append(Turn(observation=obs, output=record.raw_output or "", action=record.action,
                          error=record.error if record.action is None else None))
    return turns
