"""The one rollout path: an agent attempts tasks in sessions, every step written to the trajectory store as it happens.

Evaluation, data collection and RL all call `run_attempt` (one attempt) or `rollout` (many, in
threads). Infrastructure faults end an attempt as `env_error`; they are counted apart and are
never a failure of the agent. A task that cannot be set up fails only its own attempt. A named
`run` resumes per attempt: attempts it already finished are kept, not redone; attempts cut off
by an interruption are closed as `interrupted` and run again.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor, as_completed, wait
from typing import Callable, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Task
from runtime.agents import Agent, AgentError, AgentFailed, AgentOptions, make_agent
from runtime.harness import Harness, HarnessError, ImageSource, Turn, View
from runtime.objectstore import ObjectStore, ObjectStoreError
from runtime.observation import Observation
from runtime.manager import EnvError, EnvironmentManager, Lease, Outcome, Session, SessionSpec, TaskSetupError
from runtime.replay import Decision, ReplayBudget
from contracts.status import INTERRUPTED, SCORED, Status
from runtime.store import AttemptRecord, StepRecord, TrajectoryStore

_STOPPED = "interrupted: the run was stopped before this attempt finished"


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
    resumed: bool = Field(default=False, description="Finished by an earlier call of the same run and kept, not redone.")
    screenshots: Decision | None = Field(default=None, description="Whether its screenshots were kept for replay, or why not "
                                         "(runtime.replay); None where the rollout did not decide (a single attempt).")
    screenshot_bytes: int = Field(default=0, description="Bytes of the screenshots the attempt put in the object store.")

    @classmethod
    def from_record(cls, record: AttemptRecord, steps: int) -> "AttemptResult":
        """A finished attempt as read back from the store."""
        o = record.outcome
        return cls(task_id=record.task_id, agent=record.agent, attempt_id=record.id, status=o.status, reward=o.reward,
                   success=o.success, steps=steps, error=o.error, timings=record.timings, resumed=True,
                   screenshots=record.info.get("screenshots"), screenshot_bytes=record.info.get("screenshot_bytes", 0))


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


class RolloutInterrupted(KeyboardInterrupt):
    """Ctrl-C during `rollout`: running attempts were closed as interrupted; `report` has the finished ones."""

    def __init__(self, report: "RolloutReport"):
        super().__init__(f"rollout interrupted after {len(report.results)} finished attempts")
        self.report = report


class RolloutReport(BaseModel):
    """Every attempt of a rollout, and the per-task and overall numbers."""

    model_config = ConfigDict(frozen=True)

    agent: str
    results: tuple[AttemptResult, ...]
    seconds: float
    run: str | None = Field(default=None, description="The run name the attempts are stored under (resume with it).")

    def by_task(self) -> list[TaskSummary]:
        return [_summary(task_id, [r for r in self.results if r.task_id == task_id]) for task_id in dict.fromkeys(r.task_id for r in self.results)]

    def overall(self) -> TaskSummary:
        return _summary("all", list(self.results))


def _summary(task_id: str, results: list[AttemptResult]) -> TaskSummary:
    scored = [r for r in results if r.status in SCORED]
    return TaskSummary(
        task_id=task_id,
        attempts=len(results),
        scored=len(scored),
        successes=sum(r.success for r in scored),
        env_errors=sum(r.status == "env_error" for r in results),
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
    stop: threading.Event | None = None,
    view: View = "compact",
) -> AttemptResult:
    """One attempt of `agent` at `task` in `session`, each step written to `store` as it happens.

    The agent is reset for the task; the caller closes it. Screenshots are read from `images`
    (default: the session's manager's object store) when the agent is a vision agent. Once `stop`
    is set the attempt ends before its next step, as `interrupted`.

    The attempt's info records what a replay needs without the task file (`attempt_info`), and a
    scored attempt's final state is kept in the object store under `info["final"]`, so diagnosis
    can diff it against the golden's.
    """
    objects, shot_bytes = session.screenshots, session.shot_bytes
    info = {**attempt_info(task, objects, store), "max_steps": max_steps, "view": view, **(info or {})}
    attempt_id = store.start_attempt(task.id, agent.name, agent.model, info=info)
    if images is None and agent.vision:
        images = objects
    harness = Harness(task.instruction, task.form_factor, vision=agent.vision, images=images, view=view)
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
            if stop is not None and stop.is_set():
                break
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
        if stop is not None and stop.is_set():
            outcome = Outcome(status=INTERRUPTED, error=_STOPPED)
        else:
            clock = time.monotonic()
            outcome = session.evaluate()
            timings["evaluate"] = time.monotonic() - clock
            if outcome.status in SCORED:
                _keep_final(session, info["final"], obs)
    except TaskSetupError as err:  # the task is unusable: this attempt fails with the reason, the rollout goes on
        outcome = Outcome(status="env_error", error=f"task: {err}")
    except EnvError as err:
        outcome = Outcome(status="env_error", error=f"environment: {err}")
    except AgentError as err:
        outcome = Outcome(status="env_error", error=f"agent infrastructure: {err}")
    except HarnessError as err:
        outcome = Outcome(status="env_error", error=f"harness: {err}")
    if agent_error and outcome.status in SCORED:
        outcome = outcome.model_copy(update={"error": agent_error})
    timings["total"] = time.monotonic() - started
    shot_bytes = session.shot_bytes - shot_bytes  # this attempt's, in a session that may have run others
    store.finish_attempt(attempt_id, outcome, timings, info={"screenshot_bytes": shot_bytes})
    return AttemptResult(
        task_id=task.id, agent=agent.name, attempt_id=attempt_id, status=outcome.status, reward=outcome.reward,
        success=outcome.success, steps=steps, error=outcome.error, timings=timings, screenshots=info.get("screenshots"),
        screenshot_bytes=shot_bytes,
    )


def attempt_info(task: Task, objects: ObjectStore | None, store: TrajectoryStore) -> dict:
    """What an attempt row carries about its task: the card the dashboard and diagnosis group by, and where its
    screenshots and final state live: the object store, relative to the store's folder when it lies in the same run
    folder (`ObjectStore.reference`; readers open it with `runtime.objectstore.by_reference`), and the final state's key."""
    return {
        "task": {"family": task.meta.family, "difficulty": task.meta.difficulty, "capabilities": list(task.meta.capabilities),
                 "apps": list(task.apps), "instruction": task.instruction, "world": task.world,
                 "criteria": [c.model_dump() for c in task.criteria]},
        "objects": objects.reference(store.folder, above=1) if objects is not None else None,
        "final": f"finals/{uuid.uuid4().hex}.json",
    }


