"""The browser laws of Contract 1, each judged on fresh instances with snapshots of its own.

Every instance a law needs is created, and its "before" snapshot taken, before any control is
clicked anywhere: an observer (crawled with GETs only, then left alone), one instance per viewport
for clicking controls, and two replay instances. So a module-level cache or browser storage that
the exploration fills cannot hide in a "before" that already holds it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field

from mocked_apps.kit import AdminClient

from .admin import Finding, Target
from .controls import Control, ControlsOutcome, LinksOutcome, check_links, collect, explore, forms, perform
from .crawl import PageProbe, Visit, crawl, pattern, relative
from .links import Sweep, sweep
from .report import Coverage
from .storage import written
from .uistate import WriteLog, ui_state_law

MAX_TEXT_PAGES = 15
"""Pages whose text the isolation and reset laws compare: the first crawled page of each pattern."""
MAX_ACTIONS = 8
"""State-changing controls replayed by the determinism, isolation and reset laws."""
VIEWPORTS = {"desktop": "desktop 1280x800", "phone": "phone 390x844"}
"""Viewport id -> how the report names it."""


class Fresh(BaseModel):
    """The instances of one check, and their dumps taken right after creation."""

    model_config = ConfigDict(frozen=True)

    observer: str = Field(description="Crawled with GETs only, then never touched: isolation's witness.")
    explore: dict[str, str] = Field(description="Viewport -> the instance its controls are clicked on (reset between clicks).")
    replay: tuple[str, str] = Field(description="A1 and A2: the state-changing controls replayed on each.")
    initial: dict[str, dict] = Field(description="Instance id -> its dump right after creation.")


def create_fresh(t: Target) -> Fresh:
    """Every instance the browser laws need, each dumped before anything happens to any of them."""
    ids = [t.admin.create()["instance_id"] for _ in range(5)]
    return Fresh(observer=ids[0], explore={"desktop": ids[1], "phone": ids[2]}, replay=(ids[3], ids[4]),
                 initial={i: t.admin.state(i) for i in ids})


class Survey(BaseModel):
    """What the GET-only crawl of the observer found, per viewport."""

    model_config = ConfigDict(frozen=True)

    visits: tuple[Visit, ...] = Field(description="Desktop page loads, in crawl order.")
    texts: dict[str, str] = Field(description="Path -> HTML of the first rendered page of each pattern (at most MAX_TEXT_PAGES), before any click.")
    controls: dict[str, tuple[Control, ...]] = Field(description="Viewport -> the controls seen there.")
    forms: dict[str, frozenset[tuple[str, str]]] = Field(description="Viewport -> (method, action pattern) of its forms.")
    pages: dict[str, int] = Field(description="Viewport -> pages loaded there.")
    links: LinksOutcome
    swept: Sweep = Field(description="Every same-origin link reachable from the crawl, fetched over plain HTTP.")


OnPhone = Callable[[Callable[[PageProbe], Any]], Future]
"""Runs `fn(probe)` on a probe that lives in the lane (another thread, another Chromium) and answers a Future."""


def survey_laws(t: Target, desktop: PageProbe, on_phone: OnPhone, fresh: Fresh, max_pages: int) -> tuple[Finding, Finding, Survey]:
    """console and (the page-load half of) get_readonly: crawl the observer with GETs only, at both viewports."""
    base = t.base(fresh.observer)
    second = t.admin.state(fresh.observer)
    start = ["/"] + [p["path"] for p in t.manifest.get("pages", ())]
    controls: dict[str, list[Control]] = {"desktop": [], "phone": []}
    found: dict[str, set[tuple[str, str]]] = {"desktop": set(), "phone": set()}

    def take(viewport: str, probe: PageProbe) -> None:
        controls[viewport].extend(collect(probe, base))
        found[viewport] |= forms(probe)

    def phone_page(url: str) -> Callable[[PageProbe], Visit]:
        def visit(phone: PageProbe) -> Visit:
            seen = phone.visit(url, links=False)
            if seen.status is not None and seen.status < 400:
                take("phone", phone)
            return seen
        return visit

    queued: dict[str, Future] = {}  # page pattern -> the phone's visit of its first page, made while the crawl goes on

    def queue_phone(visit: Visit) -> None:
        if pattern(visit.url) not in queued:
            queued[pattern(visit.url)] = on_phone(phone_page(visit.url))

    def on_page(visit: Visit) -> None:
        take("desktop", desktop)
        queue_phone(visit)

    visits = crawl(desktop, base, start, max_pages=max_pages, on_page=on_page)
    for visit in _one_per_pattern(visits):  # patterns whose first page failed are seen at the phone size too
        queue_phone(visit)
    phone_visits: list[Visit] = [queued[pattern(v.url)].result() for v in _one_per_pattern(visits)]
    problems = [_page_problem("desktop", v, base) for v in visits] + [_page_problem("phone", v, base) for v in phone_visits]
    reached: dict[str, list[str]] = {}
    for visit in visits:
        reached.setdefault(visit.url, []).extend(visit.links)
        reached.setdefault(visit.final_url, [])
    for control in controls["desktop"] + controls["phone"]:
        if control.href:
            reached.setdefault(base + control.page, []).append(control.href)
    swept = sweep(t.http, t.url, base, reached)
    t.remember(swept.statuses)  # the sampled link check below reads these, fetching nothing twice
    links = check_links(controls["desktop"] + controls["phone"], base, t.status)
    after = t.admin.state(fresh.observer)
    problems = [p for p in problems if p]
    rendered = [v for v in visits if v.status is not None and v.status < 400]
    if problems:
        console = Finding(ok=False, evidence=_lines(problems))
    elif not rendered:
        console = Finding.not_run("no page was crawled")
    else:
        console = Finding(ok=True, evidence=f"{len(visits)} pages clean at 1280x800, {len(phone_visits)} (one per pattern) at 390x844")
    first = fresh.initial[fresh.observer]
    if first != second:
        readonly = Finding(ok=False, evidence=f"two dumps read in a row differ: {_dump_diff(first, second)}")
    elif after != first:
        readonly = Finding(ok=False, evidence=f"loading {len(visits) + len(phone_visits)} pages and {swept.fetched} links with GETs changed the state: {_dump_diff(first, after)}")
    else:
        readonly = Finding(ok=True, evidence=f"dump stable; {len(visits) + len(phone_visits)} GET page loads at two viewports and {swept.fetched} links left it unchanged")
    texts = page_html(t, fresh.observer, [relative(v.url, base) for v in _one_per_pattern(rendered)[:MAX_TEXT_PAGES]])
    survey = Survey(
        visits=tuple(visits), texts=texts, links=links, swept=swept,
        controls={k: tuple(v) for k, v in controls.items()}, forms={k: frozenset(v) for k, v in found.items()},
        pages={"desktop": len(visits), "phone": len(phone_visits)},
    )
    return console, readonly, survey


def _one_per_pattern(visits: list[Visit]) -> list[Visit]:
    firsts: dict[str, Visit] = {}
    for visit in visits:
        firsts.setdefault(pattern(visit.url), visit)
    return list(firsts.values())


def _page_problem(viewport: str, visit: Visit, base: str) -> str | None:
    where = f"{viewport} {relative(visit.url, base)}"
    if visit.status is None or visit.status >= 400:
        return f"{where}: page answered {visit.status}"
    if visit.errors:
        return f"{where}: {visit.errors[0]}" + (f" (+{len(visit.errors) - 1} more)" if len(visit.errors) > 1 else "")
    return None


def control_laws(
    t: Target, desktop: PageProbe, on_phone: OnPhone, fresh: Fresh, survey: Survey, crawl_readonly: Finding, budget_s: float
) -> tuple[Finding, Finding, Finding, dict[str, ControlsOutcome]]:
    """dead_controls, get_readonly and ui_state: every control family and form clicked at each viewport, on its own
    fresh instance, the two viewports at once (the phone's on its own thread, browser and admin connection)."""

    writes: dict[str, WriteLog] = {}

    def run(viewport: str, probe: PageProbe) -> ControlsOutcome:
        instance_id = fresh.explore[viewport]
        admin = AdminClient(t.url, t.token)  # one per thread: the two sides never share a connection
        http = httpx.Client(timeout=30)
        try:
            log = writes[viewport] = WriteLog(
                fresh.initial[instance_id], lambda: page_html(t, instance_id, list(survey.texts), http),
                t.manifest.get("view_state", ()), viewport,
            )
            log.baseline()  # the instance is untouched so far (explore resets it first anyway)
            return explore(
                probe, t.base(instance_id), list(survey.controls[viewport]),
                reset=lambda: admin.reset(instance_id), dump=lambda: admin.state(instance_id),
                budget_s=budget_s, label=viewport, on_write=lambda control, dump: log.record(control.describe(), dump),
            )
        finally:
            admin.close()
            http.close()

    phone = on_phone(lambda probe: run("phone", probe))
    try:
        outcomes = {"desktop": run("desktop", desktop)}
    finally:
        outcomes_phone = phone.result()  # waited for even when the desktop side failed: the lane stays in step
    outcomes["phone"] = outcomes_phone
    ui_state = ui_state_law(w for log in writes.values() for w in log.writes)
    violations = list(survey.links.violations) + [v for o in outcomes.values() for v in o.violations]
    summary = "; ".join(
        f"{viewport}: {o.checked} distinct controls, {o.clicked} clicked ({len(o.actions)} change state), {o.repeats} judged by sampled look-alikes"
        + (f", {o.unchecked} left unchecked: time budget {budget_s:.0f}s spent" if o.unchecked else "")
        for viewport, o in outcomes.items()
    )
    clicked = sum(o.clicked for o in outcomes.values())
    if violations:
        dead = Finding(ok=False, evidence=_lines(violations) + f"\n[{summary}]")
    elif not clicked and not survey.links.judged:
        dead = Finding.not_run(f"no control was found to click ({summary})")
    else:
        dead = Finding(ok=True, evidence=summary)
    writes = [w for o in outcomes.values() for w in o.get_writes]
    if not crawl_readonly.ok:
        readonly = crawl_readonly
    elif writes:
        readonly = Finding(ok=False, evidence=_lines(writes))
    else:
        readonly = Finding(ok=True, evidence=crawl_readonly.evidence + "; no click changed the state by GET alone")
    return dead, readonly, ui_state, outcomes


def coverage(survey: Survey, outcomes: dict[str, ControlsOutcome]) -> tuple[Coverage, ...]:
    """Per viewport: pages, controls and forms exercised of those found."""
    out = []
    for viewport, label in VIEWPORTS.items():
        keys = {c.key for c in survey.controls.get(viewport, ())}
        o = outcomes.get(viewport)
        found_forms = survey.forms.get(viewport, frozenset())
        out.append(Coverage(
            viewport=label, pages=survey.pages.get(viewport, 0), controls_found=len(keys),
            controls_exercised=(o.clicked if o else 0) + len(keys & survey.links.judged),
            controls_sampled=(o.repeats if o else 0) + len(keys & survey.links.sampled),
            controls_unchecked=o.unchecked if o else 0,
            forms_found=len(found_forms), forms_exercised=len(found_forms & o.forms) if o else 0,
        ))
    return tuple(out)


def replay_laws(t: Target, replay_probe: PageProbe, on_a2: OnPhone, fresh: Fresh, survey: Survey, actions: tuple[Control, ...]) -> dict[str, Finding]:
    """determinism, isolation, reset: the state-changing controls replayed on A1 (here) and A2 (in the lane, at the
    same time, in a desktop context of its own); the observer must not notice."""
    a1, a2 = fresh.replay
    a1_0, a2_0 = fresh.initial[a1], fresh.initial[a2]
    if a1_0 != a2_0:
        differ = Finding(ok=False, evidence=f"two instances from the same seed and clock differ: {_dump_diff(a1_0, a2_0)}")
        return {"determinism": differ} | {law: Finding.not_run("the fresh instances already differ") for law in ("isolation", "reset")}
    if not actions:
        why = "no control changed the state, so there is nothing to replay"
        return {law: Finding.not_run(why) for law in ("determinism", "isolation", "reset")}
    replayed = _varied(actions)[:MAX_ACTIONS]
    named = ", ".join(c.describe() for c in replayed[:3]) + ("…" if len(replayed) > 3 else "")
    second = on_a2(lambda probe: _apply(probe, t.base(a2), replayed))  # A2 replays at the same time, in the lane
    try:
        out1 = _apply(replay_probe, t.base(a1), replayed)
    finally:
        out2 = second.result()
    a1_1, a2_1 = t.admin.state(a1), t.admin.state(a2)
    found: dict[str, Finding] = {}
    done = sum(o == "ok" for o in out1)
    if not done:
        found["determinism"] = Finding.not_run(f"none of the {len(replayed)} actions could be replayed: {replayed[0].describe()}: {out1[0]}")
    elif out1 != out2:
        i = next(i for i, (x, y) in enumerate(zip(out1, out2)) if x != y)
        found["determinism"] = Finding(ok=False, evidence=f"{replayed[i].describe()}: {out1[i]} in A1 but {out2[i]} in A2")
    elif a1_1 != a2_1:
        found["determinism"] = Finding(ok=False, evidence=f"the same {len(replayed)} actions ({named}) gave different dumps: {_dump_diff(a1_1, a2_1)}")
    else:
        found["determinism"] = Finding(ok=True, evidence=f"fresh dumps equal; {done} of {len(replayed)} replayed actions done, equal dumps")
    found["isolation"] = _isolation(t, fresh, survey, out1.count("ok") + out2.count("ok"))
    if not done:
        found["reset"] = Finding.not_run("no action could be replayed, so there is nothing to reset")
        return found
    t.admin.reset(a1)
    a1_2 = t.admin.state(a1)
    changed = _changed_pages(t, a1, survey.texts, fresh_baseline=True)
    if a1_2 != a1_0:
        found["reset"] = Finding(ok=False, evidence=f"after reset the dump differs from the initial one: {_dump_diff(a1_0, a1_2)}")
    elif changed:
        found["reset"] = Finding(ok=False, evidence=f"after changes and reset, the dump is initial but page {changed}")
    elif a1_1 == a1_0:
        found["reset"] = Finding(ok=True, evidence=f"the {done} actions left A1's dump as it was; reset restores {len(survey.texts)} pages' text")
    else:
        found["reset"] = Finding(ok=True, evidence=f"after {done} actions, reset restores the dump and {len(survey.texts)} pages' text")
    return found


def _isolation(t: Target, fresh: Fresh, survey: Survey, replayed: int) -> Finding:
    """The observer, left alone since its crawl, still has its first dump and the text of its first crawl."""
    done = f"after the controls were clicked and {replayed} actions replayed in other instances"
    before = fresh.initial[fresh.observer]
    now = t.admin.state(fresh.observer)
    if now != before:
        return Finding(ok=False, evidence=f"{done}, the observer's dump changed: {_dump_diff(before, now)}")
    changed = _changed_pages(t, fresh.observer, survey.texts)
    if changed:
        return Finding(ok=False, evidence=f"{done}, the observer's page {changed}")
    return Finding(ok=True, evidence=f"{done}, the observer's dump and {len(survey.texts)} pages are unchanged")


def _varied(actions: tuple[Control, ...]) -> tuple[Control, ...]:
    """One action per (page pattern, form action pattern) first, then the rest: many pages, not one page's row of buttons."""
    firsts: dict[tuple[str, str], Control] = {}
    for control in actions:
        firsts.setdefault((pattern(control.page), pattern(control.action or "")), control)
    first_ids = {id(c) for c in firsts.values()}
    return tuple(firsts.values()) + tuple(c for c in actions if id(c) not in first_ids)


def _apply(probe: PageProbe, base: str, actions: tuple[Control, ...]) -> list[str]:
    """Perform the actions in order on one instance; each outcome is 'ok' or why it could not be done."""
    return [perform(probe, base, control).error or "ok" for control in actions]


def page_html(t: Target, instance_id: str, paths: list[str], http: httpx.Client | None = None) -> dict[str, str]:
    """Path -> the page's HTML as the server sends it (one GET each, no browser), the instance id masked.

    `http`: a client of the calling thread's own, where that is not the check's main thread.
    """
    base = t.base(instance_id)
    http = http or t.http
    return {path: http.get(base + path, follow_redirects=True).text.replace(instance_id, "{instance}") for path in paths}


def _changed_pages(t: Target, instance_id: str, before: dict[str, str], fresh_baseline: bool = False) -> str:
    """'' if every page's HTML is as in `before`; else the first page that changed and its first changed lines.

    With `fresh_baseline` (the reset law) and an app with declared view state (opening a thread reads
    it, so a page shows what was looked at before), `before` is re-taken from a new instance visited
    in the same order: both sides then saw the same GETs from the initial state.
    """
    if fresh_baseline and t.manifest.get("view_state"):
        reference = t.admin.create()["instance_id"]
        try:
            before = page_html(t, reference, list(before))
        finally:
            t.admin.delete(reference)
    now = page_html(t, instance_id, list(before))
    for path, html in before.items():
        if now[path] != html:
            return f"{path} shows different content: {_text_diff(html, now[path])}"
    return ""


def storage_law(probes: dict[str, PageProbe], in_lane: dict[str, OnPhone], origin: str) -> Finding:
    """browser_storage: nothing stored by the app in any browser context the check used (the lane's included)."""
    items = [item for where, probe in probes.items() for item in written(probe.page.context, probe.page, origin, where)]
    for where, on in in_lane.items():
        items += on(lambda probe, where=where: written(probe.page.context, probe.page, origin, where)).result()
    contexts = len(probes) + len(in_lane)
    if items:
        return Finding(ok=False, evidence=_lines(items))
    return Finding(ok=True, evidence=f"no cookie, localStorage, sessionStorage or IndexedDB entry in {contexts} browser contexts")


# ---- evidence helpers ----------------------------------------------------------------------------
def _lines(items: list[str], limit: int = 6) -> str:
    shown = "\n".join(items[:limit])
    return shown + (f"\n… and {len(items) - limit} more" if len(items) > limit else "")


def _text_diff(before: str, after: str) -> str:
    changes = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0) if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return "; ".join(repr(line[:120]) for line in changes[:3]) or "(whitespace only)"


def _dump_diff(a: dict, b: dict) -> str:
    for table in sorted(set(a) | set(b)):
        rows_a, rows_b = a.get(table, []), b.get(table, [])
        if rows_a == rows_b:
            continue
        if len(rows_a) != len(rows_b):
            return f"table {table} has {len(rows_a)} vs {len(rows_b)} rows"
        i, (x, y) = next((i, pair) for i, pair in enumerate(zip(rows_a, rows_b)) if pair[0] != pair[1])
        keys = [k for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)]
        return f"table {table} row {i}: " + ", ".join(f"{k}={x.get(k)!r} vs {y.get(k)!r}" for k in keys[:3])
    return "(equal)"


__all__ = ["Fresh", "Survey", "control_laws", "coverage", "create_fresh", "replay_laws", "storage_law", "survey_laws"]
