"""Screenshots of compiled catalogue apps, one archetype each, at 1280x800 and 390x844, into docs/screenshots/.

    .venv/bin/python scripts/compiled_screenshots.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SHOTS = [  # (app, archetype, path)
    ("pulse", "feed", "/feed/post"),
    ("cornerstore", "catalogue", "/catalogue/product"),
    ("pawcare", "booking", "/booking/appointment?day=2026-03-04&slot=11:00"),
    ("taskflow", "board", "/board/task"),
    ("trailhead", "calendar", "/calendar/session"),
    ("parcelpoint", "maplist", "/maplist/locker?selected=3"),
    ("pulse", "chat", "/chat/friend"),
    ("mediclinic", "table", "/visit?sort=day&dir=asc"),
    ("ledgerly", "detail", "/invoice/2"),
    ("studyhall", "wizard", "/assignment/new"),
    ("trailhead", "media", "/media/track?playing=2"),
    ("pulse", "settings", "/settings"),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    servers: dict[str, AppServer] = {}
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            for app, archetype, path in SHOTS:
                if app not in servers:
                    servers[app] = AppServer(app).start()
                server = servers[app]
                url = server.url + server.admin.create()["url"].rstrip("/") + path
                for form_factor, label in (("desktop", "1280x800"), ("mobile", "390x844")):
                    context = browser.new_context(**context_options(form_factor))
                    page = context.new_page()
                    page.goto(url)
                    page.screenshot(path=str(OUT / f"{archetype}-{app}-{label}.png"))
                    context.close()
            browser.close()
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
