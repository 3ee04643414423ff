"""The laws of Contract 1, each a function of a running app (and a browser) that returns a `Finding`."""

from __future__ import annotations

import difflib
import math
import secrets
import string
from dataclasses import dataclass, field

import httpx
from pydantic import BaseModel, ConfigDict

from mocked_apps.kit import AdminClient, TOKEN_HEADER

from .controls import Control, ControlsOutcome, collect, explore, perform
from .crawl import PageProbe, Visit, crawl, pattern, relative

MAX_TEXT_PAGES = 15
"""Pages whose text the isolation and reset laws compare: the first crawled page of each pattern."""
MAX_ACTIONS = 8
"""State-changing controls replayed by the determinism, isolation and reset laws."""


class Finding(BaseModel):
    """A law's verdict before timing: did it hold, and what shows it."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    evidence: str


@dataclass
class Target:
    """A running app server as the laws see it: its URL, admin client and token, and a plain client."""

    url: str
    token: str
    admin: AdminClient
    http: httpx.Client
    manifest: dict
    _status: dict[str, int] = field(default_factory=dict)

    def base(self, instance_id: str) -> str:
        return f"{self.url}/i/{instance_id}"

    def status(self, url: str) -> int:
        """HTTP status of a GET (after redirects), cached: for links the crawl did not open."""
        if url not in self._status:
            self._status[url] = self.http.get(url, follow_redirects=True).status_code
        return self._status[url]

    def instances(self) -> list[str]:
        return self.http.get(f"{self.url}/_gym/instances", headers={TOKEN_HEADER: self.token}).json()["instances"]


# ---- admin API laws (HTTP only) -------------------------------------------------------------
def admin_token(t: Target) -> Finding:
    """Every admin call answers 401 without the token and with a wrong one; pages never show the token."""
    scratch = t.admin.create()["instance_id"]
    calls = [
        ("GET", "/_gym/health"),
        ("GET", "/_gym/manifest"),
        ("GET", "/_gym/instances"),
        ("POST", "/_gym/instances"),
        ("GET", f"/_gym/instances/{scratch}/state"),
        ("POST", f"/_gym/instances/{scratch}/reset"),
        ("DELETE", f"/_gym/instances/{scratch}"),
    ]
    wrong = {TOKEN_HEADER: "wrong-" + secrets.token_hex(8)}
    for method, path in calls:
        for label, headers in (("without", {}), ("with a wrong", wrong)):
            status = t.http.request(method, t.url + path, headers=headers).status_code
            if status != 401:
                return Finding(ok=False, evidence=f"{method} {path} {label} {TOKEN_HEADER} answered {status}, not 401")
    root = t.http.get(t.base(scratch) + "/", follow_redirects=True).text
    if t.token in root:
        return Finding(ok=False, evidence="the admin token appears in the app's root page")
    t.admin.delete(scratch)
    return Finding(ok=True, evidence=f"{len(calls)} admin calls answer 401 without and with a wrong token")


def instance_ids(t: Target) -> Finding:
    """Fresh ids carry >= 128 bits and differ; an unknown id answers 404 on app pages and admin calls."""
    created = [t.admin.create() for _ in range(3)]
    ids = [c["instance_id"] for c in created]
    try:
        for c in created:
            iid = c["instance_id"]
            if _bits(iid) < 128:
                return Finding(ok=False, evidence=f"instance id {iid!r} carries about {_bits(iid):.0f} bits, under 128")
            if not c.get("url", "").startswith(f"/i/{iid}"):
                return Finding(ok=False, evidence=f"instance url {c.get('url')!r} is not under /i/{iid}/")
        if len(set(ids)) != len(ids):
            return Finding(ok=False, evidence=f"three creations gave repeated ids {ids}")
    finally:
        for iid in ids:
            t.admin.delete(iid)
    unknown = secrets.token_hex(16)
    for method, url in [
        ("GET", f"{t.base(unknown)}/"),
        ("GET", f"{t.url}/_gym/instances/{unknown}/state"),
        ("POST", f"{t.url}/_gym/instances/{unknown}/reset"),
        ("DELETE", f"{t.url}/_gym/instances/{unknown}"),
    ]:
        status = t.http.request(method, url, headers={TOKEN_HEADER: t.token}).status_code
        if status != 404:
            return Finding(ok=False, evidence=f"{method} {url.removeprefix(t.url)} for an unknown instance answered {status}, not 404")
    return Finding(ok=True, evidence=f"ids like {ids[0][:8]}… carry {_bits(ids[0]):.0f} bits; unknown instance -> 404 (app and admin)")


def _bits(instance_id: str) -> float:
    """Entropy an id could carry at most, from its length and alphabet (hex, else url-safe base64)."""
    alphabet = 16 if all(ch in string.hexdigits for ch in instance_id) else 64
    return len(instance_id) * math.log2(alphabet)


def bad_seed(t: Target) -> Finding:
    """A seed naming an unknown table (or field) answers 422 and creates nothing."""
    before = sorted(t.instances())
    table = next(iter(t.manifest.get("entities") or {}), None)
    seeds = [{"__no_such_table__": [{"id": 1}]}]
    if table:
        seeds.append({table: [{"__no_such_field__": 1}]})
    for seed in seeds:
        response = t.http.post(f"{t.url}/_gym/instances", json={"seed": seed}, headers={TOKEN_HEADER: t.token})
        if response.status_code != 422:
            return Finding(ok=False, evidence=f"seed {seed} answered {response.status_code}, not 422")
    after = sorted(t.instances())
    if after != before:
        return Finding(ok=False, evidence=f"a rejected seed still left {len(after) - len(before)} new instance(s)")
    return Finding(ok=True, evidence="unknown table and unknown field -> 422, no instance created")


# ---- browser laws ------------------------------------------------------------------------------
class Crawled(BaseModel):
    """What the crawl of a fresh instance found: its pages, and the controls on them."""

    model_config = ConfigDict(frozen=True)

    visits: tuple[Visit, ...]
    controls: tuple[Control, ...]


def crawl_laws(t: Target, desktop: PageProbe, mobile: PageProbe, instance_id: str, max_pages: int) -> tuple[Finding, Finding, Crawled]:
    """console and get_readonly: crawl a fresh instance with GETs only at both viewports, dumps around it."""
    base = t.base(instance_id)
    first, second = t.admin.state(instance_id), t.admin.state(instance_id)
    start = ["/"] + [p["path"] for p in t.manifest.get("pages", ())]
    controls: list[Control] = []
    visits = crawl(desktop, base, start, max_pages=max_pages, on_page=lambda _visit: controls.extend(collect(desktop, base)))
    problems = [_page_problem("desktop", v, base) for v in visits]
    problems += [_page_problem("phone", mobile.visit(v.url, links=False), base) for v in _one_per_pattern(visits)]
    after = t.admin.state(instance_id)
    problems = [p for p in problems if p]
    console = Finding(ok=False, evidence=_lines(problems)) if problems else Finding(
        ok=True, evidence=f"{len(visits)} pages clean at 1280x800, one per pattern at 390x844"
    )
    if first != second:
        readonly = Finding(ok=False, evidence=f"two dumps read in a row differ: {_dump_diff(first, second)}")
    elif after != first:
        readonly = Finding(ok=False, evidence=f"crawling {len(visits)} pages with GETs changed the state: {_dump_diff(first, after)}")
    else:
        readonly = Finding(ok=True, evidence="dump stable; GET page loads at two viewports left it unchanged")
    return console, readonly, Crawled(visits=tuple(visits), controls=tuple(controls))


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


def dead_controls(t: Target, probe: PageProbe, instance_id: str, controls: tuple[Control, ...], budget_s: float) -> tuple[Finding, ControlsOutcome]:
    """Each distinct control found by the crawl, judged on a freshly reset instance (see controls.explore)."""
    outcome = explore(
        probe,
        t.base(instance_id),
        list(controls),
        reset=lambda: t.admin.reset(instance_id),
        dump=lambda: t.admin.state(instance_id),
        status_of=t.status,
        budget_s=budget_s,
    )
    summary = (
        f"{outcome.checked} distinct controls: {outcome.clicked} clicked ({len(outcome.actions)} change state), "
        f"{outcome.repeats} judged by sampled look-alikes"
    )
    if outcome.unchecked:
        summary += f"; {outcome.unchecked} left unchecked: time budget {budget_s:.0f}s spent"
    if outcome.violations:
        return Finding(ok=False, evidence=_lines(list(outcome.violations)) + f"\n[{summary}]"), outcome
    return Finding(ok=True, evidence=summary), outcome


def replay_laws(t: Target, probe: PageProbe, pages: list[str], actions: tuple[Control, ...]) -> dict[str, Finding]:
    """determinism, isolation, reset: the state-changing controls replayed on two fresh instances A and B."""
    a, b = t.admin.create()["instance_id"], t.admin.create()["instance_id"]
    try:
        firsts: dict[str, str] = {}
        for path in pages:
            firsts.setdefault(pattern(path), path)
        return _replay(t, probe, list(firsts.values())[:MAX_TEXT_PAGES], _varied(actions)[:MAX_ACTIONS], a, b)
    finally:
        t.admin.delete(a)
        t.admin.delete(b)


def _varied(actions: tuple[Control, ...]) -> tuple[Control, ...]:
    """One action per (page pattern, form action pattern) first, then the rest: many pages, not one page's row of buttons."""
    firsts: dict[tuple[str, str], Control] = {}
    for control in actions:
        firsts.setdefault((pattern(control.page), pattern(control.action or "")), control)
    first_ids = {id(c) for c in firsts.values()}
    return tuple(firsts.values()) + tuple(c for c in actions if id(c) not in first_ids)


