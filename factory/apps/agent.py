"""The coding-agent loop: from a brief to an app spec that compiles and passes the contract checker, or a rejection.

The workspace starts as the brief's draft spec (`app.yaml`, which compiles and passes). The model writes
the app as a spec first: entities, state machines, create forms, pages from the kit's archetypes; only
where a spec cannot express the app does it add an extension (its own routes and templates, see
`mocked_apps/kit/spec/extension.py`). One round ends each time the model says `finish` (or stops calling
tools): the factory compiles the spec, the checker judges the app, and the spec must derive at least
`min_families` task families. All pass -> accepted: the workspace is copied to GYMFACTORY_HOME/apps/<name>
and its spec registered by name, so the app's derived families join synthesis. A failure goes back to
the model as the tool result (the compiler's or the checker's words, law by law) until the round limit
-> rejected with the last report. Every prompt, turn, tool call and result, report and token count is
recorded as JSON lines. An extension is never imported here: the checker runs the app in a child process.
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

from mocked_apps.catalogue import SPECS
from mocked_apps.kit.spec import AppSpec as KitSpec

from .chat import Call, ChatAdapter
from .draft import copy_app, write_draft
from .record import SessionLog
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
    min_families: int = Field(default=1, ge=0, description="Task families the spec must derive (so the app serves tasks).")


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
    spec: str | None = Field(default=None, description="The registered spec file (accepted only).")
    families: tuple[str, ...] = Field(default=(), description="Task families derived from the last spec.")
    workspace: str
    log: str = Field(description="The session's JSON-lines record.")
    usage: dict[str, int] = Field(default_factory=dict, description="Token totals from the SDK responses.")
    seconds: float = 0.0

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"


SYSTEM = """You are a senior engineer writing a mocked web app for a GUI-agent gym, on the gymfactory app kit.
Write the app as a SPEC first: app.yaml, a declarative app (schema below) that the kit compiles into a running app:
entities with typed fields and sample data, states and transitions (inputs, guards, effects, confirm steps), computed
fields, create forms or wizards, pages from archetypes (table, board, catalogue, feed, booking, calendar, chat,
settings, maplist, media), navigation and a theme. The workspace already holds a draft app.yaml that compiles and passes
the checker; grow it to the brief. Task families are derived from the spec (moves through its state machine, creations,
lookups), so a real state machine and create forms make the app useful.
Only where the spec cannot express the app, add an extension: `extension: ext` in app.yaml, ext/routes.py defining
mount(app, router) (app.spec, app.model(entity) -> SQLModel table, render from mocked_apps.kit.archetypes.common;
`gym: GymDep` from mocked_apps.kit.context), ext/templates/*.html extending "arch/layout.html", and a page
{archetype: custom, path: /PATH, title: TITLE} for each of its pages (paths outside /<entity>/ and the archetypes').
Rules (the checker enforces them): GET never changes state; every change is a POST ending in gym.done(...) (303 -> GET);
no console errors at 1280x800 and 390x844; no dead controls; every input has a label. Keep the app's name.
Writing app.yaml answers whether it compiles; call run_checker whenever you like; call finish when done: the spec is
compiled and the checker judges the app."""


def _user_prompt(brief: AppSpec, files: list[str]) -> str:
    schema = json.dumps(KitSpec.model_json_schema(by_alias=True), separators=(",", ":"))
    example = (SPECS / "pawcare.yaml").read_text()
    return (f"Build this app:\n```json\n{brief.model_dump_json(indent=1)}\n```\n"
            f"The workspace holds:\n" + "\n".join(f"- {f}" for f in files) +
            f"\n\nThe spec schema (JSON Schema of app.yaml):\n{schema}\n\nA catalogue spec, for its shape:\n```yaml\n{example}```")


def _feedback(report: CheckReport | None, families: str, round_: int, rounds: int) -> str:
    parts = [f"Round {round_} of {rounds}: the app is NOT accepted yet."]
    if report is not None:
        parts.append(report_text(report))
    parts += [families, "Fix the first failure, then call finish again."]
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
        self.workspace = Workspace(self.dir / spec.name, name=spec.name, shots=self.dir / "shots", max_pages=self.config.max_pages,
                                   controls_budget_s=self.config.controls_budget_s, browser=browser)
        self.log = SessionLog(self.dir / "session.jsonl")
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self.rounds = self.turns = 0
        self.report: CheckReport | None = None
        self._started = time.monotonic()

    def run(self) -> SynthesisResult:
        write_draft(self.spec, self.workspace.root)
        provider = getattr(self.chat, "provider", "template")
        self.log.write("start", app=self.spec.name, spec=self.spec.model_dump(mode="json"), config=self.config.model_dump(),
                       provider=provider, model=getattr(self.chat, "model", None), workspace=str(self.workspace.root))
        if self.chat is None:  # template: the brief's draft spec alone, compiled and judged once
            self.rounds = 1
            return self._accept("the draft spec passes (template provider: no coding model)") if self._judge() else \
                self._end("rejected", "the draft spec fails the checker")
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
        if self._judge():
            return self._accept(f"all laws pass at the turn limit ({self.config.max_turns})")
        return self._end("rejected", f"turn limit {self.config.max_turns} reached and the app still fails")

    def _round(self) -> tuple[bool, str]:
        """A finish: judge the workspace; (accepted?, what the model is told)."""
        self.rounds += 1
        if self._judge():
            return True, "Accepted: " + report_text(self.report) + "\n" + self.workspace.families_text()
        return False, _feedback(self.report, self.workspace.families_text(), self.rounds, self.config.rounds)

    def _judge(self) -> bool:
        """Compile and check the spec; it passes when every law does and it derives enough task families."""
        self.report = self.workspace.run_checker()
        families = self.workspace.families()
        self.log.write("checker", round=self.rounds, source="finish", report=self.report.model_dump(mode="json"),
                       families=list(families))
        return self.report.ok and len(families) >= self.config.min_families

    def _accept(self, reason: str) -> SynthesisResult:
        with _REGISTER:
            dest = copy_app(self.workspace.root, home() / "apps" / self.spec.name)
            register(self.spec.name, dest / self.workspace.spec_path.name)
        self.log.write("registered", name=self.spec.name, folder=str(dest))
        return self._end("accepted", reason, app_dir=str(dest))

    def _end(self, status: Status, reason: str, app_dir: str | None = None) -> SynthesisResult:
        result = SynthesisResult(
            name=self.spec.name, status=status, reason=reason, rounds=self.rounds, turns=self.turns,
            checker_runs=self.workspace.checker_runs, report=self.report, app_dir=app_dir, workspace=str(self.workspace.root),
            spec=str(Path(app_dir) / self.workspace.spec_path.name) if app_dir else None, families=self.workspace.families(),
            log=str(self.log.path), usage=dict(self.usage), seconds=round(time.monotonic() - self._started, 2),
        )
        self.log.write("end", **json.loads(result.model_dump_json(exclude={"report"})))
        return result


def synthesize_app(spec: AppSpec, chat: ChatAdapter | None, workdir: Path, config: SynthesisConfig | None = None,
                   browser: Any = None) -> SynthesisResult:
    """Draft `spec` as an app spec in `workdir/<name>/`, let the model iterate on compiler and checker feedback,
    accept (register the spec) or reject."""
    return CodingSession(spec, chat, workdir, config, browser).run()
