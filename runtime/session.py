"""A session: one lease on a browser context and app instances, driven by reset / observe / step / evaluate."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.scoring import Final, VerdictError
from contracts.status import Status
from contracts.task import Task
from runtime import launcher
from runtime.actions import Action, ActionParseError, Answer, Shell, parse_action
from runtime.backends.base import BrowserPage, DeadlineExceeded, EnvError, Instance, LeaseExpired, PageSetup, TaskSetupError
from runtime.backends.chromium import screenshot_png
from runtime.execute import execute
from runtime.refs import RefError, resolve
from runtime.httplog import RecordedRequest, RequestRecorder, resend
from runtime.judge import judge
from runtime.observation import Observation
from runtime.observe import snapshot
from runtime.shell import WORKSPACE_CRITERION, Workspace, WorkspaceError

if TYPE_CHECKING:
    from runtime.manager import EnvironmentManager



class SessionSpec(BaseModel):
    """What a session opens: its apps and form factor (fixed for the session's lifetime)."""

    model_config = ConfigDict(frozen=True)

    apps: tuple[str, ...] = Field(min_length=1, description="App references, as the tasks name them.")
    form_factor: Literal["desktop", "mobile"] = "desktop"
    screenshots: bool = Field(default=True, description="False for text-only agents: no PNG per observation.")
    prepare: bool = Field(
        default=False,
        description="Single-app sessions: while an attempt runs, load the next attempt's start page on a ready instance "
        "of the same task, so that the next reset of that task only observes it. For repeated attempts with time "
        "between resets (rollouts, RL, a Gymnasium env); a reset of another task, or none, wastes one page load.",
    )
    record_requests: bool = Field(
        default=False,
        description="Keep the requests each attempt's pages send to its app instances (`Session.requests`), so that "
        "`Session.replay` can rebuild the attempt's end without a browser (validation's second golden run).",
    )

    @classmethod
    def for_task(cls, task: Task, screenshots: bool = True, prepare: bool = False, record_requests: bool = False) -> "SessionSpec":
        return cls(apps=task.apps, form_factor=task.form_factor, screenshots=screenshots, prepare=prepare,
                   record_requests=record_requests)


class Lease(BaseModel):
    """A session lives until `seconds` pass without an operation; then its instances are given back."""

    model_config = ConfigDict(frozen=True)

    seconds: float = Field(default=900.0, gt=0)


class Deadlines(BaseModel):
    """Seconds each operation may take before it fails as DeadlineExceeded (env_error)."""

    model_config = ConfigDict(frozen=True)

    reset: float = Field(default=30.0, gt=0, description="Provision instances, write files, open the first page.")
    step: float = Field(default=30.0, gt=0, description="Apply one action and observe (a wait() counts).")
    evaluate: float = Field(default=30.0, gt=0, description="Dump states and run the verifier.")
    verifier: float = Field(default=10.0, gt=0, description="The verifier's own sandbox timeout.")
    shell: float = Field(default=10.0, gt=0, description="One shell() command.")


class Outcome(BaseModel):
    """How an attempt ended; env_error (infrastructure failed) and interrupted attempts say nothing about the agent."""

    model_config = ConfigDict(frozen=True)

    status: Status
    reward: float = 0.0
    success: bool = False
    verdicts: dict[str, bool] = Field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class PreparedStart:
    """A browser page whose standby page is loading `instance`'s start page, held for the next reset of its task."""

    page: BrowserPage
    instance: Instance


class _Deadline:
    def __init__(self, what: str, seconds: float):
        self.what, self.seconds, self.end = what, seconds, time.monotonic() + seconds

    def remaining(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded(f"{self.what} passed its deadline of {self.seconds:g}s")
        return left


class Session:
    """One agent's environment. Thread-safe: operations on a session are serialized."""

    def __init__(self, manager: "EnvironmentManager", session_id: str, spec: SessionSpec, lease: Lease,
                 start: "PreparedStart | None" = None):
        self.manager = manager
        self.id = session_id
        self.spec = spec
        self.lease = lease
        self.expires_at = time.monotonic() + lease.seconds
        self.workspace = manager.workspace_root / session_id
        self._workspace = Workspace(self.workspace)
        self.task: Task | None = None
        self.instances: list[Instance] = []
        self.initial_state: dict[str, dict] = {}
        self.answer: str | None = None
        self.attempt = 0
        self.fault: str | None = None
        self.closed = False
        self._page: BrowserPage | None = start.page if start else None
        self._prepared: Instance | None = start.instance if start else None  # held, unchanged, its start page on standby
        self.prepared_resets = 0  # resets that found their start page loaded
        self._lock = threading.RLock()
        self._step = 0
        self._shots = 0
        self.shot_bytes = 0  # bytes of the screenshots this session put in the object store
        self._done = False
        self._applied: dict[str, Observation] = {}
        self._last: Observation | None = None
        self._history_floor = 0
        self._shooting = spec.screenshots
        self._sent: list[RecordedRequest] = []  # this attempt's requests to its instances (spec.record_requests)
        self._pageless = False  # reset without its first page (`reset(task, page=False)`): no browser action until a reset

    @property
    def screenshots(self) -> "ObjectStore":
        """Where this session's screenshots (and a rollout's final states) go: its manager's object store."""
        return self.manager.screenshots

    # ---- the four session operations ---------------------------------------------------------
    def reset(self, task: Task, page: bool = True) -> "Observation | None":
        """Fresh instances in the task's state, its workspace files, and the first page (launcher or the app).

        `page=False`: the instances and files only, no page and no observation (None); the session's next browser
        action must be another reset. For state-level work: `final()`, `replay()`."""
        if tuple(task.apps) != self.spec.apps or task.form_factor != self.spec.form_factor:
            raise ValueError(f"task {task.id} needs {task.apps} on {task.form_factor}; this session is {self.spec.apps} on {self.spec.form_factor}")
        with self._operation("reset", self.manager.deadlines.reset, resetting=True) as deadline:
            previous, self.instances = self.instances, []
            try:
                snap = self._start(task, deadline, page)
            finally:
                self._give_back(previous)  # after the new first page is up: less contention on the way there
            if snap is None:
                return None
            self._history_floor = snap["history"]  # back() never leaves this attempt's first page
            obs = self._observation(snap, step=0)
            self._prepare(task, deadline)
            return obs

    def _start(self, task: Task, deadline: _Deadline, open_page: bool = True) -> dict | None:
        """Provision the task's instances and workspace, and open its first page; returns the page snapshot
        (None without `open_page`)."""
        self.task, self.answer, self.fault = task, None, None
        self._step, self._done, self._applied, self.attempt = 0, False, {}, self.attempt + 1
        self._sent, self._pageless = [], not open_page
        backend = self.manager.backend
        held, self._prepared = self._prepared, None
        if held is not None and task.apps != (held.app,):
            backend.release(held)
            held = None
        for app in task.apps:
            self.instances.append(backend.acquire(app, task.app_seed(app), task.clock, deadline.remaining(), held=held))
        self.initial_state = {
            inst.app: inst.initial_state if inst.initial_state is not None else backend.state(inst, deadline.remaining())
            for inst in self.instances
        }
        try:
            self._workspace.fill(task.files)
        except WorkspaceError as err:
            raise TaskSetupError(f"task {task.id}: {err}") from err
        if not open_page:
            return None
        page = self._ensure_page(deadline)
        start = launcher.LAUNCHER_URL if len(self.instances) > 1 else self.instances[0].url
        recorded = self.spec.record_requests  # a prepared start's first request was sent before this reset: not used
        if held is not None and self.instances[0] is held and not recorded and page.take(start, deadline.remaining()):
            self.prepared_resets += 1
            return page.call(self._grab, deadline.remaining())  # loaded while the last attempt ran; observed now

        async def first_page(p):
            async def load(p):
                await p.goto(start, wait_until="load")
            await self._recording(p, load)
            return await self._grab(p)

        page.preload(None)
        return page.call(first_page, deadline.remaining())

    def _prepare(self, task: Task, deadline: _Deadline) -> None:
        """Hold the next attempt's instance (same seed and clock) and start loading its first page on the standby page."""
        if not self.spec.prepare or len(task.apps) != 1:
            return
        app = task.apps[0]
        try:
            self._prepared = self.manager.backend.acquire(app, task.app_seed(app), task.clock, deadline.remaining())
        except EnvError:
            return  # only the next reset's head start is lost; that reset meets the fault itself
        self._page.preload(self._prepared.url)

    def observe(self) -> Observation:
        """The current page as an observation (same step index as the last one)."""
        with self._operation("observe", self.manager.deadlines.step) as deadline:
            self._require_page()
            last = self._last
            snap = self._page.call(self._grab, deadline.remaining())
            return self._observation(snap, self._step, error=last.last_action_error if last else None, shell_output=last.shell_output if last else None)

    def step(self, action: Action | str, action_id: str | None = None) -> Observation:
        """Apply one action (text is parsed); a retried `action_id` returns the recorded observation, applied once."""
        with self._lock:
            if action_id is not None and action_id in self._applied:
                return self._applied[action_id]
            with self._operation("step", self.manager.deadlines.step) as deadline:
                self._require_page()
                index = self._step + 1
                error, shell_output, snap = self._apply(action, deadline)
                self._step = index
                obs = self._observation(snap, index, error=error, shell_output=shell_output)
                if action_id is not None:
                    self._applied[action_id] = obs
                return obs

    def evaluate(self) -> Outcome:
        """Run the task's verifier on the state now; infrastructure faults give env_error, never a zero reward."""
        with self._lock:
            if self.fault is not None:
                return Outcome(status="env_error", error=self.fault)
            try:
                with self._operation("evaluate", self.manager.deadlines.evaluate) as deadline:
                    task = self._require_task()
                    final = self._final(deadline.remaining())
                    if final is None:  # the agent flooded its workspace: its failure, scored without running the verifier
                        return Outcome(status="failure", verdicts={WORKSPACE_CRITERION: False},
                                       error="the workspace went over its size limit")
                    try:
                        result = judge(task, final, timeout_s=min(self.manager.deadlines.verifier, deadline.remaining()))
                    except VerdictError as err:
                        return Outcome(status="env_error", error=f"verifier: {err}")
            except EnvError as err:
                return Outcome(status="env_error", error=str(err))
            status: Status = "success" if result.success else "failure"
            return Outcome(status=status, reward=result.reward, success=result.success, verdicts=result.verdicts)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """The requests this attempt's pages sent to its instances, in order (with `SessionSpec.record_requests`)."""
        return tuple(self._sent)

    def replay(self, requests: "tuple[RecordedRequest, ...] | list[RecordedRequest]", answer: str | None) -> list[str]:
        """Rebuild an attempt's end without the browser: send its recorded `requests` to this attempt's instances over
        HTTP and give the attempt `answer`; `final()` then reads the state. Meant right after `reset(task, page=False)`.
        Returns the requests answered with another status than the recorded one (see `runtime.httplog.resend`)."""
        with self._lock, self._operation("step", self.manager.deadlines.step * max(1, len(requests))) as deadline:
            self._require_task()
            differ = resend(list(requests), self.instances, deadline.remaining())
            self.answer, self._done = answer, answer is not None
            return differ

    def final(self) -> "Final | None":
        """The attempt's end as the verifier sees it (None when the agent flooded its workspace past its cap)."""
        with self._lock, self._operation("evaluate", self.manager.deadlines.evaluate) as deadline:
            self._require_task()
            return self._final(deadline.remaining())

    def _final(self, timeout_s: float) -> "Final | None":
        files = self._workspace.files()
        if files is None:
            return None
        state = {inst.app: self.manager.backend.state(inst, timeout_s) for inst in self.instances}
        return Final(state=state, initial_state=self.initial_state, answer=self.answer, files=files)

    def close(self) -> None:
        """Give the instances back and close the browser context (a prepared start goes to the manager); idempotent."""
        with self._lock:
            if self.closed:
                return
            self._give_back()
            prepared, self._prepared = self._prepared, None
            if prepared is not None and self._page is not None and self.fault is None:
                self.manager._keep_start(self.spec, PreparedStart(page=self._page, instance=prepared))
            else:
                if self._page is not None:
                    self._page.close(reuse=self.fault is None)
                if prepared is not None:
                    self.manager.backend.release(prepared)
            self._page = None
            self._workspace.remove()
            self.manager._forget(self)
            self.closed = True

    def stop_screenshots(self) -> None:
        """From now on observations carry no screenshot (validation keeps only its first golden run's)."""
        self._shooting = False

    def resume_screenshots(self) -> None:
        """Observations carry screenshots again, if the spec takes them (a session reused for another task)."""
        self._shooting = self.spec.screenshots

    @property
    def expired(self) -> bool:
        return time.monotonic() > self.expires_at

    @property
    def done(self) -> bool:
        return self._done

    # ---- internals ---------------------------------------------------------------------------
    @contextmanager
    def _operation(self, what: str, seconds: float, resetting: bool = False) -> Iterator[_Deadline]:
        with self._lock:
            if self.closed:
                raise LeaseExpired(f"session {self.id} is closed (lease expired or closed); request a new one")
            if self.expired:
                self.close()
                raise LeaseExpired(f"session {self.id}: lease of {self.lease.seconds:g}s expired")
            if self.fault is not None and not resetting:
                raise EnvError(f"session {self.id} failed earlier in this attempt: {self.fault}")
            deadline = _Deadline(what, seconds)
            try:
                yield deadline
                deadline.remaining()  # an operation that finished late still failed its deadline
            except EnvError as err:
                self.fault = f"{what}: {err}"
                if self._page is not None and not isinstance(err, DeadlineExceeded):
                    self._page.close(reuse=False)
                    self._page = None  # the next reset opens a fresh context (the backend relaunches a dead browser)
                raise
            finally:
                self.expires_at = time.monotonic() + self.lease.seconds

    def _require_task(self) -> Task:
        if self.task is None:
            raise ValueError(f"session {self.id}: call reset(task) first")
        return self.task

    def _require_page(self) -> Task:
        task = self._require_task()
        if self._pageless:
            raise ValueError(f"session {self.id}: reset without a page; reset(task) with one before acting")
        return task

    async def _recording(self, page, work):
        """`await work(page)`, keeping the requests it makes the page send (with `SessionSpec.record_requests`)."""
        if not self.spec.record_requests:
            return await work(page)
        recorder = RequestRecorder(self.instances)
        recorder.attach(page)
        try:
            return await work(page)
        finally:
            recorder.detach(page)
            self._sent += recorder.sent

    def _ensure_page(self, deadline: _Deadline) -> BrowserPage:
        """The session's page, opened on first reset and reused by later ones (a new context costs ~10x a navigation)."""
        if self._page is not None:
            return self._page
        multi = len(self.instances) > 1
        labels = launcher.labels(self.instances)
        ff = self.spec.form_factor
        setup = PageSetup(
            form_factor=ff,
            init_script=launcher.dock_script(labels, ff) if multi else None,
            route=launcher.LAUNCHER_ROUTE if multi else None,
            serve=(lambda url: launcher.serve(url, self.instances, ff)) if multi else None,
        )
        self._page = self.manager.backend.open_page(setup, deadline.remaining())
        return self._page

    def _apply(self, action: Action | str, deadline: _Deadline) -> tuple[str | None, str | None, dict]:
        """Run the action and snapshot the page; returns (error for the agent, shell output, snapshot)."""
        error = shell_output = None
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ActionParseError as err:
                action, error = None, str(err)
        if action is not None and not self._done:
            try:
                action = resolve(action, self._last.axtree if self._last is not None else "")
            except RefError as err:
                action, error = None, str(err)
        if action is None:
            pass  # unparsable: the error is the feedback, the page is observed as it is
        elif self._done:
            error = "the episode is over (you already answered); no more actions are applied"
        elif isinstance(action, Answer):
            self.answer, self._done = action.text, True
        elif isinstance(action, Shell):
            if self.spec.form_factor != "desktop":
                error = "shell() is only available on desktop; this is a mobile session"
            else:
                result = self._workspace.run(action.command, min(self.manager.deadlines.shell, deadline.remaining()))
                error, shell_output = result.error, result.output
        else:
            touch, floor = self.spec.form_factor == "mobile", self._history_floor

            async def act_and_grab(page):
                failed, snap = await self._recording(page, lambda p: execute(p, action, self._walk, touch, floor))
                return failed, await self._grab(page, snap)

            error, snap = self._page.call(act_and_grab, deadline.remaining())
            return error, None, snap
        return error, shell_output, self._page.call(self._grab, deadline.remaining())

    async def _walk(self, page) -> dict:
        return await snapshot(page, max_lines=self.manager.axtree_lines)

    async def _grab(self, page, snap: dict | None = None) -> dict:
        """Accessibility tree, URL, title and (unless turned off) the PNG of the page, in one pass on the browser loop."""
        if snap is None and self._shooting:  # walk while the compositor paints
            snap, png = await asyncio.gather(self._walk(page), screenshot_png(page))
        else:
            snap = snap if snap is not None else await self._walk(page)
            png = await screenshot_png(page) if self._shooting else None
        snap["png"] = None if snap["url"].startswith("chrome-error:") else png
        return snap

    def _observation(self, snap: dict, step: int, error: str | None = None, shell_output: str | None = None) -> Observation:
        if snap["url"].startswith("chrome-error:"):
            raise EnvError("app server unreachable: the page failed to load (the server may have died)")
        key = None
        if snap["png"] is not None:
            self._shots += 1
            self.shot_bytes += len(snap["png"])
            key = self.manager.screenshots.put(f"{self.id}/{self.attempt}/{step:03d}-{self._shots}.png", snap["png"])
        obs = Observation(
            step=step, url=snap["url"], title=snap["title"], axtree=snap["axtree"], screenshot=key,
            last_action_error=error, shell_output=shell_output, done=self._done,
        )
        self._last = obs
        return obs

    def _give_back(self, instances: list[Instance] | None = None) -> None:
        if instances is None:
            instances, self.instances = self.instances, []
        for inst in instances:
            self.manager.backend.release(inst)
