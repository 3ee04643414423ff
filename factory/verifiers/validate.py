"""Validation by execution: the acceptance rule of DESIGN.md Contract 3, run for real in an environment session.

A first reset, then verify must not succeed. Each run (two by default): the golden code's
solve(env) drives the session -> verify gives success 1 and reward 1; reset -> the state dump
equals the first one and verify does not succeed. That reset is where the next run starts, and
the last run ends without one (run 1 already proved the reset exact after a golden run), so two
runs cost two resets, not four. Every verification calls verify() twice on the same data, and the
verdicts of each phase must repeat across runs, each judged by a fresh sandbox process (a fresh
hash seed). The first broken rule rejects the task with a reason code.

The golden run's state diff becomes the task's footprint (`factory.verifiers.footprint`), and every
phase is scored through `score_final`, footprint guard included. After the first golden run the
adversarial probes (`factory.verifiers.probes`: partial completion, collateral damage, wrong
target, answer variants, shifted clocks) must all fail; a golden change no criterion needs is
`unverified_golden_change`. The golden run must change the same things in every run.

Recall (`factory.verifiers.recall`), with the probes: honest variants of run 1's golden final (the
answer rephrased in every unambiguous form, view state set either way, a note in the target record's
empty comment) must all succeed, scored in one sandbox batch; and a second solution the family
declares (`contracts.family.ALTERNATIVE`) is run for real from a fresh reset after the last run and
must succeed too. A refused one rejects the task with `recall_answer_form`, `recall_view`,
`recall_note` or `recall_alternative`.

The second run is at state level by default (`ValidationConfig.replay`), not in the browser: the first run's
pages sent requests to the apps (`runtime.httplog`); the reset that ends run 1 makes fresh instances without
opening a page, and run 2 sends the same requests to them over HTTP (`Session.replay`), bar the pages an app
only renders (a GET to an app without declared view state). That is run 2 as the
browser would play it when two things hold, and both are checked: the golden code, handed run 1's pages,
asks for the same actions (`runtime.agents.golden.replays`), and the apps, sent the same requests, end in the
same state, answer and files as run 1 (Contract 1). If either fails, or run 1 used the shell, run 2 is played in
the browser as before; every gate after it (footprint, verdicts in a fresh process, the reset's) is the same.

An accepted task leaves with its footprint: `accepted_task(task, result)`. Run 1's golden actions, each
with the observation it was chosen on (screenshots too with `ValidationConfig.screenshots`), are the
task's demonstration (`golden_steps`): every accepted task has one without another browser run.

After a reset the state equals the initial one, so a verifier that succeeds there but not on the
initial state reads something outside `final` that the attempt changed and reset does not restore
(the real filesystem, the clock): "verifier_blind_to_reset". A task the environment cannot even
set up (bad seed, apps it cannot open) is "invalid_task". An infrastructure fault is not a verdict
on the task: it ends as reason "env_error" (re-run it).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Iterable, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field

from contracts.demonstration import DemoStep, anonymous_url
from contracts.task import Footprint, Task
from factory.verifiers.footprint import app_rules, record
from factory.verifiers.kept import TaskGroups, WarmSession
from factory.verifiers.probes import ProbeReason, check_probes
from factory.verifiers.recall import RecallReason, RecallReport, alternative_task, check_recall, has_alternative
from runtime.actions import STOP, Answer, Shell, parse_action
from runtime.agents.golden import GoldenTooLong, play, replays
from runtime.golden import GoldenFailed
from runtime.sandbox import SandboxError, VerifierRun, run_verifier
from contracts.scoring import Final, Score, VerdictError, score_final

if TYPE_CHECKING:
    from runtime.manager import EnvironmentManager, Session
    from runtime.observation import Observation

ReasonCode = Literal[
    "verifier_true_on_initial",
    "golden_fails",
    "verifier_blind_to_reset",
    "verifier_crash",
    "verifier_timeout",
    "verifier_forbidden",
    "golden_forbidden",
    "nondeterministic_verdicts",
    "nondeterministic_golden",
    "reset_not_exact",
    "bad_output",
    "invalid_task",
    "env_error",
    ProbeReason,
    RecallReason,
]
_ERROR_REASONS: dict[str, ReasonCode] = {
    "timeout": "verifier_timeout",
    "crash": "verifier_crash",
    "memory": "verifier_crash",
    "forbidden": "verifier_forbidden",
    "bad_output": "bad_output",
}


class ValidationConfig(BaseModel):
    """How hard validation looks."""

    model_config = ConfigDict(frozen=True)

    runs: int = Field(default=2, ge=1, description="Golden runs, each from a fresh reset; every phase's verdicts (initial, golden, reset) must repeat.")
    verifier_repeats: int = Field(default=2, ge=1, description="verify() calls on the same data per phase (one sandbox); verdicts must repeat.")
    verifier_timeout_s: float = Field(default=10.0, gt=0, description="Sandbox deadline of one verifier run.")
    golden_timeout_s: float = Field(default=180.0, gt=0, description="Sandbox deadline of one golden run, actions included.")
    max_golden_steps: int = Field(default=60, ge=1, description="More actions than this and the golden code fails.")
    lease_s: float = Field(default=900.0, gt=0, description="Lease of the validation session.")
    probes: bool = Field(default=True, description="Run the adversarial probes after the first golden run (one sandbox batch).")
    recall: bool = Field(default=True, description="Require success on honest variants of the golden final (answer forms, view "
                         "state, a note) and on the family's second solution, if it declares one (one more browser run).")
    replay: bool = Field(default=True, description="Runs after the first at state level: run 1's requests sent again over "
                         "HTTP to fresh instances, once the golden code asks for run 1's actions on run 1's pages (no browser); "
                         "played in the browser when either differs. False: every run in the browser (the path before).")
    keep_sessions: bool = Field(default=True, description="`validate_tasks` takes tasks that open the same apps one after "
                                "another, and each worker keeps its session for the next (a reset, not a new browser context "
                                "per task). False: a session per task, in the given order (the path before).")
    screenshots: bool = Field(default=False, description="Screenshot every page the golden code acts on (into the manager's "
                              "object store), so the recorded demonstration carries images; off, it carries the text only.")


class ValidationResult(BaseModel):
    """Whether a task passed validation; if not, the first rule it broke and the evidence."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    accepted: bool
    reason: ReasonCode | None = Field(default=None, description="None when accepted.")
    detail: str = Field(default="", description="What exactly went wrong, for a person or an LLM to fix it.")
    seconds: float = 0.0
    verdicts: dict[str, dict[str, bool] | None] = Field(
        default_factory=dict, description="Phase ('run1.initial', 'run1.golden', 'run1.reset', ...) -> verdicts."
    )
    golden_actions: tuple[str, ...] = Field(default=(), description="The golden run's actions (run 1): a demonstration.")
    golden_steps: tuple[DemoStep, ...] = Field(default=(), description="The same actions, each with the observation (accessibility "
                                               "text, URL, screenshot key) it was chosen on, then answer('') on the last page where the golden code "
                                               "returned without answering: the task's demonstration.")
    footprint: Footprint | None = Field(default=None, description="The golden run's state diff; stored on the task once accepted.")
    probes: int = Field(default=0, description="Adversarial probes derived (and failed, when accepted).")
    probe_kinds: tuple[str, ...] = Field(default=(), description="Their kinds (partial, collateral, answer_spam, ...).")
    probe_seconds: float = Field(default=0.0, description="Time spent deriving, scoring and running the probes.")
    recall_tried: int = Field(default=0, description="Honest variants scored (the second solution counts as one).")
    recall_paid: int = Field(default=0, description="Of those, the ones that succeeded (all of them, when accepted).")
    recall_kinds: tuple[str, ...] = Field(default=(), description="Their kinds (answer_form, view, note, alternative).")
    recall_refused: tuple[str, ...] = Field(default=(), description="'kind: what it did' of every honest variant refused.")
    recall_seconds: float = Field(default=0.0, description="Time spent on recall, the second solution's browser run included.")
    replayed_runs: int = Field(default=0, description="Golden runs after the first done at state level (no browser).")
    replay_misses: tuple[str, ...] = Field(default=(), description="Why a run meant for state level was played in the browser.")


