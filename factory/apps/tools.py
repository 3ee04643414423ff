"""The coding agent's tools over one app workspace: files (confined to it), the compiler and the contract checker, screenshots.

The workspace is an app spec (`app.yaml`, the kit's `AppSpec`) and, only where the spec cannot express the app, its
extension folder (`mocked_apps/kit/spec/extension.py`). Writing the spec answers whether it compiles; the checker
compiles it first, so a spec that does not compile fails as the law `starts` with the compiler's words.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mocked_apps.checker import CheckerError, CheckReport, LawResult, check_app
from mocked_apps.checker.report import ordered
from mocked_apps.kit.compiler import compile_spec
from mocked_apps.kit.spec import SampleError, SpecError, read_spec
from mocked_apps.kit.spec.derive import derive_families
from mocked_apps.kit.spec.extension import extension_folder

from .draft import SPEC_FILE

_MAX_READ = 40_000
_MAX_WRITE = 200_000
_SKIP = {"__pycache__", ".pytest_cache"}

TOOL_SPECS: tuple[dict[str, Any], ...] = (
    {"name": "list_files", "description": "List the files of the app workspace (paths relative to it).",
     "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "Folder inside the workspace; default '.'."}}}},
    {"name": "read_file", "description": "Read one text file of the workspace.",
     "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "write_file", "description": "Create or replace one file of the workspace with `content`; writing app.yaml "
     "answers whether the spec compiles, and if not, where and why.",
     "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}},
    {"name": "run_checker", "description": "Compile app.yaml and run the app contract checker on it; answers each law's verdict "
     "and evidence, and the task families derived from the spec.", "parameters": {"type": "object", "properties": {}}},
    {"name": "screenshot", "description": "Render one page of a fresh instance at desktop or phone size and save a PNG; answers its path.",
     "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "Page path, e.g. '/' or '/new'."},
                                                     "form_factor": {"type": "string", "enum": ["desktop", "mobile"]}}}},
    {"name": "finish", "description": "Say the app is done: the checker judges it; if a law fails you get the report and continue.",
     "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}}},
)
TOOL_NAMES = tuple(t["name"] for t in TOOL_SPECS)


class ToolError(Exception):
    """A tool call the workspace refuses or cannot do; its message goes back to the model as the tool result."""


@dataclass(frozen=True)
class ToolResult:
    """What one tool call answered; `ok` False marks an error result (the loop goes on)."""

    text: str
    ok: bool = True
    report: CheckReport | None = None


def parse_arguments(raw: str | dict | None) -> dict[str, Any]:
    """Tool-call arguments as a dict; ToolError on bad JSON or a non-object."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as err:
            raise ToolError(f"the arguments are not valid JSON ({err}); send one JSON object") from err
    if not isinstance(raw, dict):
        raise ToolError(f"the arguments must be a JSON object, not {type(raw).__name__}")
    return raw


def report_text(report: CheckReport) -> str:
    """The checker's report, law by law, as the model reads it."""
    head = "ALL LAWS PASS" if report.ok else f"{len(report.failures)} LAW(S) FAIL (fix the first one first)"
    lines = [f"Contract checker on {report.app}: {head} in {report.seconds:.1f}s"]
    for r in report.laws:
        lines.append(f"- {r.law}: {r.verdict.upper()}" + (f" — {r.evidence}" if r.evidence else ""))
    return "\n".join(lines)