def _keep_final(session: Session, key: str, last: Observation) -> None:
    """The attempt's final state dumps, answer and the page it ended on (which no step records: steps keep the page
    each action was taken on) as JSON in the object store; an env fault here loses only them."""
    objects = session.screenshots
    if objects is None:
        return
    try:
        final = session.final()
        if final is not None:
            doc = {"state": final.state, "initial_state": final.initial_state, "answer": final.answer,
                   "last_page": {"url": last.url, "axtree": last.axtree, "error": last.last_action_error}}
            objects.put(key, json.dumps(doc, default=str).encode())
    except (EnvError, OSError, ObjectStoreError):
        return


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
    run: str | None = None,
    stop: threading.Event | None = None,
    screenshots: bool = True,
    replay: ReplayBudget | None = None,
) -> RolloutReport:
    """`attempts` attempts of agent `agent_name` at each task, `concurrency` at a time (threads).

    Each attempt gets its own agent (the random agent's seed is offset by the attempt number) and
    its own session. `progress(result, done, total)` is called as each attempt finishes.

    With a `run` name, attempts are stored under it and a rerun resumes: attempts the run already
    finished in `store` are kept (in the report, marked `resumed`), its unfinished rows are closed
    as interrupted and those attempts run again. Setting `stop`, or Ctrl-C, ends running attempts
    as interrupted at their next step and raises RolloutInterrupted with the finished ones.

    Every observation's screenshot is kept in the manager's object store (for replay) unless
    `screenshots` is False; with a `replay` budget, only the attempts it draws while under its bound
    keep theirs (each attempt's `screenshots` says which, and why not). A vision agent gets them either
    way, and they count against the budget.
    """
    options = options or AgentOptions()
    make_agent(agent_name, options).close()  # fail fast on a bad name or missing model, before any env work
    tasks = [t.model_copy(update={"form_factor": form_factor}) if form_factor else t for t in tasks]
    own_manager, own_store = manager is None, store is None
    store = store or TrajectoryStore()
    stop = stop or threading.Event()
    kept: list[AttemptResult] = []
    if run is not None:
        finished = store.resume(run, agent_name, {t.id for t in tasks})
        kept = [AttemptResult.from_record(r, store.step_count(r.id)) for r in finished.values()]
    else:
        finished = {}
    jobs = [(task, k) for task in tasks for k in range(attempts) if (task.id, k) not in finished]
    manager = manager or EnvironmentManager()
    lock, results = threading.Lock(), list(kept)
    total = len(jobs) + len(kept)
    started = time.monotonic()

    def attempt(task: Task, k: int) -> AttemptResult | None:
        if stop.is_set():
            return None  # stopped before this attempt began: nothing to record, a rerun runs it
        info = {"attempt": k} if run is None else {"attempt": k, "run": run}
        agent = make_agent(agent_name, options.model_copy(update={"seed": options.seed + k}))
        keep = _keeps(replay, screenshots, agent.vision, f"{run or ''}/{task.id}/{k}")
        if replay is not None:
            info["screenshots"] = keep
        try:
            session = manager.request(SessionSpec.for_task(task, screenshots=keep == "kept"), Lease(seconds=lease_s))
            try:
                return run_attempt(session, task, agent, store, max_steps, info=info, stop=stop, view=options.view)
            finally:
                session.close()
                if replay is not None and keep == "kept":
                    replay.spend(session.shot_bytes)
        except EnvError as err:  # the session could not even be requested or closed
            attempt_id = store.start_attempt(task.id, agent.name, agent.model,
                                             info={**attempt_info(task, manager.screenshots, store), **info})
            outcome = Outcome(status="env_error", error=f"environment: {err}")
            store.finish_attempt(attempt_id, outcome, {})
            return AttemptResult(task_id=task.id, agent=agent.name, attempt_id=attempt_id, status="env_error", error=outcome.error)
        finally:
            agent.close()

    def report() -> RolloutReport:
        order = {t.id: i for i, t in enumerate(tasks)}
        done = sorted((r for r in results if r.status != INTERRUPTED), key=lambda r: (order.get(r.task_id, 0), r.attempt_id))
        return RolloutReport(agent=agent_name, results=tuple(done), seconds=time.monotonic() - started, run=run)

    pool = ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="rollout")
    futures = [pool.submit(attempt, task, k) for task, k in jobs]
    try:
        for future in as_completed(futures):
            result = future.result()
            if result is None:
                continue
            with lock:
                results.append(result)
                done = len(results)
            if progress is not None:
                progress(result, done, total)
    except BaseException as err:
        stop.set()  # running attempts end as interrupted at their next step; queued ones never start
        pool.shutdown(wait=False, cancel_futures=True)
        wait([f for f in futures if not f.cancelled()])  # futures cancelled by shutdown never count as done
        if not isinstance(err, KeyboardInterrupt):
            raise
        results[:] = kept + [f.result() for f in futures if not f.cancelled() and f.exception() is None and f.result() is not None]
        raise RolloutInterrupted(report()) from None
    finally:
        pool.shutdown(wait=not stop.is_set())  # a second Ctrl-C while waiting does not wait again
        if own_manager:
            manager.close()
        if own_store:
            store.close()
    final = report()
    if stop.is_set() and len(final.results) < total:
        raise RolloutInterrupted(final)
    return final


def _keeps(replay: ReplayBudget | None, screenshots: bool, vision: bool, name: str) -> Decision:
    """Whether the attempt `name` takes and keeps screenshots (a vision agent needs them to act), or why not."""
    if vision:
        return "kept"
    if not screenshots:
        return "off"
    return replay.decide(name) if replay is not None else "kept"


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