def _replay(t: Target, probe: PageProbe, pages: list[str], actions: tuple[Control, ...], a: str, b: str) -> dict[str, Finding]:
    a0, b0 = t.admin.state(a), t.admin.state(b)
    if a0 != b0:
        differ = Finding(ok=False, evidence=f"two instances from the same seed and clock differ: {_dump_diff(a0, b0)}")
        return {"determinism": differ}
    if not actions:
        note = "no control changes state, so only fresh instances were compared"
        return {law: Finding(ok=True, evidence=note) for law in ("determinism", "isolation", "reset")}
    b_texts = _texts(probe, t.base(b), pages)
    a_outcomes = _apply(probe, t.base(a), actions)
    a1 = t.admin.state(a)
    named = ", ".join(c.describe() for c in actions[:3]) + ("…" if len(actions) > 3 else "")
    found: dict[str, Finding] = {}
    b_after = t.admin.state(b)
    changed = _changed_pages(probe, t.base(b), b_texts)
    if b_after != b0:
        found["isolation"] = Finding(ok=False, evidence=f"after {len(actions)} actions in A, B's dump changed: {_dump_diff(b0, b_after)}")
    elif changed:
        found["isolation"] = Finding(ok=False, evidence=f"after {len(actions)} actions in A ({named}), B's page {changed}")
    else:
        found["isolation"] = Finding(ok=True, evidence=f"A changed by {len(actions)} actions; B's dump and {len(b_texts)} pages unchanged")
    b_outcomes = _apply(probe, t.base(b), actions)
    b1 = t.admin.state(b)
    if a_outcomes != b_outcomes:
        i = next(i for i, (x, y) in enumerate(zip(a_outcomes, b_outcomes)) if x != y)
        found["determinism"] = Finding(ok=False, evidence=f"{actions[i].describe()}: {a_outcomes[i]} in A but {b_outcomes[i]} in B")
    elif a1 != b1:
        found["determinism"] = Finding(ok=False, evidence=f"the same {len(actions)} actions ({named}) gave different dumps: {_dump_diff(a1, b1)}")
    else:
        found["determinism"] = Finding(ok=True, evidence=f"fresh dumps equal; {len(actions)} replayed actions give equal dumps")
    t.admin.reset(b)
    b2 = t.admin.state(b)
    changed = _changed_pages(probe, t.base(b), b_texts)
    if b2 != b0:
        found["reset"] = Finding(ok=False, evidence=f"after reset the dump differs from the initial one: {_dump_diff(b0, b2)}")
    elif changed:
        found["reset"] = Finding(ok=False, evidence=f"after changes and reset, the dump is initial but page {changed}")
    elif b1 == b0:
        found["reset"] = Finding(ok=True, evidence=f"the {len(actions)} actions left B's dump as it was; reset restores {len(b_texts)} pages' text")
    else:
        found["reset"] = Finding(ok=True, evidence=f"after {len(actions)} actions, reset restores the dump and {len(b_texts)} pages' text")
    return found


def _apply(probe: PageProbe, base: str, actions: tuple[Control, ...]) -> list[str]:
    """Perform the actions in order on one instance; each outcome is 'ok' or why it could not be done."""
    return [perform(probe, base, control).error or "ok" for control in actions]


def _texts(probe: PageProbe, base: str, pages: list[str]) -> dict[str, str]:
    return {path: probe.visit(base + path, links=False).text for path in pages}


def _changed_pages(probe: PageProbe, base: str, before: dict[str, str]) -> str:
    """'' if every page shows the same text as in `before`; else the first page and its first changed line."""
    for path, text in before.items():
        now = probe.visit(base + path, links=False).text
        if now != text:
            return f"{path} shows different text: {_text_diff(text, now)}"
    return ""


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


__all__ = ["Crawled", "Finding", "Target", "admin_token", "bad_seed", "crawl_laws", "dead_controls", "instance_ids", "replay_laws"]