class Workspace:
    """One app workspace (a spec and its extension) the agent may change, and the ways to judge it."""

    def __init__(self, root: Path, *, name: str | None = None, shots: Path | None = None, max_pages: int = 12,
                 controls_budget_s: float = 15.0, browser: Any = None):
        self.root = Path(root).resolve()
        self.name = name or self.root.name  # the app's registry name: the spec must keep it
        self.shots = Path(shots) if shots else self.root.parent / "shots"
        self.max_pages, self.controls_budget_s = max_pages, controls_budget_s
        self.browser = browser
        self.checker_runs = 0
        self._last: tuple[str, CheckReport] | None = None

    # ---- dispatch ------------------------------------------------------------------------
    def call(self, name: str, raw_arguments: str | dict | None) -> ToolResult:
        """Run tool `name`; every refusal or failure comes back as an error ToolResult, never raised."""
        try:
            if name not in TOOL_NAMES or name == "finish":
                raise ToolError(f"unknown tool {name!r}; the tools are: {', '.join(TOOL_NAMES)}")
            args = parse_arguments(raw_arguments)
            if name == "list_files":
                return ToolResult("\n".join(self.list_files(str(args.get("path", ".")))) or "(no files)")
            if name == "read_file":
                return ToolResult(self.read_file(_need(args, "path")))
            if name == "write_file":
                return ToolResult(self.write_file(_need(args, "path"), _need(args, "content")))
            if name == "run_checker":
                report = self.run_checker()
                return ToolResult(report_text(report) + "\n" + self.families_text(), ok=True, report=report)
            return ToolResult(self.screenshot(str(args.get("path", "/")), str(args.get("form_factor", "desktop"))))
        except ToolError as err:
            return ToolResult(f"error: {err}", ok=False)

    # ---- files ---------------------------------------------------------------------------
    def resolve(self, path: str) -> Path:
        """`path` inside the workspace; ToolError if it is absolute or escapes it (.., symlinks)."""
        if not isinstance(path, str) or not path.strip():
            raise ToolError("path must be a non-empty string")
        if os.path.isabs(path):
            raise ToolError(f"path {path!r} is absolute; give a path relative to the workspace")
        target = (self.root / path).resolve()
        if target != self.root and self.root not in target.parents:
            raise ToolError(f"path {path!r} escapes the workspace")
        return target

    def list_files(self, path: str = ".") -> list[str]:
        base = self.resolve(path)
        if not base.is_dir():
            raise ToolError(f"{path!r} is not a folder of the workspace")
        return sorted(
            p.relative_to(self.root).as_posix() for p in base.rglob("*")
            if p.is_file() and not (_SKIP & set(p.relative_to(self.root).parts)) and p.suffix != ".pyc"
        )

    def read_file(self, path: str) -> str:
        target = self.resolve(path)
        if not target.is_file():
            raise ToolError(f"no file {path!r} in the workspace")
        try:
            text = target.read_text()
        except UnicodeDecodeError as err:
            raise ToolError(f"{path!r} is not a text file") from err
        return text if len(text) <= _MAX_READ else text[:_MAX_READ] + f"\n... ({len(text) - _MAX_READ} more characters)"

    def write_file(self, path: str, content: str) -> str:
        target = self.resolve(path)
        if not isinstance(content, str):
            raise ToolError("content must be a string")
        if len(content) > _MAX_WRITE:
            raise ToolError(f"content is {len(content)} characters; at most {_MAX_WRITE}")
        if target.is_dir():
            raise ToolError(f"{path!r} is a folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
        wrote = f"wrote {target.relative_to(self.root).as_posix()} ({len(content)} characters)"
        if target != self.spec_path:
            return wrote
        error = self.compile_error()
        return wrote + ("; the spec compiles. " + self.families_text() if error is None else f"; the spec does NOT compile: {error}")

    def digest(self) -> str:
        """A hash of every file: the checker's verdict is reused while nothing changed."""
        h = hashlib.sha256()
        for rel in self.list_files():
            h.update(rel.encode() + b"\0" + (self.root / rel).read_bytes() + b"\0")
        return h.hexdigest()

    # ---- judges --------------------------------------------------------------------------
    @property
    def spec_path(self) -> Path:
        return self.root / SPEC_FILE

    def compile_error(self) -> str | None:
        """Why app.yaml does not compile (read, checked, tables, routes and sample data built), or None when it does.

        The extension is only looked for here, never imported: its code runs in the app's own server process."""
        if not self.spec_path.is_file():
            return f"there is no {SPEC_FILE}; write the app spec there"
        try:
            spec = read_spec(self.spec_path)
            if spec.name != self.name:
                return f"name: the app is {self.name!r}; keep that name (it is how the app is registered)"
            extension_folder(spec, self.spec_path)
            compile_spec(spec)
        except (SpecError, SampleError) as err:
            return str(err).replace(str(self.root) + "/", "")
        return None

    def families(self) -> tuple[str, ...]:
        """Names of the task families derived from the spec (none while it does not compile)."""
        if self.compile_error() is not None:
            return ()
        return tuple(f.name for f in derive_families(read_spec(self.spec_path)))

    def families_text(self) -> str:
        names = self.families()
        return (f"Task families derived from the spec: {', '.join(names)}." if names else
                "No task family derives from the spec yet: give an entity states and transitions, a create form, or a table page.")

    def run_checker(self) -> CheckReport:
        """Compile the spec, then check_app on it (the app runs in a server process, never imported here)."""
        digest = self.digest()
        if self._last is not None and self._last[0] == digest:
            return self._last[1]
        error = self.compile_error()
        if error is not None:
            failed = LawResult(law="starts", verdict="fail", evidence=f"the spec does not compile: {error}")
            report = ordered(self.name, str(self.spec_path), {"starts": failed}, 0.0)
            self._last = (digest, report)
            return report
        self.checker_runs += 1
        try:
            report = check_app(str(self.spec_path), browser=self.browser, max_pages=self.max_pages,
                               controls_budget_s=self.controls_budget_s)
        except CheckerError as err:  # the candidate app's server died under the checker: a failure of the app, said so
            died = LawResult(law="starts", verdict="fail", evidence=f"the app server died during the check: {str(err)[-1500:]}")
            report = ordered(self.name, str(self.spec_path), {"starts": died}, 0.0)
        self._last = (digest, report)
        return report

    def screenshot(self, path: str = "/", form_factor: str = "desktop") -> str:
        """A PNG of `path` in a fresh instance, saved beside the workspace (never inside the app)."""
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        from mocked_apps.kit import AppServer, AppServerError
        from mocked_apps.kit.browser import launch_chromium

        if form_factor not in ("desktop", "mobile"):
            raise ToolError("form_factor must be 'desktop' or 'mobile'")
        self.shots.mkdir(parents=True, exist_ok=True)
        out = self.shots / f"shot-{len(list(self.shots.glob('*.png'))) + 1:03d}-{form_factor}.png"
        if self.compile_error() is not None:
            raise ToolError(f"the spec does not compile: {self.compile_error()}")
        try:
            with AppServer(str(self.spec_path)) as server:
                url = server.url + server.admin.create()["url"].rstrip("/") + "/" + path.lstrip("/")
                if self.browser is not None:  # the session's browser (Playwright's sync API does not nest)
                    status = _shoot(self.browser, url, form_factor, out)
                else:
                    with sync_playwright() as pw:
                        chromium = launch_chromium(pw)
                        try:
                            status = _shoot(chromium, url, form_factor, out)
                        finally:
                            chromium.close()
        except (AppServerError, PlaywrightError) as err:
            raise ToolError(f"screenshot failed: {err}") from err
        return f"saved {out} (HTTP {status})"


def _shoot(browser: Any, url: str, form_factor: str, out: Path) -> int:
    """Open `url` in a fresh context of `browser`, save a full-page PNG to `out`; the HTTP status."""
    from mocked_apps.kit.browser import context_options

    context = browser.new_context(**context_options(form_factor))
    try:
        page = context.new_page()
        response = page.goto(url)
        page.screenshot(path=str(out), full_page=True)
        return response.status if response else 0
    finally:
        context.close()


def _need(args: dict, key: str) -> Any:
    if key not in args:
        raise ToolError(f"missing argument {key!r}")
    return args[key]