def accepted_task(task: Task, result: ValidationResult) -> Task:
    """The task as accepted: carrying the footprint its validation recorded (the guard's input)."""
    if not result.accepted:
        raise ValueError(f"task {task.id} was not accepted ({result.reason})")
    return task.model_copy(update={"footprint": result.footprint})


class _Reject(Exception):
    def __init__(self, reason: ReasonCode, detail: str):
        super().__init__(detail)
        self.reason, self.detail = reason, detail


def validate_task(task: Task, manager: "EnvironmentManager", config: ValidationConfig | None = None,
                  warm: "WarmSession | None" = None) -> ValidationResult:
    """Run the acceptance rule on `task` in a fresh session of `manager` (`warm`: in the session it kept, if it suits)."""
    from runtime.manager import EnvError, Lease, SessionSpec

    config = config or ValidationConfig()
    started = time.monotonic()
    check = _Check(task, config)
    kept = False
    try:
        spec = SessionSpec.for_task(task, screenshots=config.screenshots, record_requests=config.replay and config.runs > 1)
        session = warm.take(spec) if warm is not None else None
        session = session or manager.request(spec, Lease(seconds=config.lease_s))
        session.resume_screenshots()
        try:
            obs = check.start(session)
            for run in range(1, config.runs + 1):
                obs = check.run(session, run, obs)
            check.compare_runs()
            if config.recall and has_alternative(task):
                check.alternative(session, obs)
            kept = warm is not None
        except _Reject:
            kept = warm is not None  # a verdict on the task, not on the session
            raise
        finally:
            if kept and session.fault is None:
                warm.keep(session)
            else:
                session.close()
    except _Reject as rejection:
        return check.result(started, rejection.reason, rejection.detail)
    except (EnvError, SandboxError) as err:
        return check.result(started, "env_error", f"environment: {err}")
    except ValueError as err:  # raised by reset() for a task it cannot set up (bad seed, files, apps)
        return check.result(started, "invalid_task", str(err))
    return check.result(started, None, "")


