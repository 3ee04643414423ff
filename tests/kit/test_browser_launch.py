"""The one Chromium launch: our --disable-features keeps every feature Playwright disables by default.

Chromium honours only the last --disable-features on its command line, so ours replaces
Playwright's. Launch once with Playwright's defaults alone and once through `launch_chromium`,
read each browser process's command line from /proc, and compare.
"""

from __future__ import annotations

import os

from playwright.sync_api import sync_playwright

from mocked_apps.kit.browser import CHROMIUM_ARGS, TOOLBAR_FEATURES, chromium_path, launch_chromium


def _disabled_features_of_new_browser(before: set[int]) -> set[str]:
    """The --disable-features of the Chromium browser process that appeared since `before` (pids)."""
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in before:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if args and b"chromium" in args[0] and not any(a.startswith(b"--type=") for a in args):
            values = [a.split(b"=", 1)[1].decode() for a in args if a.startswith(b"--disable-features=")]
            return set(values[-1].split(",")) if values else set()
    raise AssertionError("no new Chromium browser process found")


def _pids() -> set[int]:
    return {int(n) for n in os.listdir("/proc") if n.isdigit()}


def test_our_disabled_features_keep_playwrights_and_drop_the_toolbar():
    with sync_playwright() as pw:
        before = _pids()
        plain = pw.chromium.launch(executable_path=chromium_path(), args=[a for a in CHROMIUM_ARGS if not a.startswith("--disable-features=")])
        playwright_default = _disabled_features_of_new_browser(before)
        plain.close()
        before = _pids()
        ours = launch_chromium(pw)
        launched = _disabled_features_of_new_browser(before)
        page = ours.new_page()
        page.set_content("<button>ok</button>")
        assert page.get_by_role("button", name="ok").is_visible()  # still a working browser
        ours.close()
    assert playwright_default, "Playwright passed no --disable-features: the comment in kit/browser.py is out of date"
    assert playwright_default <= launched, f"lost Playwright's: {sorted(playwright_default - launched)}"
    assert set(TOOLBAR_FEATURES) <= launched



def test_the_browser_opens_no_browser_ui_pages():
    """No WebUI page (the omnibox popup, the toolbar) is open beside the context's own page."""
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_context().new_page()
        page.set_content("<p>page</p>")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        browser.close()
    assert [t["type"] for t in targets] == ["page"], [(t["type"], t["url"]) for t in targets]


def test_the_default_browser_is_the_headless_shell(monkeypatch):
    """scripts/install.sh installs chromium-headless-shell, and every launch is headless: it is the default."""
    from mocked_apps.kit.browser import HEADLESS_SHELL

    monkeypatch.delenv("GYMFACTORY_CHROMIUM", raising=False)
    assert chromium_path() == HEADLESS_SHELL
    monkeypatch.setenv("GYMFACTORY_CHROMIUM", "/usr/bin/chromium")
    assert chromium_path() == "/usr/bin/chromium"
