"""Loading an app package, shipped or from any folder, into one `AppPackage`."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

from fastapi import APIRouter
from sqlmodel import SQLModel

from .manifest import AppManifest


class AppPackageError(Exception):
    """An app package is missing a part or declares it wrongly."""


@dataclass(frozen=True)
class AppPackage:
    """Everything the kit needs from an app: manifest, tables, routes, templates, seed."""

    manifest: AppManifest
    tables: tuple[type[SQLModel], ...]
    router: APIRouter
    root: Path
    default_seed: dict
    default_clock: str
    middleware: tuple = ()
    template_dirs: tuple[Path, ...] = ()  # searched before templates_dir (a compiled spec's extension templates)

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def static_dir(self) -> Path | None:
        path = self.root / "static"
        return path if path.is_dir() else None

    def table(self, name: str) -> type[SQLModel] | None:
        return next((t for t in self.tables if t.__tablename__ == name), None)

    def full_manifest(self) -> AppManifest:
        """The manifest with `entities` filled in: table name -> JSON schema of a row."""
        entities = {t.__tablename__: t.model_json_schema() for t in self.tables}
        return self.manifest.model_copy(update={"entities": entities})


_SOURCES: list[tuple[Callable[[str | Path], bool], Callable[[str | Path], AppPackage], Callable[[str | Path, str], ModuleType | None]]] = []
"""Other kinds of app reference (e.g. a spec file the kit compiles): (accepts(ref), load(ref), part(ref, name)), tried first."""


def add_source(accepts: Callable[[str | Path], bool], load: Callable[[str | Path], AppPackage],
               part: Callable[[str | Path, str], ModuleType | None]) -> None:
    """Let `load_package`, `load_manifest` and `load_part` take references that `accepts` recognises (e.g. `*.yaml` specs)."""
    _SOURCES.append((accepts, load, part))


def load_package(ref: str | Path) -> AppPackage:
    """Load an app from a module name (`mocked_apps.mail`), a package folder path, or a registered source (a spec)."""
    for accepts, load, _ in _SOURCES:
        if accepts(ref):
            return load(ref)
    module = _import_root(ref)
    name = module.__name__
    root = Path(module.__file__).parent
    try:
        manifest = importlib.import_module(f"{name}.manifest").MANIFEST
        models = _import_models(ref, f"{name}.models")
        router = importlib.import_module(f"{name}.routes").router
    except (ImportError, AttributeError) as err:
        raise AppPackageError(f"app package {ref}: {err}") from err
    if not isinstance(manifest, AppManifest):
        raise AppPackageError(f"app package {ref}: manifest.MANIFEST must be an AppManifest")
    tables = tuple(
        obj
        for _, obj in inspect.getmembers(models, inspect.isclass)
        if issubclass(obj, SQLModel) and hasattr(obj, "__table__") and obj.__module__ == models.__name__
    )
    if not tables:
        raise AppPackageError(f"app package {ref}: models.py defines no SQLModel tables")
    seed_file = root / "seed.json"
    if not seed_file.is_file():
        raise AppPackageError(f"app package {ref}: no seed.json")
    seed_doc = json.loads(seed_file.read_text())
    if not (root / "templates").is_dir():
        raise AppPackageError(f"app package {ref}: no templates/ folder")
    return AppPackage(
        manifest=manifest,
        tables=tables,
        router=router,
        root=root,
        default_seed=seed_doc.get("seed", {}),
        default_clock=seed_doc.get("clock", "2026-01-05T09:00:00"),
        middleware=tuple(getattr(module, "MIDDLEWARE", ())),
    )


def _import_models(ref: str | Path, module: str) -> ModuleType:
    """Import models.py; a field SQLModel cannot map to a column fails naming the model, the field and the fix.

    SQLModel raises a bare `TypeError` (e.g. "issubclass() arg 1 must be a class") from inside its
    metaclass for a field type it has no column type for, such as a `Literal`; the model and field
    are only in that frame's locals.
    """
    try:
        return importlib.import_module(module)
    except TypeError as err:
        where = _field_in_trouble(err.__traceback__)
        if where is None:
            raise
        model, field, annotation = where
        raise AppPackageError(
            f"app package {ref}: models.py: {model}.{field} ({annotation}) has no database column type: "
            f"declare one with Field(sa_type=...), e.g. `{field}: {annotation} = Field(sa_type=String)` "
            f"(from sqlalchemy import String); SQLModel said: {err}"
        ) from err


def _field_in_trouble(tb) -> tuple[str, str, str] | None:
    """(model, field, annotation) from SQLModel's metaclass frame in a traceback, if it is there."""
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "__new__" and "sqlmodel" in frame.f_code.co_filename and "k" in frame.f_locals:
            info = frame.f_locals.get("v")
            annotation = getattr(info, "annotation", None)
            shown = repr(annotation).replace("typing.", "") if annotation is not None else "its type"
            return str(frame.f_locals.get("name", "?")), str(frame.f_locals["k"]), shown
        tb = tb.tb_next
    return None


def load_manifest(ref: str | Path) -> AppManifest:
    """Only the manifest of an app (no models imported), so many apps can be listed in one process.

    Apps whose models use `mocked_apps.kit.tables.namespace()` (every shipped one) keep their tables in
    their own metadata and can be loaded side by side; reading manifests imports no models at all.
    """
    for accepts, load, _ in _SOURCES:
        if accepts(ref):
            return load(ref).manifest
    module = _import_root(ref)
    try:
        manifest = importlib.import_module(f"{module.__name__}.manifest").MANIFEST
    except (ImportError, AttributeError) as err:
        raise AppPackageError(f"app package {ref}: {err}") from err
    if not isinstance(manifest, AppManifest):
        raise AppPackageError(f"app package {ref}: manifest.MANIFEST must be an AppManifest")
    return manifest


def _import_root(ref: str | Path) -> ModuleType:
    path = Path(ref)
    if path.is_dir() and (path / "__init__.py").is_file():
        path = path.resolve()
        mod_name = f"gymapp_{path.name}"
        if mod_name in sys.modules:
            return sys.modules[mod_name]
        spec = importlib.util.spec_from_file_location(
            mod_name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        spec.loader.exec_module(module)
        return module
    if isinstance(ref, Path) or "/" in str(ref):
        raise AppPackageError(f"{ref} is not a package folder (no __init__.py)")
    try:
        return importlib.import_module(str(ref))
    except ImportError as err:
        raise AppPackageError(f"cannot import app module {ref}: {err}") from err


def load_part(ref: str | Path, part: str) -> ModuleType | None:
    """An optional module of an app package (`projection`, `families`, `recipes`), or None when it has none."""
    for accepts, _, load in _SOURCES:
        if accepts(ref):
            return load(ref, part)
    module = _import_root(ref)
    if importlib.util.find_spec(f"{module.__name__}.{part}") is None:
        return None
    return importlib.import_module(f"{module.__name__}.{part}")
