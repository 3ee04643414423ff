"""Visiting an instance's pages in a real browser: errors per page, visible text, and a bounded crawl."""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Callable
from urllib.parse import urldefrag, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from pydantic import BaseModel, ConfigDict, Field

_LINKS_JS = "() => Array.from(document.querySelectorAll('a[href]'), a => a.href)"
_TEXT_JS = "() => document.body ? document.body.innerText : ''"


class Visit(BaseModel):
    """One page load: where it ended, its status and text, what went wrong, where it links."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(description="The URL asked for (absolute, no fragment).")
    final_url: str = Field(description="Where the browser ended up after redirects.")
    status: int | None = Field(description="HTTP status of the document, None if no response.")
    text: str = Field(description="document.body.innerText once loaded.")
    errors: tuple[str, ...] = Field(default=(), description="Console errors, page errors, failed or >= 400 same-origin requests.")
    links: tuple[str, ...] = Field(default=(), description="Absolute hrefs of every <a href> on the page, fragments dropped.")


def pattern(url: str) -> str:
    """URL -> its page pattern: instance id dropped, digit runs -> {n}, query keys kept (sorted)."""
    parts = urlsplit(url)
    path = re.sub(r"^/i/[^/]+", "", parts.path) or "/"
    path = re.sub(r"\d+", "{n}", path)
    keys = sorted({kv.split("=", 1)[0] for kv in parts.query.split("&") if kv})
    return path + (f"?{'&'.join(keys)}" if keys else "")


def relative(url: str, base: str) -> str:
    """Absolute instance URL -> path (with query) under the instance root `base` (e.g. http://h/i/ID)."""
    url = urldefrag(url)[0]
    rest = url[len(base):] if url.startswith(base) else url
    return rest if rest.startswith("/") else "/" + rest


class PageProbe:
    """One Playwright page that records, per visit, what a person would see as broken."""

    def __init__(self, page: Page, origin: str):
        self.page = page
        self.origin = origin.rstrip("/")
        self._errors: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self._errors.append(f"page error: {exc.message}"))
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("dialog", lambda dialog: dialog.accept())

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            self._errors.append(f"console error: {msg.text}" + (f" ({where})" if where else ""))

    def _on_failed(self, request) -> None:
        if request.url.startswith(self.origin):
            self._errors.append(f"request failed: {request.method} {request.url} ({request.failure})")

    def _on_response(self, response) -> None:
        if response.url.startswith(self.origin) and response.status >= 400:
            self._errors.append(f"HTTP {response.status}: {response.request.method} {response.url}")

    def take_errors(self) -> list[str]:
        errors, self._errors = self._errors, []
        return errors

    def text(self) -> str:
        return self.page.evaluate(_TEXT_JS)

    def visit(self, url: str, links: bool = True) -> Visit:
        """Load `url`, wait for `load`, and record status, text, errors and links."""
        self.take_errors()
        try:
            response = self.page.goto(url, wait_until="load")
        except PlaywrightError as err:
            return Visit(url=url, final_url=self.page.url, status=None, text="", errors=(f"navigation failed: {err.message.splitlines()[0]}",))
        hrefs = self.page.evaluate(_LINKS_JS) if links else []
        return Visit(
            url=url,
            final_url=urldefrag(self.page.url)[0],
            status=response.status if response else None,
            text=self.text(),
            errors=tuple(dict.fromkeys(self.take_errors())),
            links=tuple(dict.fromkeys(urldefrag(h)[0] for h in hrefs)),
        )


def crawl(
    probe: PageProbe,
    base: str,
    start: list[str],
    max_pages: int = 40,
    per_pattern: int = 2,
    on_page: Callable[[Visit], None] | None = None,
) -> list[Visit]:
    """BFS over same-instance GET links from `start` (paths under `base`), bounded per pattern and in total;
    `on_page` runs on each loaded page (e.g. to collect its controls) before the crawl moves on."""
    queue = deque(base + (p if p.startswith("/") else "/" + p) for p in start)
    seen: set[str] = set()
    per: Counter[str] = Counter()
    visits: list[Visit] = []
    while queue and len(visits) < max_pages:
        url = urldefrag(queue.popleft())[0]
        if url in seen or not _inside(url, base):
            continue
        seen.add(url)
        key = pattern(url)
        if per[key] >= per_pattern:
            continue
        per[key] += 1
        visit = probe.visit(url)
        visits.append(visit)
        if on_page is not None and visit.status is not None and visit.status < 400:
            on_page(visit)
        queue.extend(link for link in visit.links if link not in seen and _inside(link, base))
    return visits


def _inside(url: str, base: str) -> bool:
    return url == base or url.startswith(base + "/") or url.startswith(base + "?")
