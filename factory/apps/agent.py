"""The coding-agent loop: from an AppSpec and a scaffolded workspace to an app that passes the contract checker, or a rejection.

One round ends each time the model says `finish` (or stops calling tools): the checker judges the
workspace (and the app's own tests must pass). All laws pass -> accepted: the folder is copied to
GYMFACTORY_HOME/apps/<name> and registered by name. A failure goes back to the model as the tool
result (the report, law by law) until the round limit -> rejected with the last report. Every
prompt, turn, tool call and result, report and token count is recorded as JSON lines.
The candidate app is never imported here: the checker and tests run it in child processes.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mocked_apps.checker import CheckReport
from mocked_apps.registry import SHIPPED, home, register

from factory.providers.base import ProviderError

from .chat import Call, ChatAdapter
from .record import SessionLog
from .scaffold import copy_app, scaffold
from .spec import AppSpec
from .tools import Workspace, report_text

Status = Literal["accepted", "rejected", "error"]
_REGISTER = threading.Lock()  # apps.json is read-modify-write; sessions may run in threads


class SynthesisConfig(BaseModel):
    """Limits and checker settings of one synthesis session."""

    model_config = ConfigDict(frozen=True)

    rounds: int = Field(default=3, ge=1, description="Checker verdicts (finish calls) before the app is rejected.")
    max_turns: int = Field(default=40, ge=1, description="Model replies before the session stops (then judged once more).")
    max_pages: int = Field(default=12, ge=1, description="Pages the checker crawls.")
    controls_budget_s: float = Field(default=15.0, gt=0, description="Seconds the checker spends clicking controls.")
    test_timeout_s: float = Field(default=120.0, gt=0, description="Deadline of the app's own tests.")
    require_tests: bool = Field(default=True, description="Acceptance also needs the app's own tests to pass.")


class SynthesisResult(BaseModel):
    """How one session ended."""

    model_config = ConfigDict(frozen=True)

    name: str
    status: Status
    reason: str = Field(default="", description="Why it ended so, in words.")
    rounds: int = 0
    turns: int = 0
    checker_runs: int = 0
    report: CheckReport | None = Field(default=None, description="The checker's last report.")
    app_dir: str | None = Field(default=None, description="The registered app folder (accepted only).")
    workspace: str
    log: str = Field(description="The session's JSON-lines record.")
    usage: dict[str, int] = Field(default_factory=dict, description="Token totals from the SDK responses.")
    seconds: float = 0.0

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"


SYSTEM = """You are a senior engineer writing a mocked web app for a GUI-agent gym, on the gymfactory app kit.
The workspace is one app package (FastAPI routes, SQLModel tables, Jinja2 templates) that already runs and passes
the contract checker: a list + detail + create page over the first entity. Extend it to the spec with the tools.
Rules (the checker enforces them): GET never changes state; every state change is a POST form ending in gym.done(...)
(POST -> 303 -> GET); ids are autoincrement integers and timestamps come from gym.now (never uuid/random/wall clock);
no console errors at 1280x800 and 390x844; no dead controls (every link/button changes state or page; no href="#",
no button that does nothing); every input has a <label for>; buttons and links have text; search is a GET form with
role="search". Templates extend "layout.html" (which extends "kit/base.html"). Timestamps use pydantic.NaiveDatetime.
Never touch files outside the workspace. Keep seed.json believable (dozens of rows, the Northwind Studio cast).
Call run_checker or run_tests whenever you like; call finish when done: the checker then judges the app."""


def _user_prompt(spec: AppSpec, files: list[str]) -> str:
    return (f"Build this app:\n```json\n{spec.model_dump_json(indent=1)}\n```\n"
            f"The workspace holds:\n" + "\n".join(f"- {f}" for f in files))


def _feedback(report: CheckReport | None, tests: tuple[bool, str] | None, round_: int, rounds: int) -> str:
    parts = [f"Round {round_} of {rounds}: the app is NOT accepted yet."]
    if report is not None:
        parts.append(report_text(report))
    if tests is not None and not tests[0]:
        parts.append("The app's own tests fail:\n" + tests[1])
    parts.append("Fix the first failure, then call finish again.")
    return "\n\n".join(parts)


class CodingSession:
    """One app, one model conversation, one workspace; `run()` ends accepted, rejected or error."""

    def __init__(self, spec: AppSpec, chat: ChatAdapter | None, workdir: Path, config: SynthesisConfig | None = None,
                 browser: Any = None):
        if spec.name in SHIPPED:
            raise ValueError(f"app name {spec.name!r} is a shipped app; choose another name")
        self.spec, self.chat, self.config = spec, chat, config or SynthesisConfig()
        self.dir = Path(workdir) / spec.name
        if self.dir.exists():  # a rerun with the same --out starts this app's session afresh
            shutil.rmtree(self.dir)
        self.workspace = Workspace(self.dir / spec.name, shots=self.dir / "shots", max_pages=self.config.max_pages,
                                   controls_budget_s=self.config.controls_budget_s, test_timeout_s=self.config.test_timeout_s,
                                   browser=browser)
        self.log = SessionLog(self.dir / "session.jsonl")
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self.rounds = self.turns = 0
        self.report: CheckReport | None = None
        self._started = time.monotonic()

    def run(self) -> SynthesisResult:
        scaffold(self.spec, self.workspace.root)
        provider = getattr(self.chat, "provider", "template")
        self.log.write("start", app=self.spec.name, spec=self.spec.model_dump(mode="json"), config=self.config.model_dump(),
                       provider=provider, model=getattr(self.chat, "model", None), workspace=str(self.workspace.root))
        if self.chat is None:  # template: the scaffold alone, judged once
            self.rounds = 1
            passed, _tests = self._judge()
            return self._accept("the scaffold passes (template provider: no coding model)") if passed else \
                self._end("rejected", "the scaffold fails the checker")
        try:
            return self._loop()
        except ProviderError as err:
            return self._end("error", f"the model gave no usable answer: {err}")
        finally:
            self.chat.close()

    def _loop(self) -> SynthesisResult:
        system, user = SYSTEM, _user_prompt(self.spec, self.workspace.list_files())
        self.chat.start(system, user)
        self.log.write("prompt", system=system, user=user)
        while self.turns < self.config.max_turns:
            turn = self.chat.step()
            self.turns += 1
            for key, value in turn.usage.items():
                self.usage[key] = self.usage.get(key, 0) + int(value or 0)
            self.log.write("model", turn=self.turns, text=turn.text, stop=turn.stop, usage=turn.usage,
                           calls=[{"id": c.id, "name": c.name, "arguments": c.arguments} for c in turn.calls])
            results: list[tuple[Call, str, bool]] = []
            finished = not turn.calls
            verdict: tuple[bool, str] | None = None
            for call in turn.calls:
                if call.name == "finish":
                    finished = True
                    if verdict is None:
                        verdict = self._round()
                    text, ok = verdict[1], True
                else:
                    result = self.workspace.call(call.name, call.arguments)
                    text, ok = result.text, result.ok
                    if result.report is not None:
                        self.log.write("checker", round=self.rounds, source="run_checker", report=result.report.model_dump(mode="json"))
                self.log.write("tool", turn=self.turns, id=call.id, name=call.name, arguments=call.arguments, ok=ok, result=text)
                results.append((call, text, ok))
            if finished and verdict is None:  # the model stopped talking: that is a finish too
                verdict = self._round()
            if verdict is not None and verdict[0]:
                return self._accept(f"all laws pass after {self.rounds} round(s)")
            if verdict is not None and self.rounds >= self.config.rounds:
                return self._end("rejected", f"round limit {self.config.rounds} reached and the app still fails")
            if results:
                self.chat.add_results(results)
            if verdict is not None and not turn.calls:
                self.chat.add_user(verdict[1])
        self.rounds += 1
        passed, _ = self._judge()
        if passed:
            return self._accept(f"all laws pass at the turn limit ({self.config.max_turns})")
        return self._end("rejected", f"turn limit {self.config.max_turns} reached and the app still fails")

    def _round(self) -> tuple[bool, str]:
        """A finish: judge the workspace; (accepted?, what the model is told)."""
        self.rounds += 1
        passed, tests = self._judge()
        if passed:
            return True, "Accepted: " + report_text(self.report)
        return False, _feedback(self.report, tests, self.rounds, self.config.rounds)

    def _judge(self) -> tuple[bool, tuple[bool, str] | None]:
        self.report = self.workspace.run_checker()
        self.log.write("checker", round=self.rounds, source="finish", report=self.report.model_dump(mode="json"))
        tests = None
        if self.report.ok and self.config.require_tests:
            tests = self.workspace.run_tests()
            self.log.write("tests", round=self.rounds, passed=tests[0], output=tests[1])
        return self.report.ok and (tests is None or tests[0]), tests

    def _accept(self, reason: str) -> SynthesisResult:
        with _REGISTER:
            dest = copy_app(self.workspace.root, home() / "apps" / self.spec.name)
            register(self.spec.name, dest)
        self.log.write("registered", name=self.spec.name, folder=str(dest))
        return self._end("accepted", reason, app_dir=str(dest))

    def _end(self, status: Status, reason: str, app_dir: str | None = None) -> SynthesisResult:
        result = SynthesisResult(
            name=self.spec.name, status=status, reason=reason, rounds=self.rounds, turns=self.turns,
            checker_runs=self.workspace.checker_runs, report=self.report, app_dir=app_dir, workspace=str(self.workspace.root),
            log=str(self.log.path), usage=dict(self.usage), seconds=round(time.monotonic() - self._started, 2),
        )
        self.log.write("end", **json.loads(result.model_dump_json(exclude={"report"})))
        return result


def synthesize_app(spec: AppSpec, chat: ChatAdapter | None, workdir: Path, config: SynthesisConfig | None = None,
                   browser: Any = None) -> SynthesisResult:
    """Scaffold `spec` in `workdir/<name>/`, let the model iterate on checker feedback, accept (register) or reject."""
    return CodingSession(spec, chat, workdir, config, browser).run()
