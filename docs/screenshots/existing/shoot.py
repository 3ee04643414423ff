"""Screenshots of mail, calendar and drive at 1280x800 and 390x844 into a folder: python shoot.py OUT [app ...]."""
import sys
from pathlib import Path
from playwright.sync_api import sync_playwright
from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium

OUT = Path(sys.argv[1])
SHOTS = [
    ("mail", "inbox", "/"),
    ("mail", "thread", "/thread/16"),
    ("mail", "attachment", "/attachment/7"),
    ("calendar", "week", "/week?date=2026-03-04"),
    ("calendar", "event", "/event/1"),
    ("drive", "list", "/folder/2"),
    ("drive", "grid", "/folder/2?view=grid"),
    ("drive", "preview", "/file/1/preview"),
]
only = set(sys.argv[2:])
servers = {}
try:
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        for app, name, path in SHOTS:
            if only and app not in only:
                continue
            if app not in servers:
                servers[app] = AppServer(app).start()
            s = servers[app]
            url = s.url + s.admin.create()["url"].rstrip("/") + path
            for ff, label in (("desktop", "1280x800"), ("mobile", "390x844")):
                ctx = browser.new_context(**context_options(ff))
                page = ctx.new_page()
                r = page.goto(url)
                if r.status != 200:
                    print("skip", app, name, r.status); ctx.close(); break
                page.screenshot(path=str(OUT / f"{app}-{name}-{label}.png"), full_page=False)
                ctx.close()
        browser.close()
finally:
    for s in servers.values():
        s.stop()
