"""The content law's count over apps, without the rest of the checker: each app's start page and the pages it links
to (the checker's own crawl, desktop only), and the lorem, catch phrases, colour names and word salad found there.

    .venv/bin/python scripts/content_audit.py                 # every compiled app
    .venv/bin/python scripts/content_audit.py --hand-made     # the hand-made apps
    .venv/bin/python scripts/content_audit.py pulse notes     # named apps

Prints one line per app (FAIL when the content law would fail it) and the number of apps that read as word salad.
"""

from __future__ import annotations

import sys
import time

from playwright.sync_api import sync_playwright

from mocked_apps.checker.content import failing, problems
from mocked_apps.checker.crawl import PageProbe, crawl
from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium
from mocked_apps.registry import compiled, resolve, shipped


def audit(names: list[str], max_pages: int = 40) -> int:
    """Print each app's findings; answers how many apps fail the content law."""
    bad, began = 0, time.monotonic()
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        for name in names:
            server = AppServer(resolve(name)).start()
            try:
                base = server.url + server.admin.create()["url"].rstrip("/")
                start = ["/"] + [p["path"] for p in server.admin.manifest().get("pages", ())]
                context = browser.new_context(**context_options("desktop"))
                visits = crawl(PageProbe(context.new_page(), server.url), base, start, max_pages=max_pages)
                context.close()
            finally:
                server.stop()
            found = problems(v.text for v in visits)
            bad += failing(found)
            counts = ", ".join(f"{kind} {len(units)}" for kind, units in found.items()) or "clean"
            example = next((units[0] for units in found.values()), "")
            print(f"{'FAIL' if failing(found) else 'ok  '} {name:16} {len(visits):3} pages  {counts}" + (f"  e.g. {example!r}" if example else ""), flush=True)
        browser.close()
    print(f"{bad} of {len(names)} apps read as word salad or lorem ({time.monotonic() - began:.0f} s)")
    return bad


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--hand-made"]:
        chosen = sorted(shipped())
    else:
        chosen = args or sorted(compiled())
    sys.exit(1 if audit(chosen) else 0)
