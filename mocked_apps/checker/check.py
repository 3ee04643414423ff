"""`check_app`: start an app's real server, drive it with a real browser, and judge every law."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from mocked_apps.kit import AdminError, AppServer, AppServerError
from mocked_apps.registry import UnknownApp, resolve
from runtime.browser import context_options, launch_chromium

from . import laws
from .crawl import PageProbe, relative
from .report import CheckReport, LawResult, ordered


class CheckerError(RuntimeError):
    """The check could not go on (the app server process died under it); raised, never turned into a verdict."""


_APP_FAULTS = (AdminError, httpx.HTTPError, PlaywrightError)
"""Errors an app can cause mid-law (an admin call answering 500, a page that hangs): a failed law, with the reason."""


def check_app(
    ref: str,
    *,
    browser: Browser | None = None,
    max_pages: int = 40,
    controls_budget_s: float = 45.0,
) -> CheckReport:
    """Check every law of Contract 1 on the app `ref` (registry name, module or package folder)."""
    start = time.monotonic()
    results: dict[str, LawResult] = {}
    server: AppServer | None = None
    try:
        server = AppServer(resolve(ref)).start()
        manifest = server.admin.manifest()
    except (UnknownApp, AppServerError, AdminError) as err:
        if server is not None:
            server.stop()
        results["starts"] = LawResult(law="starts", verdict="fail", evidence=_tail(str(err)), seconds=round(time.monotonic() - start, 2))
        return ordered(ref, ref, results, time.monotonic() - start)
    results["starts"] = LawResult(law="starts", verdict="pass", evidence=f"{server.url} healthy", seconds=round(time.monotonic() - start, 2))
    try:
        with httpx.Client(timeout=30) as http, _browser(browser) as chromium:
            target = laws.Target(url=server.url, token=server.token, admin=server.admin, http=http, manifest=manifest)
            _run_laws(target, chromium, server, results, max_pages, controls_budget_s)
    finally:
        server.stop()
    return ordered(manifest.get("name", ref), ref, results, time.monotonic() - start)


def _run_laws(t: laws.Target, chromium: Browser, server: AppServer, results: dict[str, LawResult], max_pages: int, budget_s: float) -> None:
    def phase(names: tuple[str, ...], fn: Callable[[], tuple[dict[str, laws.Finding], Any]]) -> Any:
        """Run one step that judges `names`; an app fault fails the first of them and returns None."""
        began = time.monotonic()
        extra = None
        try:
            findings, extra = fn()
        except _APP_FAULTS as err:
            if not server.alive():
                raise CheckerError(f"app server died while checking {names[0]}:\n{server.output()}") from err
            findings = {names[0]: laws.Finding(ok=False, evidence=f"{type(err).__name__}: {_tail(str(err))}")}
        seconds = round((time.monotonic() - began) / len(findings), 2)
        for law, finding in findings.items():
            results[law] = LawResult(law=law, verdict="pass" if finding.ok else "fail", evidence=finding.evidence, seconds=seconds)
        return extra

    for law, check in (("admin_token", laws.admin_token), ("instance_ids", laws.instance_ids), ("bad_seed", laws.bad_seed)):
        phase((law,), lambda check=check, law=law: ({law: check(t)}, None))
    desktop_ctx = chromium.new_context(**context_options("desktop"))
    mobile_ctx = chromium.new_context(**context_options("mobile"))
    try:
        desktop = PageProbe(desktop_ctx.new_page(), t.url)
        mobile = PageProbe(mobile_ctx.new_page(), t.url)
        instance_id = t.admin.create()["instance_id"]

        def crawl_step():
            console, readonly, found = laws.crawl_laws(t, desktop, mobile, instance_id, max_pages)
            return {"console": console, "get_readonly": readonly}, found

        found: laws.Crawled | None = phase(("console", "get_readonly"), crawl_step)
        if found is None:
            return

        def controls_step():
            finding, explored = laws.dead_controls(t, desktop, instance_id, found.controls, budget_s)
            return {"dead_controls": finding}, explored.actions

        actions = phase(("dead_controls",), controls_step) or ()
        base = t.base(instance_id)
        pages = list(dict.fromkeys(relative(v.url, base) for v in found.visits if v.status and v.status < 400))
        phase(("determinism", "isolation", "reset"), lambda: (laws.replay_laws(t, desktop, pages, actions), None))
    finally:
        desktop_ctx.close()
        mobile_ctx.close()


@contextmanager
def _browser(browser: Browser | None) -> Iterator[Browser]:
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
