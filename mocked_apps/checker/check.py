"""`check_app`: start an app's real server, drive it with a real browser, and judge every law."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from mocked_apps.kit import AdminError, AppServer, AppServerError
from mocked_apps.registry import UnknownApp, resolve
from mocked_apps.kit.browser import context_options, launch_chromium

from . import admin, laws
from .content import content_law
from .admin import Finding, Target
from .crawl import PageProbe
from .lane import lane
from .links import links_law
from .faults import ServerLog, exception_line, tracebacks, trimmed
from .report import LAWS, CheckReport, Coverage, LawResult, ordered


class CheckerError(RuntimeError):
    """The check could not go on (the app server process died under it); raised, never turned into a verdict."""


_APP_FAULTS = (AdminError, httpx.HTTPError, PlaywrightError)
"""Errors an app can cause mid-law (an admin call answering 500, a page that hangs): a failed law, with the reason."""


class _Stopped(Exception):
    """A step failed in a way that leaves nothing for the laws after it (recorded as 'not run')."""


def check_app(
    ref: str,
    *,
    browser: Browser | None = None,
    max_pages: int = 40,
    controls_budget_s: float = 45.0,
    variant: int = 0,
) -> CheckReport:
    """Check every law of Contract 1 on the app `ref` (registry name, module or package folder), its instances in
    appearance `variant` (0: as the app draws itself; see mocked_apps/kit/variant.py).

    `controls_budget_s` bounds the clicking at each viewport; what it leaves unclicked is counted in the coverage.
    """
    start = time.monotonic()
    results: dict[str, LawResult] = {}
    server: AppServer | None = None
    lane("phone")  # its Chromium (first use in this process) launches while the app server starts
    try:
        server = AppServer(resolve(ref)).start()
        manifest = server.admin.manifest()
    except (UnknownApp, AppServerError, AdminError) as err:
        if server is not None:
            server.stop()
        results["starts"] = _started_badly(err, time.monotonic() - start)
        return ordered(ref, ref, results, time.monotonic() - start)
    results["starts"] = LawResult(law="starts", verdict="pass", evidence=f"{server.url} healthy", seconds=round(time.monotonic() - start, 2))
    coverage: tuple[Coverage, ...] = ()
    try:
        with httpx.Client(timeout=30) as http:
            target = Target(url=server.url, token=server.token, admin=admin.ViewStateBlind(server.url, server.token, manifest.get("view_state", ()), variant),
                            http=http, manifest=manifest)
            steps = _Steps(server, results)
            try:
                steps.run(("default_seed",), lambda: {"default_seed": admin.default_seed(target)}, stop_on_fail=True)
                for law, judge in (("admin_token", admin.admin_token), ("instance_ids", admin.instance_ids), ("bad_seed", admin.bad_seed)):
                    steps.run((law,), lambda judge=judge, law=law: {law: judge(target)})
                with fresh_browser(browser) as chromium:
                    coverage = _browser_laws(target, chromium, steps, max_pages, controls_budget_s)
            except _Stopped as stop:
                steps.not_run(str(stop))
    finally:
        server.stop()
    return ordered(manifest.get("name", ref), ref, results, time.monotonic() - start, coverage, variant)


def _started_badly(err: Exception, seconds: float) -> LawResult:
    """The starts law's failure: the server's traceback trimmed, and its exception as the cause."""
    text = str(err)
    found = tracebacks(text)
    if found:
        head = text.split("\n", 1)[0]
        evidence = f"{head}\n{trimmed(found[-1])}"
    else:
        evidence = "\n".join(text.strip().splitlines()[-6:])
    return LawResult(law="starts", verdict="fail", evidence=evidence, cause=exception_line(text), seconds=round(seconds, 2))


class _Steps:
    """Runs the check's steps: records each step's findings, with the server traceback of a failure."""

    def __init__(self, server: AppServer, results: dict[str, LawResult]):
        self.server = server
        self.results = results
        self.log = ServerLog(server.output)

    def run(self, names: tuple[str, ...], fn: Callable[[], dict[str, Finding]], stop_on_fail: bool = False) -> None:
        """Judge `names` with `fn`; an app fault fails the first of them and stops the check ('not run' for the rest)."""
        began = time.monotonic()
        self.log.new_traceback()
        fault: Exception | None = None
        try:
            findings = fn()
        except _APP_FAULTS as err:
            if not self.server.alive():
                raise CheckerError(f"app server died while checking {names[0]}:\n{self.server.output()}") from err
            fault = err
            findings = {names[0]: Finding(ok=False, evidence=f"{type(err).__name__}: {_tail(str(err))}", cause=f"{type(err).__name__}: {_first(str(err))}")}
        traceback = self.log.new_traceback()
        if traceback:
            failing = next((law for law, f in findings.items() if not f.ok), None)
            if failing is not None:
                f = findings[failing]
                findings[failing] = f.model_copy(update={"evidence": f"{f.evidence}\nserver traceback:\n{traceback}", "cause": exception_line(traceback)})
        seconds = round((time.monotonic() - began) / max(len(findings), 1), 2)
        for law, finding in findings.items():
            verdict = "pass" if finding.ok else ("fail" if finding.ran else "not run")
            self.results[law] = LawResult(law=law, verdict=verdict, evidence=finding.evidence, cause=finding.cause, seconds=seconds)
        if fault is not None:
            raise _Stopped(f"the check stopped at {names[0]}: {type(fault).__name__}: {_first(str(fault))}")
        if stop_on_fail and not all(f.ok for f in findings.values()):
            raise _Stopped(f"the check stopped at {names[0]}, which every later law needs")

    def not_run(self, why: str) -> None:
        """Every law not judged yet could not run: say why, and fail it."""
        for law in LAWS:
            self.results.setdefault(law, LawResult(law=law, verdict="not run", evidence=f"not run: {why}"))


def _browser_laws(t: Target, chromium: Browser, steps: _Steps, max_pages: int, budget_s: float) -> tuple[Coverage, ...]:
    """The laws that need pages: instances and their snapshots first, then crawl, clicks, replays, storage.

    Desktop pages run on `chromium` in this thread; phone pages and the second replay on the lane's Chromium,
    at the same time.
    """
    phone_lane = lane("phone")
    in_lane: dict[str, Callable[[Callable[[PageProbe], Any]], Future]] = {}

    with ExitStack() as stack:
        def lane_context(name: str, form_factor: str) -> None:
            """A context on the lane's Chromium; `in_lane[name](fn)` runs fn(its probe) there."""
            probe: PageProbe = phone_lane.call(lambda b: PageProbe(b.new_context(**context_options(form_factor)).new_page(), t.url))
            stack.callback(lambda: phone_lane.call(lambda _b: probe.page.context.close()))
            in_lane[name] = lambda fn: phone_lane.submit(lambda _b: fn(probe))

        probes: dict[str, PageProbe] = {}

        def open_context(name: str, form_factor: str) -> PageProbe:
            context = chromium.new_context(**context_options(form_factor))
            stack.callback(context.close)
            probes[name] = PageProbe(context.new_page(), t.url)
            return probes[name]

        lane_context("phone", "mobile")
        on_phone = in_lane["phone"]
        desktop = open_context("desktop", "desktop")
        held: dict[str, Any] = {}

        def survey() -> dict[str, Finding]:
            held["fresh"] = fresh = laws.create_fresh(t)
            console, readonly, held["survey"] = laws.survey_laws(t, desktop, on_phone, fresh, max_pages)
            held["crawl_readonly"] = readonly
            return {"console": console, "links": links_law(held["survey"].swept), "content": content_law(held["survey"].visits)}

        steps.run(("console", "links", "content"), survey)
        fresh: laws.Fresh = held["fresh"]

        def controls() -> dict[str, Finding]:
            dead, readonly, ui_state, held["outcomes"] = laws.control_laws(t, desktop, on_phone, fresh, held["survey"], held["crawl_readonly"], budget_s)
            return {"get_readonly": readonly, "dead_controls": dead, "ui_state": ui_state}

        steps.run(("dead_controls", "get_readonly", "ui_state"), controls)
        actions = held["outcomes"]["desktop"].actions
        replay_probe = open_context("replay A1", "desktop")
        lane_context("replay A2", "desktop")
        steps.run(("determinism", "isolation", "reset"), lambda: laws.replay_laws(t, replay_probe, in_lane["replay A2"], fresh, held["survey"], actions))
        steps.run(("browser_storage",), lambda: {"browser_storage": laws.storage_law(probes, in_lane, t.url)})
        for instance_id in [fresh.observer, *fresh.explore.values(), *fresh.replay]:
            t.admin.delete(instance_id)
        return laws.coverage(held["survey"], held["outcomes"])


@contextmanager
def fresh_browser(browser: Browser | None) -> Iterator[Browser]:
    """The given browser, or a fresh Chromium for this check."""
    if browser is not None:
        yield browser
        return
    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        try:
            yield chromium
        finally:
            chromium.close()


def _tail(text: str, lines: int = 6) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _first(text: str) -> str:
    return next((line.strip() for line in text.strip().splitlines() if line.strip()), "")
