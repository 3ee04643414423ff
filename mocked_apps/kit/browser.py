"""Launching Debian's Chromium through Playwright: the one place that knows how."""

from __future__ import annotations

import os
import shutil

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]

# Chromium keeps only the last --disable-features, so ours repeats Playwright 1.65's own list (a test
# checks that none of Playwright's is lost) and adds what a headless browser does for no one:
# - the WebUI toolbar, which re-renders in a renderer of its own on every navigation (about 10 ms of CPU each);
# - the omnibox popup's two WebUI pages (chrome://omnibox-popup.top-chrome/), a renderer per browser
#   context that took 0.35 s of CPU per validated task;
# - the spare renderer, which Chromium starts after each navigation for the context that navigated:
#   with several contexts taking turns it is thrown away and started again (350 renderers for 24 tasks).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AimEnabled", "AvoidCorsURLLoaderRestartOnRedirect", "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose", "HttpsFirstBalancedModeAutoEnable", "HttpsUpgrades", "LensOverlay", "MediaRouter",
    "NetworkTimeServiceQuerying", "OptimizationHints", "PaintHolding", "PreconnectToSearch", "TcpPortRandomizationWin",
    "ThirdPartyStoragePartitioning", "msEdgeUpdateLaunchServicesPreferredVersion", "msForceBrowserSignIn",
)
TOOLBAR_FEATURES = ("WebUIToolbar", "WebUIReloadButton", "InitialWebUI", "PreloadTopChromeWebUI", "WebUILocationBar",
                    "WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess")
CHROMIUM_ARGS.append("--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + TOOLBAR_FEATURES))

DESKTOP_VIEWPORT = {"width": 1280, "height": 800}
MOBILE_DEVICE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36"
    ),
}


class BrowserNotFound(RuntimeError):
    """No Chromium to launch; the message says how to install one."""


HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def chromium_path() -> str:
    """`GYMFACTORY_CHROMIUM`, else Debian's headless shell (package chromium-headless-shell), else its chromium.

    The headless shell is Chromium without the browser's own UI: on the validation of 48 tasks it took
    56 s of CPU where /usr/bin/chromium took 106 s (the browser process alone 16 s against 46 s), for the
    same pages and the same verdicts. Every launch here is headless, so it is the default."""
    path = os.environ.get("GYMFACTORY_CHROMIUM")
    if not path:
        path = HEADLESS_SHELL if os.access(HEADLESS_SHELL, os.X_OK) else shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        raise BrowserNotFound(f"no Chromium at {path}: run scripts/install.sh (apt-get install -y chromium chromium-headless-shell)")
    return path


def launch_chromium(playwright, **kwargs):
    """A headless Chromium browser from a started `sync_playwright()` or `async_playwright()`."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True, **kwargs)


def context_options(form_factor: str) -> dict:
    """Playwright `new_context` options for `desktop` (1280x800) or `mobile` (a phone with touch)."""
    if form_factor == "desktop":
        return {"viewport": DESKTOP_VIEWPORT}
    if form_factor == "mobile":
        return dict(MOBILE_DEVICE)
    raise ValueError(f"unknown form factor {form_factor!r}; use 'desktop' or 'mobile'")
