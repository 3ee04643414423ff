"""Screenshots of compiled apps' content, for issue 29's before/after: three apps of different categories at
1280x800, into docs/screenshots/content/<label>-<app>.png.

    .venv/bin/python scripts/content_screenshots.py after
    PYTHONPATH=/path/to/an/older/checkout .venv/bin/python scripts/content_screenshots.py before
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "content"
SHOTS = [  # (app, category, path)
    ("cornerstore", "commerce", "/catalogue/product"),
    ("pulse", "social", "/feed/post"),
    ("studyhall", "education", "/assignment"),
]


def main(label: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        for app, _category, path in SHOTS:
            server = AppServer(app).start()
            try:
                url = server.url + server.admin.create()["url"].rstrip("/") + path
                context = browser.new_context(**context_options("desktop"))
                page = context.new_page()
                page.goto(url)
                page.screenshot(path=str(OUT / f"{label}-{app}.png"))
                context.close()
            finally:
                server.stop()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after")
