"""Controls: find every clickable element and form on a page, click it on a fresh state, and see what changed.

A control is alive if clicking it changes the state dump, the URL or the page text. Links
that lead to another page are alive if that page answers below 400 (checked over HTTP, no
click needed; a few links per target pattern); links to the current page and `aria-current="page"` links are fine as is.
A click that changes the state with GET requests only (a search form that writes) breaks the
GETs-are-read-only law. The controls that change state become the action sequence that the
determinism, isolation and reset laws replay on other instances.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from urllib.parse import urldefrag

from playwright.sync_api import Error as PlaywrightError
from pydantic import BaseModel, ConfigDict, Field

from .crawl import PageProbe, pattern, relative

CLICKS_PER_FAMILY = {"desktop": 2, "phone": 1}
"""Controls clicked per `Control.family`, by viewport: the phone size re-checks what layout can break
(hidden, covered or phone-only controls) with one member of each family; desktop samples two."""
LINKS_PER_PATTERN = 3
"""Links opened (over HTTP) per target pattern, e.g. three of the hundred '/transaction/{n}' links."""
SELECTOR = "a[href], button, input[type=submit], input[type=button], [role=button], [onclick], summary"

_COLLECT_JS = """(sel) => {
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const label = el => {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) { const t = ids.split(/\\s+/).map(i => (document.getElementById(i) || {}).innerText || '').join(' ').trim(); if (t) return t; }
    const aria = (el.getAttribute('aria-label') || '').trim(); if (aria) return aria;
    if (el.tagName === 'INPUT') return (el.value || el.title || '').trim();
    const text = (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim(); if (text) return text;
    const img = el.querySelector('img[alt]'); if (img && img.alt.trim()) return img.alt.trim();
    return (el.title || '').trim();
  };
  const roleOf = el => el.getAttribute('role') || ({A: 'link', BUTTON: 'button', INPUT: 'button', SUMMARY: 'summary'}[el.tagName] || el.tagName.toLowerCase());
  const out = [];
  document.querySelectorAll(sel).forEach((el, i) => {
    el.setAttribute('data-gym-ctl', String(i));
    if (!visible(el) || el.disabled) return;
    const form = el.form || el.closest('form');
    const type = (el.getAttribute('type') || (el.tagName === 'BUTTON' ? 'submit' : '')).toLowerCase();
    const rawHref = el.tagName === 'A' ? (el.getAttribute('href') || '') : null;
    out.push({index: i, role: roleOf(el), name: label(el), tag: el.tagName.toLowerCase(),
      href: rawHref === null || rawHref.startsWith('#') || rawHref.toLowerCase().startsWith('javascript:') ? null : el.href,
      current: el.getAttribute('aria-current') === 'page', submit: !!form && type === 'submit' && el.tagName !== 'A',
      get_form: !!form && (form.getAttribute('method') || 'get').toLowerCase() === 'get', action: form ? form.action : null,
      scripted: el.hasAttribute('onclick')});
  });
  return out;
}"""

_FILL_JS = """(i) => {
  const el = document.querySelector(`[data-gym-ctl="${i}"]`); if (!el) return 0;
  const form = el.form || el.closest('form'); if (!form) return 0;
  const values = {text: 'Test', search: 'Test', email: 'test@example.com', password: 'Test', url: 'https://example.com',
    tel: '555-0100', date: '2026-03-03', 'datetime-local': '2026-03-03T10:00', time: '10:00', month: '2026-03'};
  let filled = 0; const radios = new Set();
  for (const f of form.elements) {
    if (f.disabled || f.readOnly) continue;
    const type = (f.type || '').toLowerCase();
    if (f.tagName === 'SELECT') { if (f.options.length > 1) { f.selectedIndex = 1; filled++; } continue; }
    if (f.tagName === 'TEXTAREA') { if (!f.value) { f.value = 'Test'; filled++; } continue; }
    if (f.tagName !== 'INPUT') continue;
    if (type === 'checkbox') { if (f.required && !f.checked) { f.checked = true; filled++; } continue; }
    if (type === 'radio') { if (f.required && !radios.has(f.name) && !form.querySelector(`input[name="${f.name}"]:checked`)) { f.checked = true; radios.add(f.name); filled++; } continue; }
    if (f.value) continue;
    const value = type === 'number' || type === 'range' ? (f.min && Number(f.min) > 1 ? f.min : '1') : values[type];
    if (value !== undefined) { f.value = value; filled++; }
  }
  return filled;
}"""

_FORMS_JS = "() => Array.from(document.forms, f => [(f.getAttribute('method') || 'get').toLowerCase(), f.action])"

_MARK_JS = "() => { window.__gymMark = 1; return document.body ? document.body.innerText : ''; }"
_PROBE_JS = "() => [window.__gymMark === 1, document.body ? document.body.innerText : '']"


class Control(BaseModel):
    """One clickable element, found on a page of a fresh instance."""

    model_config = ConfigDict(frozen=True)

    page: str = Field(description="Path (with query) of the page under the instance root, e.g. '/note/1'.")
    index: int = Field(description="Position among the page's SELECTOR matches (stable on the same state).")
    role: str = Field(description="ARIA role: link, button, summary, or the element's explicit role.")
    name: str = Field(description="Accessible name, as an agent would refer to it.")
    tag: str = Field(description="HTML tag name.")
    href: str | None = Field(default=None, description="Absolute target of a link with a real href.")
    current: bool = Field(default=False, description="aria-current='page'.")
    submit: bool = Field(default=False, description="Submits a form (empty fields get filled first).")
    scripted: bool = Field(default=False, description="Has an onclick attribute.")
    get_form: bool = Field(default=False, description="Belongs to a GET form (a search): reloading the same results is fine.")
    action: str | None = Field(default=None, description="Absolute action URL of the control's form, if any.")

    @property
    def key(self) -> tuple[str, str, str]:
        return (pattern(self.page), self.role, self.name)

    @property
    def family(self) -> tuple[str, str, str, str]:
        """Look-alike controls share a family: same role, first word of the name ('Star report.pdf',
        'Star budget.xlsx'), and the same form action pattern (any page) or, outside forms, the same
        page pattern. A few of each family are clicked."""
        verb = self.name.split(" ", 1)[0] if self.name else ""
        where = ("", pattern(self.action)) if self.action else (pattern(self.page), "")
        return (where[0], self.role, where[1], verb)

    @property
    def form(self) -> tuple[str, str] | None:
        """(method, action pattern) of the form this control submits, None if it submits none."""
        if not (self.submit and self.action):
            return None
        return ("get" if self.get_form else "post", pattern(self.action))

    def describe(self) -> str:
        return f"{self.role} {self.name!r} on {self.page}"


class Effect(BaseModel):
    """What one click did."""

    model_config = ConfigDict(frozen=True)

    navigated: bool = Field(default=False, description="A new document loaded (even at the same URL).")
    url_changed: bool = False
    text_changed: bool = False
    status: int | None = Field(default=None, description="Status of the document the click led to, if any.")
    requests: tuple[str, ...] = Field(default=(), description="'METHOD path' of each request the click sent to the app.")
    error: str | None = Field(default=None, description="Why the control could not be clicked.")

    @property
    def only_gets(self) -> bool:
        """No request but GET or HEAD went out: whatever the click changed, it changed by reading."""
        return all(r.split(" ", 1)[0] in ("GET", "HEAD") for r in self.requests)


def collect(probe: PageProbe, base: str) -> list[Control]:
    """The visible, enabled controls of the page the probe shows now."""
    page_path = relative(probe.page.url, base)
    return [Control(page=page_path, **item) for item in probe.page.evaluate(_COLLECT_JS, SELECTOR)]


def forms(probe: PageProbe) -> set[tuple[str, str]]:
    """(method, action pattern) of every form on the page the probe shows now, GET forms included."""
    return {(method if method == "get" else "post", pattern(action)) for method, action in probe.page.evaluate(_FORMS_JS)}


def perform(probe: PageProbe, base: str, control: Control, settle_s: float = 1.0) -> Effect:
    """Open the control's page, fill its form if it submits one, click it, and wait for the effect."""
    page = probe.page
    visit = probe.visit(base + control.page, links=False)
    if visit.status is None or visit.status >= 400:
        return Effect(error=f"its page {control.page} answered {visit.status}")
    present = collect(probe, base)
    found = {(c.role, c.name): c.index for c in reversed(present)}
    current = next((c for c in present if c.index == control.index), None)
    index = control.index if current and (current.role, current.name) == (control.role, control.name) else found.get((control.role, control.name))
    if index is None:
        return Effect(error=f"{control.describe()} is no longer there")
    if control.submit:
        page.evaluate(_FILL_JS, index)
    url0 = urldefrag(page.url)[0]
    text0 = page.evaluate(_MARK_JS)
    documents: list[int] = []
    requests: list[str] = []
    sent: list[str] = []

    def on_request(request) -> None:
        if request.is_navigation_request() and request.frame == page.main_frame:
            requests.append(request.url)
        if request.url.startswith(probe.origin) and request.resource_type in ("document", "fetch", "xhr", "other"):
            sent.append(f"{request.method} {relative(request.url, base)}")

    def on_response(response) -> None:
        if response.request.is_navigation_request() and response.frame == page.main_frame:
            documents.append(response.status)

    page.on("request", on_request)
    page.on("response", on_response)
    try:
        try:
            page.locator(f'[data-gym-ctl="{index}"]').click(timeout=3000)
        except PlaywrightError as err:
            return Effect(error=f"cannot click: {err.message.splitlines()[0]}")
        navigated, text1 = _settle(page, text0, settle_s, lambda: bool(requests))
        if navigated:
            page.wait_for_load_state("load")
            text1 = probe.text()
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("response", on_response)
    return Effect(
        navigated=navigated,
        url_changed=urldefrag(page.url)[0] != url0,
        text_changed=text1 != text0,
        status=documents[-1] if documents else None,
        requests=tuple(sent),
    )