def validate_tasks(
    tasks: Iterable[Task], manager: "EnvironmentManager", config: ValidationConfig | None = None, concurrency: int = 1
) -> list[ValidationResult]:
    """Validate many tasks, `concurrency` sessions at a time; results in the order of `tasks`.

    With `config.keep_sessions` each worker goes through the tasks that open the same apps as its last one
    before it takes others, and keeps its session (browser context and page) from one task to the next: a
    reset replaces its instances, and a session is neither closed nor opened per task."""
    tasks, config = list(tasks), config or ValidationConfig()
    workers = max(1, concurrency)
    if not config.keep_sessions:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="validate") as pool:
            return list(pool.map(lambda t: validate_task(t, manager, config), tasks))
    groups, results = TaskGroups(tasks), {}

    def work() -> None:
        warm, key = WarmSession(), None
        try:
            while (taken := groups.next(key)) is not None:
                key, i = taken
                results[i] = validate_task(tasks[i], manager, config, warm)
        finally:
            warm.close()

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="validate") as pool:
        for done in [pool.submit(work) for _ in range(workers)]:
            done.result()
    return [results[i] for i in range(len(tasks))]


def demonstration(actions: Sequence[str], observed: Sequence["Observation"]) -> tuple[DemoStep, ...]:
    """The golden run as a demonstration: each action with the page it was chosen on, and, where the golden code returned
    without answering, `answer('')` on the page it ended on (`observed` has that last page), so that a policy trained
    on it learns to stop once the work is done instead of spending every step it is given."""
    steps = [DemoStep(action=a, url=anonymous_url(o.url), axtree=o.axtree, screenshot=o.screenshot, error=o.last_action_error,
                      shell_output=o.shell_output) for a, o in zip(actions, observed)]
    answered = bool(actions) and isinstance(parse_action(actions[-1]), Answer)
    if len(observed) > len(actions) and not answered and not observed[len(actions)].done:
        end = observed[len(actions)]
        steps.append(DemoStep(action=STOP, url=anonymous_url(end.url), axtree=end.axtree, screenshot=end.screenshot,
                              error=end.last_action_error, shell_output=end.shell_output))
    return tuple(steps)


