"""The launcher of a multi-app session: a home screen (mobile) or dock (desktop), served by the browser itself.

Nothing lives in the browser: the launcher page and the `/open/<n>` redirects are answered from
the session's current instances (Python side), and the dock added to every app page is a static
script per session that links to those redirects.
"""

from __future__ import annotations

import html
import json
from urllib.parse import urlsplit

from runtime.backends.base import Instance, Served

LAUNCHER_URL = "http://gym.launcher/"
LAUNCHER_ROUTE = "http://gym.launcher/**"

_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title><link rel="icon" href="data:,">
<style>
body {{ margin: 0; font: 16px system-ui, sans-serif; background: #eef1f5; color: #1d2330; }}
h1 {{ font-size: 20px; margin: 24px; }}
.home {{ display: grid; grid-template-columns: repeat(4, 1fr); gap: 18px; padding: 0 18px; }}
.home a {{ display: flex; flex-direction: column; align-items: center; text-decoration: none; color: inherit; font-size: 13px; }}
.home .icon {{ width: 60px; height: 60px; border-radius: 16px; background: #fff; display: grid; place-items: center;
  font-size: 30px; box-shadow: 0 1px 3px #0002; margin-bottom: 6px; }}
.dock {{ display: flex; gap: 8px; padding: 10px 24px; background: #1d2330; }}
.dock a {{ color: #fff; text-decoration: none; padding: 8px 14px; border-radius: 8px; background: #ffffff18; }}
</style></head><body>{body}</body></html>"""


def launcher_page(instances: list[Instance], form_factor: str) -> str:
    """The home screen (mobile: a grid of icons) or the dock of app tabs (desktop)."""
    if form_factor == "mobile":
        icons = "".join(
            f'<a href="{_open(i)}"><span class="icon" aria-hidden="true">{html.escape(inst.icon)}</span>'
            f"{html.escape(inst.title)}</a>"
            for i, inst in enumerate(instances)
        )
        body = f'<h1>Home</h1><nav class="home" aria-label="Apps">{icons}</nav>'
    else:
        tabs = "".join(f'<a href="{_open(i)}">{html.escape(inst.title)}</a>' for i, inst in enumerate(instances))
        body = f'<nav class="dock" aria-label="Apps">{tabs}</nav><h1>Choose an app</h1>'
    return _PAGE.format(title="Home" if form_factor == "mobile" else "Apps", body=body)


def labels(instances: list[Instance]) -> list[str]:
    """Launcher labels: app titles, made unique with the app reference when two apps share a title."""
    titles = [inst.title or inst.app for inst in instances]
    return [t if titles.count(t) == 1 else f"{t} ({inst.app.rsplit('/', 1)[-1]})" for t, inst in zip(titles, instances)]


def serve(url: str, instances: list[Instance], form_factor: str) -> Served:
    """The launcher's answer for `url`: the page itself, or a redirect to an app's instance."""
    path = urlsplit(url).path
    if path.startswith("/open/"):
        try:
            return Served(status=302, location=instances[int(path.removeprefix("/open/"))].url)
        except (ValueError, IndexError):
            return Served(status=404, body="no such app")
    if path in ("", "/"):
        named = [inst.model_copy(update={"title": label}) for inst, label in zip(instances, labels(instances))]
        return Served(body=launcher_page(named, form_factor))
    return Served(status=404, body="not found")


def dock_script(titles: list[str], form_factor: str) -> str:
    """Init script: a fixed app bar (desktop: one tab per app; mobile: a Home button) on every app page."""
    links = [(LAUNCHER_URL, "Home")] if form_factor == "mobile" else [(_open(i), t) for i, t in enumerate(titles)]
    return (
        "(() => { if (location.host === 'gym.launcher' || window.top !== window) return;\n"
        f"const links = {json.dumps(links)}; const mobile = {json.dumps(form_factor == 'mobile')};\n"
        "const add = () => { if (!document.body || document.getElementById('__gym_dock')) return;\n"
        "  const nav = document.createElement('nav'); nav.id = '__gym_dock'; nav.setAttribute('aria-label', 'Apps');\n"
        "  nav.style.cssText = 'position:fixed;left:0;right:0;bottom:0;z-index:2147483647;display:flex;gap:6px;'"
        " + 'justify-content:center;padding:6px;background:#1d2330;font:14px system-ui,sans-serif;';\n"
        "  for (const [href, label] of links) { const a = document.createElement('a'); a.href = href; a.textContent = label;\n"
        "    a.style.cssText = 'color:#fff;text-decoration:none;padding:6px 12px;border-radius:6px;background:#ffffff22;'; nav.appendChild(a); }\n"
        "  document.body.appendChild(nav); document.body.style.paddingBottom = (mobile ? 52 : 44) + 'px'; };\n"
        "if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', add); else add(); })();"
    )


def _open(index: int) -> str:
    return f"{LAUNCHER_URL}open/{index}"