def _settle(page, text0: str, settle_s: float, navigating: Callable[[], bool], cap_s: float = 20.0) -> tuple[bool, str]:
    """Poll until a new document replaces the marked one, or the text changes, or `settle_s` passes
    with no navigation under way (one that started is awaited up to `cap_s`: a slow server is not a dead control)."""
    began = time.monotonic()
    text = text0
    while time.monotonic() - began < cap_s:
        try:
            marked, text = page.evaluate(_PROBE_JS)
        except PlaywrightError:  # the old document went away mid-call: a navigation
            marked = False
        if not marked:
            return True, text
        if not navigating():
            if text != text0 or time.monotonic() - began > settle_s:
                return False, text
        page.wait_for_timeout(40)
    return False, text


class ControlsOutcome(BaseModel):
    """What clicking one viewport's controls showed, and the state-changing controls to replay elsewhere."""

    model_config = ConfigDict(frozen=True)

    checked: int = Field(description="Distinct controls to click: (page pattern, role, name), links aside.")
    clicked: int = Field(description="Of those, how many were really clicked.")
    repeats: int = Field(default=0, description="Judged by their family's clicked members.")
    violations: tuple[str, ...] = Field(default=(), description="One line per dead or broken control.")
    get_writes: tuple[str, ...] = Field(default=(), description="One line per click that changed the state with GET requests only.")
    actions: tuple[Control, ...] = Field(default=(), description="Controls whose click changed the state dump (by a POST), in page order.")
    forms: frozenset[tuple[str, str]] = Field(default=frozenset(), description="(method, action pattern) of each form submitted.")
    unchecked: int = Field(default=0, description="Controls left unjudged when the time budget ran out.")


