"""Browser storage: what an app left in the browser (localStorage, sessionStorage, IndexedDB, cookies).

Contract 1: the browser holds no state of its own. Storage is per origin, and every instance of
an app type shares its server's origin, so anything an app keeps there outlives a reset and
leaks between instances; the checker reads each browser context it used after the app had its go.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

_SESSION_JS = "() => Object.keys(sessionStorage).map(k => [k, sessionStorage.getItem(k)])"


def written(context: BrowserContext, page: Page, origin: str, where: str) -> list[str]:
    """One line per item the app stored in `context` (and in `page`'s sessionStorage), named with `where`."""
    origin = origin.rstrip("/")
    state = context.storage_state(indexed_db=True)
    items = [f"cookie {c['name']}={_short(c['value'])}" for c in state.get("cookies", ())]
    for entry in state.get("origins", ()):
        if entry.get("origin", "").rstrip("/") != origin:
            continue
        items += [f"localStorage {kv['name']!r}={_short(kv['value'])}" for kv in entry.get("localStorage", ())]
        items += [f"IndexedDB database {db.get('name')!r}" for db in entry.get("indexedDB", ())]
    if page.url.startswith(origin):
        try:
            items += [f"sessionStorage {k!r}={_short(v)}" for k, v in page.evaluate(_SESSION_JS)]
        except PlaywrightError:  # the page is mid-navigation: its sessionStorage is read on the next look
            pass
    return [f"{where}: {item}" for item in items]


def _short(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")


__all__ = ["written"]
