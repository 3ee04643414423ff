"""The app registry: shipped apps by name, plus apps registered from any folder."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

SHIPPED: dict[str, str] = {
    "mail": "mocked_apps.mail",
    "calendar": "mocked_apps.calendar",
    "drive": "mocked_apps.drive",
    "bank": "mocked_apps.bank",
}


class UnknownApp(LookupError):
    """No app by that name; the message suggests near names."""


def home() -> Path:
    """gymfactory's per-user folder (`GYMFACTORY_HOME`, default `~/.gymfactory`)."""
    return Path(os.environ.get("GYMFACTORY_HOME", Path.home() / ".gymfactory"))


def _registered_file() -> Path:
    return home() / "apps.json"


def registered() -> dict[str, str]:
    """Apps added with `register` (e.g. by app synthesis): name -> package folder."""
    path = _registered_file()
    return json.loads(path.read_text()) if path.is_file() else {}


def register(name: str, folder: Path) -> None:
    """Make an app package folder available by name to every command."""
    apps = registered()
    apps[name] = str(Path(folder).resolve())
    path = _registered_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(apps, indent=2, sort_keys=True))


def available() -> dict[str, str]:
    """Every app name -> its module or folder reference."""
    return {**SHIPPED, **registered()}


def resolve(ref: str) -> str:
    """A name, module or folder -> something `load_package` takes; did-you-mean on a typo."""
    if Path(ref).is_dir():
        return str(Path(ref).resolve())
    apps = available()
    if ref in apps:
        return apps[ref]
    if "." in ref:
        return ref
    near = difflib.get_close_matches(ref, apps, n=3)
    hint = f"; did you mean {', '.join(near)}?" if near else f"; known apps: {', '.join(sorted(apps))}"
    raise UnknownApp(f"unknown app {ref!r}{hint}")
