"""The links law: every same-origin GET link of every page reached answers below 400, each fetched once over plain HTTP.

The browser clicks a sample of look-alike controls (two of a family, three links per target pattern), so a
link that fails for some records only (a "Print card" that crashes for cards issued since 2022) is easily
never visited. Plain HTTP is cheap: starting from the pages the browser crawl loaded, this sweep fetches every
distinct same-origin `<a href>` and, for pages inside the instance, the links on them in turn, breadth first,
up to `MAX_DEPTH` links away from a crawled page, until none is left or a bound is reached (which the evidence
then says). The depth bound stops date walks (a calendar's "next day" from the next day, endlessly) early; a
record's page and the links on it are one and two links from the list the crawl loaded.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Iterable
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field

from .admin import Finding
from .crawl import pattern, relative

MAX_FETCHES = 2000
"""URLs fetched per check at most; past it the sweep stops and says so."""
MAX_PER_PATTERN = 300
"""URLs fetched per page pattern at most (every record of a shipped seed has fewer)."""
MAX_DEPTH = 3
"""Links followed from a crawled page: its links (1), the links on those pages (2), and one more."""


class _Hrefs(HTMLParser):
    """Collects the href of every <a> of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def hrefs(html: str, url: str) -> list[str]:
    """Absolute http(s) targets of the page's links, fragments dropped, in page order."""
    parser = _Hrefs()
    parser.feed(html)
    out = (urldefrag(urljoin(url, h.strip()))[0] for h in parser.hrefs)
    return list(dict.fromkeys(u for u in out if urlsplit(u).scheme in ("http", "https")))


class Sweep(BaseModel):
    """What fetching the links found."""

    model_config = ConfigDict(frozen=True)

    fetched: int = Field(description="Distinct URLs fetched.")
    failures: tuple[str, ...] = Field(default=(), description="One line per URL that answered >= 400 or could not be fetched, with the page linking to it.")
    bounded: tuple[str, ...] = Field(default=(), description="Which bound stopped the sweep short, if any.")
    statuses: dict[str, int] = Field(default_factory=dict, description="URL -> status of every URL fetched (errors: 0).")
    seconds: float = 0.0


def sweep(
    http: httpx.Client,
    origin: str,
    base: str,
    pages: dict[str, Iterable[str]],
    max_fetches: int = MAX_FETCHES,
    max_per_pattern: int = MAX_PER_PATTERN,
    max_depth: int = MAX_DEPTH,
) -> Sweep:
    """GET every same-origin link reachable from `pages` (URL of a page already loaded -> the links on it).

    Pages inside the instance (`base`) are searched for more links; other same-origin targets are only fetched.
    """
    began = time.monotonic()
    origin = origin.rstrip("/")
    seen = set(pages)
    queue: deque[tuple[str, str, int]] = deque()  # (url, the page that links to it, links away from the crawl)

    def enqueue(links: Iterable[str], page: str, depth: int) -> None:
        for link in links:
            if link not in seen and _same_origin(link, origin):
                seen.add(link)
                queue.append((link, page, depth))

    for page, links in pages.items():
        enqueue(links, page, 1)
    statuses: dict[str, int] = {}
    failures: list[str] = []
    per: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    left = 0
    while queue:
        url, page, depth = queue.popleft()
        if len(statuses) >= max_fetches:
            left = len(queue) + 1
            break
        key = pattern(url)
        if per[key] >= max_per_pattern:
            skipped[key] += 1
            continue
        per[key] += 1
        try:
            response = http.get(url, follow_redirects=True)
        except httpx.HTTPError as err:
            statuses[url] = 0
            failures.append(f"{relative(url, base)}: {type(err).__name__}: {err} (linked from {relative(page, base)})")
            continue
        statuses[url] = response.status_code
        if response.status_code >= 400:
            failures.append(f"{relative(url, base)} answers {response.status_code} (linked from {relative(page, base)})")
        elif depth < max_depth and _inside(str(response.url), base) and "html" in response.headers.get("content-type", ""):
            enqueue(hrefs(response.text, str(response.url)), url, depth + 1)
    bounded = [f"stopped at {max_fetches} fetches, {left} links not fetched"] if left else []
    bounded += [f"{n} more links of {key} not fetched (at most {max_per_pattern} per pattern)" for key, n in skipped.items()]
    return Sweep(fetched=len(statuses), failures=tuple(failures), bounded=tuple(bounded), statuses=statuses,
                 seconds=round(time.monotonic() - began, 2))


def links_law(found: Sweep, limit: int = 6) -> Finding:
    """The verdict: any failing link fails the law; a bound reached is said, not failed."""
    bound = ("; " + "; ".join(found.bounded[:3])) if found.bounded else ""
    if found.failures:
        shown = "\n".join(f"GET {line}" for line in found.failures[:limit])
        more = f"\n… and {len(found.failures) - limit} more" if len(found.failures) > limit else ""
        return Finding(ok=False, evidence=f"{shown}{more}\n[{len(found.failures)} of {found.fetched} links fetched over HTTP fail{bound}]")
    return Finding(ok=True, evidence=f"{found.fetched} distinct same-origin links fetched over HTTP in {found.seconds:.1f}s, all below 400{bound}")


def _same_origin(url: str, origin: str) -> bool:
    return url == origin or url.startswith(origin + "/") or url.startswith(origin + "?")


def _inside(url: str, base: str) -> bool:
    return url == base or url.startswith(base + "/") or url.startswith(base + "?")


__all__ = ["MAX_DEPTH", "MAX_FETCHES", "MAX_PER_PATTERN", "Sweep", "hrefs", "links_law", "sweep"]
