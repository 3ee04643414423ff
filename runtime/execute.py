"""Executing one browser action on a Playwright page (async API, on the browser's loop).

Element actions resolve `[data-gym-id=n]` in one page call (exists? visible? enabled? where?) and then
use real input events (mouse, touch, keyboard); Playwright's locator actions cost several round trips
each. After the action the page is walked; if the document is leaving (a link, a submit) we wait
for the new document to load and walk it. Shell and answer never reach this module.

What the agent got wrong (no element 99, not a text field, no such option) is returned as an error
string for the next observation; a dead browser propagates as a Playwright error (EnvError upstream).
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError

from runtime.actions import Back, Click, Fill, Press, Scroll, Select, Type, Wait
from runtime.observe import NAVIGATING

NAVIGATION_COMMIT_S = 5.0

_TARGET_JS = r"""
([id, purpose, text]) => {
  const el = document.querySelector(`[data-gym-id="${id}"]`);
  if (!el) return {error: `there is no element [${id}] on this page; use an id from the current accessibility tree`};
  if (el.disabled || el.getAttribute("aria-disabled") === "true") return {error: `element [${id}] is disabled`};
  if (purpose === "fill") {
    const textual = (el.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color", "hidden"].includes(el.type))
      || el.tagName === "TEXTAREA" || el.isContentEditable;
    if (!textual) return {error: `element [${id}] is not a text field; fill() needs a textbox`};
    if (el.readOnly) return {error: `element [${id}] is read-only`};
    el.focus();
    if (["date", "time", "datetime-local", "month", "week"].includes(el.type)) {  // no text editing in these: set the value
      el.value = text;
      if (text && el.value !== text) return {error: `"${text}" is not a valid ${el.type} value (e.g. ${{date: "2026-03-14", time: "09:30", "datetime-local": "2026-03-14T09:30", month: "2026-03", week: "2026-W11"}[el.type]})`};
      el.dispatchEvent(new Event("input", {bubbles: true}));
      el.dispatchEvent(new Event("change", {bubbles: true}));
      return {done: true};
    }
    if (el.isContentEditable) { const r = document.createRange(); r.selectNodeContents(el); const s = getSelection(); s.removeAllRanges(); s.addRange(r); }
    else el.select();
    return {ok: true};
  }
  if (purpose === "select") {
    if (el.tagName !== "SELECT") return {error: `element [${id}] is not a drop-down; select() needs a combobox`};
    return {options: Array.from(el.options).map((o) => (o.label || o.text).trim())};
  }
  const r0 = el.getBoundingClientRect();
  if (r0.top < 0 || r0.left < 0 || r0.bottom > innerHeight || r0.right > innerWidth) el.scrollIntoView({block: "center", inline: "center"});
  // A link that wraps onto two lines has a box whose centre may be the gap beside its text (the cell behind it):
  // aim at the centre of the first line box that is the element itself, then fall back to the whole box.
  for (const line of el.getClientRects()) {
    if (line.width <= 0 || line.height <= 0) continue;
    const lx = line.left + line.width / 2, ly = line.top + line.height / 2;
    const on = document.elementFromPoint(lx, ly);
    if (on && (on === el || el.contains(on) || (on.tagName === "LABEL" && on.control === el))) return {x: lx, y: ly};
  }
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = r.width > 0 && r.height > 0 ? document.elementFromPoint(x, y) : null;
  const reachable = hit && (hit === el || el.contains(hit) || hit.contains(el) || (hit.tagName === "LABEL" && hit.control === el));
  if (reachable) return {x, y};
  el.click();  // hidden or covered (e.g. a styled checkbox under its label): activate it the way assistive tech does
  return {clicked: true};
}
"""

_CHOOSE_JS = r"""
([id, index]) => {
  const el = document.querySelector(`[data-gym-id="${id}"]`);
  el.selectedIndex = index;
  el.dispatchEvent(new Event("input", {bubbles: true}));
  el.dispatchEvent(new Event("change", {bubbles: true}));
}
"""

_SCROLL_JS = r"""
([dx, dy]) => {
  let el = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  while (el && el !== document.body && el !== document.documentElement) {
    const s = getComputedStyle(el);
    const can = (dy && /(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight)
      || (dx && /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth);
    if (can) { el.scrollBy(dx, dy); return; }
    el = el.parentElement;
  }
  window.scrollBy(dx, dy);
}
"""


class _NavigationWatch:
    """Records a main-frame commit, so a navigation that an action starts is never missed."""

    def __init__(self, page):
        self.page = page
        self.committed = asyncio.Event()

    def _on_navigated(self, frame) -> None:
        if frame == self.page.main_frame:
            self.committed.set()

    def __enter__(self) -> "_NavigationWatch":
        self.page.on("framenavigated", self._on_navigated)
        return self

    def __exit__(self, *exc) -> None:
        self.page.remove_listener("framenavigated", self._on_navigated)


async def _select(page, action: Select) -> str | None:
    found = await page.evaluate(_TARGET_JS, [action.element, "select", None])
    if "error" in found:
        return found["error"]
    labels = found["options"]
    wanted = action.value.strip()
    index = next((i for i, label in enumerate(labels) if label == wanted), None)
    index = index if index is not None else next((i for i, label in enumerate(labels) if label.lower() == wanted.lower()), None)
    if index is None:
        return f"drop-down [{action.element}] has no option {action.value!r}; options are: {', '.join(labels)}"
    await page.evaluate(_CHOOSE_JS, [action.element, index])
    return None


async def _click(page, action: Click, touch: bool) -> str | None:
    if action.element is None:
        if action.x is None or action.y is None:
            return "click() needs an element id or both x and y"
        x, y = action.x, action.y
    else:
        found = await page.evaluate(_TARGET_JS, [action.element, "click", None])
        if "error" in found or "clicked" in found:
            return found.get("error")
        x, y = found["x"], found["y"]
    if touch:
        await page.touchscreen.tap(x, y)
    else:
        await page.mouse.click(x, y)
    return None


async def _run(page, action, touch: bool, history_floor: int) -> str | None:
    if isinstance(action, Click):
        return await _click(page, action, touch)
    if isinstance(action, Type):
        await page.keyboard.type(action.text)
        return None
    if isinstance(action, Fill):
        found = await page.evaluate(_TARGET_JS, [action.element, "fill", action.text])
        if "error" in found or "done" in found:
            return found.get("error")
        if action.text:
            await page.keyboard.insert_text(action.text)
        else:
            await page.keyboard.press("Delete")
        return None
    if isinstance(action, Press):
        await page.keyboard.press(action.key)
        return None
    if isinstance(action, Scroll):
        await page.evaluate(_SCROLL_JS, [action.dx, action.dy])
        return None
    if isinstance(action, Select):
        return await _select(page, action)
    if isinstance(action, Back):
        if await page.evaluate("navigation.currentEntry.index") <= history_floor:
            return "there is no previous page"  # history before this attempt's first page is not the agent's
        await page.go_back()
        return None
    if isinstance(action, Wait):
        await asyncio.sleep(action.seconds)
        return None
    return f"{action.kind}() is not a browser action"


async def execute(
    page, action, walk: Callable[[object], Awaitable[dict]], touch: bool = False, history_floor: int = 0
) -> tuple[str | None, dict]:
    """Apply a browser action, then `walk(page)` the page it leads to; returns (the agent's error, the walk).

    The walk reports `leaving` when the document began to unload (a link or a submit): then we
    wait for the new document to commit and load, and walk that one. `back()` never goes before
    history entry `history_floor` (the attempt's first page).
    """
    with _NavigationWatch(page) as watch:
        try:
            error = await _run(page, action, touch, history_floor)
        except PlaywrightError as err:
            if page.is_closed() or not page.context.browser.is_connected():
                raise
            error = _explain(str(err))
        if not watch.committed.is_set() and await _leaving(page):
            try:
                await asyncio.wait_for(watch.committed.wait(), NAVIGATION_COMMIT_S)
            except asyncio.TimeoutError:
                return error, await walk(page)  # the navigation ended without a new document (204, download)
        if watch.committed.is_set():
            await page.wait_for_load_state("load")
        snap = await walk(page)
        if snap.get("leaving") and not watch.committed.is_set():  # began to leave while we looked: walk the new page
            try:
                await asyncio.wait_for(watch.committed.wait(), NAVIGATION_COMMIT_S)
            except asyncio.TimeoutError:
                return error, snap
            await page.wait_for_load_state("load")
            snap = await walk(page)
    return error, snap


async def _leaving(page) -> bool:
    """Whether the document began to unload (a followed link, a submit): one flag read, not a whole walk."""
    try:
        return bool(await page.evaluate("() => !!window.__gymLeaving"))
    except PlaywrightError as err:
        if page.is_closed() or not any(s in str(err) for s in NAVIGATING):
            raise
        return True  # the document went away under the read: it was leaving


def _explain(message: str) -> str:
    """A Playwright error as one line of feedback for the model."""
    first = message.splitlines()[0]
    for prefix in ("Locator.", "Page.", "Keyboard.", "Mouse.", "Touchscreen."):
        if first.startswith(prefix):
            first = first.split(":", 1)[-1].strip()
    return first.removeprefix("Error: ")
