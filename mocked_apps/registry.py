"""Apps by name, found by discovery: an app is one folder (or an installed module), and no list names it.

Sources, merged in order (a later one wins on a name clash):

- `shipped`: every folder of `mocked_apps/` that is an app package (`manifest.py`, `models.py`, `routes.py`);
- `installed`: entry points of the group `gymfactory.apps` (`name = "package.module"`) of installed distributions;
- `on_path`: every app folder inside the folders of `GYMFACTORY_APP_PATH` (`os.pathsep`-separated);
- `registered`: apps added with `register` (e.g. by app synthesis), kept in `$GYMFACTORY_HOME/apps.json`.

Adding a source (e.g. apps compiled from YAML specs) is one function `() -> {name: ref}` appended to
`SOURCES`, where `ref` is anything `mocked_apps.kit.load_package` takes; an app's optional parts
(`projection`, `families`, `recipes`) are then found by `part` in its package, or the source's
refs may name a package that provides them. Names resolve through `contracts.registry` (did-you-mean).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from contracts.errors import InputError
from contracts.registry import UnknownName, check_name
from mocked_apps.catalogue import compiled
from mocked_apps.kit.package import load_part

__all__ = ["AppParts", "AppRegistryError", "SHIPPED", "SOURCES", "UnknownApp", "available", "home", "installed", "on_path",
           "part", "register", "registered", "resolve", "shipped"]

APP_PATH_ENV = "GYMFACTORY_APP_PATH"
ENTRY_POINT_GROUP = "gymfactory.apps"
_HERE = Path(__file__).parent


class UnknownApp(UnknownName):
    """No app by that name; the message suggests near names."""


class AppRegistryError(InputError):
    """`apps.json`, the list of apps registered from other folders, cannot be read; the message names the file."""


_APP_FILES = ("__init__.py", "manifest.py", "models.py", "routes.py")


def _app_folders(root: Path) -> Iterator[Path]:
    """Sub-folders of `root` that are app packages (what the loader needs: `__init__`, `manifest`, `models`, `routes`)."""
    if root.is_dir():
        yield from sorted(p for p in root.iterdir() if all((p / f).is_file() for f in _APP_FILES))


def shipped() -> dict[str, str]:
    """The apps of this repository: name (the folder's) -> module."""
    return {p.name: f"mocked_apps.{p.name}" for p in _app_folders(_HERE)}


def installed() -> dict[str, str]:
    """Apps of installed distributions, declared as entry points of the group `gymfactory.apps`."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def on_path() -> dict[str, str]:
    """App folders inside the folders named by `GYMFACTORY_APP_PATH`: name (the folder's) -> folder."""
    folders = [Path(f).expanduser() for f in os.environ.get(APP_PATH_ENV, "").split(os.pathsep) if f]
    return {p.name: str(p.resolve()) for folder in folders for p in _app_folders(folder)}


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


SOURCES: list[Callable[[], dict[str, str]]] = [shipped, compiled, installed, on_path, registered]  # compiled: spec files (mocked_apps.catalogue)
SHIPPED: dict[str, str] = shipped()


def available() -> dict[str, str]:
    """Every app name -> its module or folder reference, from every source."""
    out: dict[str, str] = {}
    for source in SOURCES:
        out.update(source())
    return out


def resolve(ref: str) -> str:
    """A name, module or folder -> something `load_package` takes; did-you-mean on a typo.

    A registered name wins over a folder of that name in the working directory (`gymfactory run` in a folder
    that holds a `notes/` must still serve the notes app); `./notes` or any path with a slash is the folder."""
    apps = available()
    if ref in apps and "/" not in ref:
        return apps[ref]
    if Path(ref).is_dir():
        return str(Path(ref).resolve())
    if "." in ref:
        return ref
    return apps[check_name("app", ref, apps, UnknownApp)]


def part(app: str, name: str) -> ModuleType | None:
    """The module `name` (`projection`, `families`, `recipes`) of an app, or None when the app has none."""
    return load_part(resolve(app), name)


T = TypeVar("T")


class AppParts(Mapping[str, T]):
    """App name -> what `load(app)` gives, for every available app that gives something; discovered on use,
    so an app added to a source later (a folder on `GYMFACTORY_APP_PATH`) is seen without a restart."""

    def __init__(self, load: Callable[[str], T | None]):
        self._load = load
        self._loaded: dict[tuple[str, str], T | None] = {}

    def _get(self, app: str, ref: str) -> T | None:
        if (app, ref) not in self._loaded:
            self._loaded[(app, ref)] = self._load(app)
        return self._loaded[(app, ref)]

    def __getitem__(self, app: str) -> T:
        apps = available()
        value = self._get(app, apps[app]) if app in apps else None
        if value is None:
            raise KeyError(app)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([app for app, ref in sorted(available().items()) if self._get(app, ref) is not None])

    def items(self) -> list[tuple[str, T]]:  # one discovery for all apps (Mapping's default discovers once per app)
        return [(app, value) for app, ref in sorted(available().items()) if (value := self._get(app, ref)) is not None]

    def values(self) -> list[T]:
        return [value for _, value in self.items()]

    def __len__(self) -> int:
        return sum(1 for _ in self)
