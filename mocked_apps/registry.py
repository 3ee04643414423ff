"""The app registry: shipped apps by name, plus apps registered from any folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

from contracts.errors import InputError
from contracts.registry import UnknownName

SHIPPED: dict[str, str] = {
    "mail": "mocked_apps.mail",
    "calendar": "mocked_apps.calendar",
    "drive": "mocked_apps.drive",
    "bank": "mocked_apps.bank",
}


class UnknownApp(UnknownName):
    """No app by that name; the message suggests near names."""


class AppRegistryError(InputError):
    """`apps.json`, the list of apps registered from other folders, cannot be read; the message names the file."""


def home() -> Path:
    """gymfactory's per-user folder (`GYMFACTORY_HOME`, default `~/.gymfactory`)."""
    return Path(os.environ.get("GYMFACTORY_HOME", Path.home() / ".gymfactory"))


def _registered_file() -> Path:
    return home() / "apps.json"


def registered() -> dict[str, str]:
    """Apps added with `register` (e.g. by app synthesis): name -> package folder."""
    path = _registered_file()
    if not path.is_file():
        return {}
    try:
        apps = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise AppRegistryError(f"{path} is corrupt ({err}); fix it, or delete it and register the apps again") from None
    if not isinstance(apps, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in apps.items()):
        raise AppRegistryError(f"{path} is not a JSON object of app name -> folder; fix it, or delete it and register the apps again")
    return apps


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
    raise UnknownApp("app", ref, apps)