class _Check:
    """The evidence gathered while validating one task, and the rules applied to it."""

    def __init__(self, task: Task, config: ValidationConfig):
        self.task, self.config = task, config
        self.scored: Task = task  # once the first golden run is done: the task with its footprint
        self.verdicts: dict[str, dict[str, bool] | None] = {}
        self.first_reset: tuple[dict, dict] | None = None
        self.actions: tuple[str, ...] = ()
        self.steps: tuple[DemoStep, ...] = ()
        self.probes, self.probe_seconds, self.probe_kinds = 0, 0.0, ()
        self.recall = RecallReport()
        self.observed: list[Observation] = []  # run 1: the observation each action was chosen on, then the last one
        self.first: Final | None = None  # run 1's golden final
        self.requests: tuple = ()  # run 1's requests to the apps
        self.replayed, self.misses = 0, []
        self.session_records = False

    def start(self, session: "Session") -> "Observation":
        """The first reset and the initial-state verdicts of run 1."""
        self.session_records = session.spec.record_requests
        obs, start = self._reset(session, "the first reset")
        self._initial(start, 1)
        return obs

    def run(self, session: "Session", run: int, obs: "Observation | None") -> "Observation | None":
        """One run from a fresh reset: golden, verify, (run 1: probes), then reset and verify. `obs` None: the reset
        opened no page, and this run replays run 1 at state level (or, if it cannot, resets with a page and plays).

        The reset that ends a run is the one the next run starts from, so its verdicts count twice:
        as this run's `reset` phase and as the next run's `initial` phase (the same state, proven
        equal to the first reset's). The last of several runs ends without a reset: run 1's already
        proved the reset exact after a golden run and its verdicts repeat those on the initial state
        in another process. Each phase is still judged twice, by separate processes, on separate runs.
        """
        golden = self._replayed(session) if obs is None else None
        if golden is not None:
            actions = list(self.actions)
        else:
            if obs is None:
                obs, _ = self._reset(session, f"run {run}, the reset before playing it in the browser")
            actions, observed = self._golden(session, run, obs)
            golden = self._final(session, "golden_fails")
        if run == 1:
            session.stop_screenshots()  # the demonstration needs no other page
            self.actions, self.first, self.requests = tuple(actions), golden, session.requests
            self.observed = observed
            self.steps = demonstration(actions, observed)
        self._footprint(golden, run)
        solved = self._verify(golden, f"run{run}.golden")
        if not solved.success or solved.reward < 1.0:
            unmet = sorted(k for k, v in solved.verdicts.items() if not v)
            raise _Reject("golden_fails", f"after the golden code (actions {actions}) criteria {unmet} are not met (reward {solved.reward:g})"
                          + (f"; changes outside the footprint: {solved.collateral}" if solved.collateral else ""))
        if run == 1:
            self._gates(golden)
        if run == self.config.runs > 1:
            return None
        obs, reset = self._reset(session, f"run {run}, reset after the golden run", page=not self._replayable())
        after = self._verify(reset, f"run{run}.reset")
        if after.success:
            raise _Reject("verifier_blind_to_reset", f"verify() still succeeds after reset restored the initial state: verdicts {after.verdicts}")
        if run < self.config.runs:
            self.verdicts[f"run{run + 1}.initial"] = self.verdicts[f"run{run}.reset"]
        return obs

    def _replayable(self) -> bool:
        """Whether the next run can be tried at state level: replay on, and run 1 sent all its changes as requests."""
        if not self.config.replay or not self.session_records:
            return False
        return not any(isinstance(parse_action(a), Shell) for a in self.actions)  # the shell's changes are no requests

    def _replayed(self, session: "Session") -> Final | None:
        """Run 1 again at state level, on the fresh instances of a reset without a page: its final, or None (noted in
        `misses`) when the golden code or the apps would not repeat run 1, so the run must be played in the browser."""
        first = self.first
        why = replays(self.task, self.observed[:-1], list(self.actions), self.observed[-1], timeout_s=self.config.golden_timeout_s)
        if why is None:
            differ = session.replay(_changing(self.requests), first.answer)
            final = self._final(session, "golden_fails")
            if (final.state, final.answer, final.files) == (first.state, first.answer, first.files):
                self.replayed += 1
                return final
            why = f"the apps ended elsewhere: {_diff(first.state, final.state)}" + (f"; {differ[0]}" if differ else "")
        else:
            why = f"the golden code: {why}"
        self.misses.append(why)
        return None

    def _gates(self, golden: Final) -> None:
        """Run 1's probes (nothing wrong may succeed) and recall (nothing honest may fail); a probe's verdict comes first."""
        report = check_probes(self.scored, golden, self.verdicts["run1.golden"], self.config.verifier_timeout_s) if self.config.probes else None
        if self.config.recall:
            self.recall = check_recall(self.scored, golden, self.config.verifier_timeout_s)
        if report is not None:
            self.probes, self.probe_seconds, self.probe_kinds = report.probes, report.seconds, report.kinds
            if report.reason is not None:
                raise _Reject(report.reason, report.detail)
        if self.recall.reason is not None:
            raise _Reject(self.recall.reason, self.recall.detail)

    def alternative(self, session: "Session", obs: "Observation | None") -> None:
        """The family's second solution, from a fresh reset: it must succeed as the first did (`recall_alternative`)."""
        started = time.monotonic()
        if obs is None:
            obs, _ = self._reset(session, "the reset before the second solution")
        actions, _ = self._golden(session, "alt", obs, alternative_task(self.task), failed="recall_alternative")
        scored = self._verify(self._final(session, "recall_alternative"), "alternative")
        paid = scored.success and scored.reward >= 1.0
        r = self.recall
        self.recall = r.model_copy(update={
            "tried": r.tried + 1, "paid": r.paid + paid, "kinds": tuple(sorted({*r.kinds, "alternative"})),
            "refused": r.refused + (() if paid else (f"alternative: actions {actions}",)), "seconds": r.seconds + time.monotonic() - started})
        if not paid:
            raise _Reject("recall_alternative", f"the family's second solution (actions {actions}) is refused: verdicts {scored.verdicts}"
                          + (f"; changes outside the footprint: {scored.collateral}" if scored.collateral else ""))

    def _initial(self, start: Final, run: int) -> None:
        initial = self._verify(start, f"run{run}.initial")
        if initial.success:
            raise _Reject("verifier_true_on_initial", f"verify() succeeds before anything was done: verdicts {initial.verdicts}")

    def compare_runs(self) -> None:
        for phase, verdicts in self.verdicts.items():
            if not phase.startswith("run1."):
                continue
            for run in range(2, self.config.runs + 1):
                again = self.verdicts.get(phase.replace("run1.", f"run{run}.", 1))
                if phase == "run1.reset" and run == self.config.runs:
                    continue  # the last run ends without a reset (see `run`)
                if again != verdicts:
                    raise _Reject("nondeterministic_verdicts", f"{phase.split('.', 1)[1]}: run 1 gave {verdicts}, run {run} gave {again}")

    def result(self, started: float, reason: ReasonCode | None, detail: str) -> ValidationResult:
        return ValidationResult(
            task_id=self.task.id, accepted=reason is None, reason=reason, detail=detail,
            seconds=time.monotonic() - started, verdicts=self.verdicts, golden_actions=self.actions, golden_steps=self.steps,
            footprint=self.scored.footprint, probes=self.probes, probe_seconds=self.probe_seconds, probe_kinds=self.probe_kinds,
            recall_tried=self.recall.tried, recall_paid=self.recall.paid, recall_kinds=self.recall.kinds,
            recall_refused=self.recall.refused, recall_seconds=self.recall.seconds,
            replayed_runs=self.replayed, replay_misses=tuple(self.misses),
        )

    # ---- phases ------------------------------------------------------------------------------
    def _footprint(self, golden: Final, run: int) -> None:
        """Record the golden run's footprint (run 1); later golden runs must change exactly the same."""
        met = [c.id for c in self.task.criteria if (self.verdicts.get("run1.initial") or {}).get(c.id)]
        footprint = record(golden.initial_state, golden.state, golden.state, met_at_start=met)
        if run == 1:
            self.scored = self.task.model_copy(update={"footprint": footprint})
        elif footprint != self.scored.footprint:
            raise _Reject("nondeterministic_golden", f"golden run {run} changed {footprint.tables}, run 1 changed {self.scored.footprint.tables}")

    def _final(self, session: "Session", reason: ReasonCode) -> Final:
        """The session's final through its public path (the same data `Session.evaluate` scores)."""
        final = session.final()
        if final is None:
            raise _Reject(reason, "the workspace went over its size limit")
        return final

    def _reset(self, session: "Session", what: str, page: bool = True) -> "tuple[Observation | None, Final]":
        obs = session.reset(self.task, page=page)
        final = self._final(session, "invalid_task")
        if final.state != final.initial_state:  # a recycled instance that kept an earlier attempt's changes
            raise _Reject("reset_not_exact", f"{what}: the state dump differs from the apps' state at creation: "
                          f"{_diff(final.initial_state, final.state)}")
        if self.first_reset is None:
            self.first_reset = (final.state, final.files)
            return obs, final
        state, files = self.first_reset
        if final.state != state:
            raise _Reject("reset_not_exact", f"{what}: the state dump differs from the first reset's: {_diff(state, final.state)}")
        if final.files != files:
            raise _Reject("reset_not_exact", f"{what}: the workspace files differ from the first reset's")
        return obs, final

    def _verify(self, final: Final, phase: str) -> Score:
        run = run_verifier(self.task.verifier, final, timeout_s=self.config.verifier_timeout_s,
                           repeats=self.config.verifier_repeats, clock=self.task.clock)
        _raise_for_error(run, phase)
        if not run.consistent:
            raise _Reject("nondeterministic_verdicts", f"{phase}: the same data gave {list(run.repeats)}")
        self.verdicts[phase] = run.verdicts
        try:
            return score_final(self.scored, final, run.verdicts)
        except VerdictError as err:
            raise _Reject("bad_output", f"{phase}: {err}") from err

    def _golden(self, session: "Session", run: int | str, obs: "Observation", task: Task | None = None,
                failed: ReasonCode = "golden_fails") -> "tuple[list[str], list[Observation]]":
        """The golden run, by the golden agent through the session's `step` (`runtime.agents.golden.play`): its actions,
        and the observation each was chosen on. `task`: another task's golden code (the second solution); `failed`:
        the reason when it fails."""
        from runtime.manager import EnvError

        actions: list[str] = []
        observed: list[Observation] = []
        try:
            play(session, task or self.task, obs, timeout_s=self.config.golden_timeout_s, max_steps=self.config.max_golden_steps,
                 action_id=lambda i: f"validate-{run}-{i}", actions=actions, observed=observed, ended=observed if run == 1 else None)
        except GoldenTooLong as err:
            raise _Reject(failed, str(err)) from err
        except GoldenFailed as err:
            if isinstance(err.__cause__, (EnvError, SandboxError)):
                raise err.__cause__  # the environment failed under the golden code: env_error, not a verdict
            reason: ReasonCode = "golden_forbidden" if err.kind == "forbidden" else failed
            raise _Reject(reason, f"{err} (after actions {actions})") from err
        return actions, observed


def _changing(requests) -> list:
    """The requests that may change state: every one but a GET to an app that declares no view state (a page it only
    renders). Skipping one that did change state cannot go unseen: the replay's end must equal run 1's."""
    reads = {app: not app_rules(app).view_state for app in {r.app for r in requests}}
    return [r for r in requests if r.method not in ("GET", "HEAD") or not reads[r.app]]


def _raise_for_error(run: VerifierRun, phase: str) -> None:
    if run.error is None and run.verdicts is not None:
        return
    reason = _ERROR_REASONS.get(run.error_kind or "crash", "verifier_crash")
    raise _Reject(reason, f"{phase}: {run.error}")


def _diff(before: dict, after: dict) -> str:
    """The first tables that differ between two state dumps, briefly."""
    changed = []
    for app in sorted(set(before) | set(after)):
        tables_a, tables_b = before.get(app, {}), after.get(app, {})
        changed += [f"{app}.{t}" for t in sorted(set(tables_a) | set(tables_b)) if tables_a.get(t) != tables_b.get(t)]
    return "tables " + ", ".join(changed[:5]) if changed else "apps differ"
