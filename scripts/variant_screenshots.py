"""Screenshots of 6 compiled apps of different categories as drawn (variant 0) and in 2 appearance variants, at
1280x800, into docs/screenshots/variants/ (JPEG, to keep the repository small).

    .venv/bin/python scripts/variant_screenshots.py

`before` draws the same pages from an older checkout, as drawn (it has no variants), into <app>-before.jpg: the
word-salad content of the compiled apps before issue 29 gave them domain vocabularies (dd69dcd^):

    git worktree add /tmp/before dd69dcd^
    cd /tmp/before && PYTHONPATH=/tmp/before $REPO/.venv/bin/python $REPO/scripts/variant_screenshots.py before

(from the old checkout's folder: the app host it starts, `python -m mocked_apps.kit.host`, imports from there).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from mocked_apps.kit import AppServer
from mocked_apps.catalogue import compiled
from mocked_apps.kit.browser import context_options, launch_chromium
from mocked_apps.kit.spec import read_spec
from mocked_apps.kit.spec.model import page_path

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "variants"
APPS = ("pawcare", "cornerstore", "ledgerly", "mediclinic", "hireloop", "fleetwise")  # pets, commerce, finance,
VARIANTS = (0, 15, 20)                                                               # health, recruiting, logistics


def first_list(app: str) -> str:
    """The app's first table page (where the search, the 'new' button and the record list are)."""
    spec = read_spec(compiled()[app])
    return page_path(next(p for p in spec.pages if p.archetype == "table"))


def main(before: bool = False) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    variants = (0,) if before else VARIANTS
    if not before:  # an older checkout has no variants
        from mocked_apps.kit.variant import variant_of, variant_seed
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for app in APPS:
                path = first_list(app)
                with AppServer(app) as server:
                    for variant in variants:
                        made = server.admin.create(variant_seed(variant) if variant else None)
                        context = browser.new_context(**context_options("desktop"))
                        page = context.new_page()
                        page.goto(server.url + made["url"].rstrip("/") + path)
                        name = f"{app}-before.jpg" if before else f"{app}-v{variant}.jpg"
                        page.screenshot(path=str(OUT / name), type="jpeg", quality=70)
                        context.close()
        finally:
            browser.close()
    for variant in variants[1:]:
        v = variant_of(variant)
        print(f"variant {variant}: palette {v.palette}, nav {v.nav}, lists {v.lists}, icons {v.icons}, dates {v.dates}, "
              f"Search -> {v.word('Search')}, New -> {v.word('New')}")


if __name__ == "__main__":
    main(before=sys.argv[1:] == ["before"])