class LinksOutcome(BaseModel):
    """Links judged over HTTP: a few per target pattern are opened; the rest are judged by them."""

    model_config = ConfigDict(frozen=True)

    judged: frozenset[tuple[str, str, str]] = Field(description="Keys of links opened, or fine as they are (current page, outside the app).")
    sampled: frozenset[tuple[str, str, str]] = Field(description="Keys of links judged by an opened link of the same target pattern.")
    violations: tuple[str, ...] = Field(default=(), description="One line per link whose target answers >= 400.")


def clickable(control: Control) -> bool:
    """Judged by a click (buttons, scripted links, summaries), not by opening its href."""
    return not control.href or control.scripted


def check_links(controls: list[Control], base: str, status_of: Callable[[str], int]) -> LinksOutcome:
    """Open a few links per target pattern (over HTTP, cached); a target answering >= 400 is a broken control."""
    judged: set[tuple[str, str, str]] = set()
    sampled: set[tuple[str, str, str]] = set()
    violations: list[str] = []
    opened: Counter[str] = Counter()
    for control in controls:
        if clickable(control) or control.key in judged or control.key in sampled:
            continue
        if control.current or urldefrag(control.href)[0] == base + control.page or not control.href.startswith(base):
            judged.add(control.key)
            continue
        target = pattern(control.href)
        if opened[target] >= LINKS_PER_PATTERN:
            sampled.add(control.key)
            continue
        opened[target] += 1
        judged.add(control.key)
        status = status_of(control.href)
        if status >= 400:
            violations.append(f"{control.describe()} leads to {relative(control.href, base)}, which answers {status}")
    return LinksOutcome(judged=frozenset(judged), sampled=frozenset(sampled - judged), violations=tuple(violations))


def explore(
    probe: PageProbe,
    base: str,
    controls: list[Control],
    reset: Callable[[], None],
    dump: Callable[[], dict],
    budget_s: float = 45.0,
    label: str = "desktop",
    on_write: Callable[[Control, dict], None] | None = None,
) -> ControlsOutcome:
    """Click each distinct clickable control of `controls` (found on another fresh instance) on the instance at `base`.

    `reset` restores the instance between clicks that changed it. The first control of each family
    goes first, so a spent budget leaves look-alikes unchecked rather than whole pages or forms.
    `on_write(control, dump)` hears of each click that changed the state, before the next reset.
    """
    deadline = time.monotonic() + budget_s
    reset()
    initial = dump()
    distinct: dict[tuple[str, str, str], Control] = {}
    for control in controls:
        if clickable(control):
            distinct.setdefault(control.key, control)
    firsts: dict[tuple, Control] = {}
    for control in distinct.values():
        firsts.setdefault(control.family, control)
    first_ids = {id(c) for c in firsts.values()}
    todo = list(firsts.values()) + [c for c in distinct.values() if id(c) not in first_ids]
    violations: list[str] = []
    get_writes: list[str] = []
    actions: list[Control] = []
    submitted: set[tuple[str, str]] = set()
    clicked = repeats = unchecked = 0
    dirty = False
    families: Counter[tuple] = Counter()
    for control in todo:
        if families[control.family] >= CLICKS_PER_FAMILY.get(label, 2):
            repeats += 1
            continue
        if time.monotonic() > deadline:
            unchecked += 1
            continue
        families[control.family] += 1
        if dirty:
            reset()
        clicked += 1
        effect = perform(probe, base, control)
        after = dump()
        state_changed = after != initial
        dirty = state_changed
        if control.form and not effect.error:
            submitted.add(control.form)
        if effect.error:
            violations.append(f"{label}: {control.describe()}: {effect.error}")
        elif effect.status is not None and effect.status >= (400 if not control.submit else 500):
            violations.append(f"{label}: {control.describe()}: clicking it led to HTTP {effect.status}")
        elif not (state_changed or effect.url_changed or effect.text_changed or (effect.navigated and control.get_form)):
            violations.append(f"{label}: {control.describe()}: clicking it changed nothing (state, URL and page text all the same)")
        if state_changed and not effect.error:
            if effect.only_gets:
                sent = ", ".join(effect.requests[:2]) or "no request at all"
                get_writes.append(f"{label}: {control.describe()} changed the state with GET requests only ({sent})")
            else:
                actions.append(control)
            if on_write is not None:
                on_write(control, after)
    return ControlsOutcome(
        checked=len(todo), clicked=clicked, repeats=repeats, violations=tuple(violations), get_writes=tuple(get_writes),
        actions=tuple(actions), forms=frozenset(submitted), unchecked=unchecked,
    )
