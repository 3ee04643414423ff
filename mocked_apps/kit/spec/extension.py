"""A spec's extension: the escape hatch for what a spec cannot express, as code beside the spec file.

    app.yaml              extension: ext
                          pages: [..., {archetype: custom, path: /reports, title: Reports}]
    ext/routes.py         def mount(app, router): ...   # app: archetypes.Compiled (spec, tables, nav)
    ext/templates/*.html  {% extends "arch/layout.html" %} ...   # found before the archetypes' templates

`mount` adds routes after the archetypes' (it can add pages, never replace one) under the same instance
prefix, on the same tables, with the same rules: GETs read, POSTs end in `gym.done`. A compiled app
with an extension runs in a server process of its own, never in the shared host, and the factory never
imports it (only the app's server does).
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Callable

from .model import AppSpec, SpecError

ROUTES = "routes.py"
TEMPLATES = "templates"


def extension_folder(spec: AppSpec, spec_path: str | Path) -> Path | None:
    """The spec's extension folder (beside the spec file), or None when it has none; SpecError when it is missing."""
    if not spec.extension:
        return None
    folder = (Path(spec_path).resolve().parent / spec.extension).resolve()
    if not (folder / ROUTES).is_file():
        raise SpecError(f"{spec_path}: extension: no {spec.extension}/{ROUTES} beside the spec (it must define mount(app, router))")
    return folder


def stamp(folder: Path | None) -> tuple[tuple[str, int], ...]:
    """(file, mtime) of every file of the extension: a changed file compiles the app afresh."""
    if folder is None:
        return ()
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file() and p.suffix != ".pyc"))


def load_mount(folder: Path, app_name: str) -> Callable:
    """`mount(app, router)` of the extension's routes.py, imported under a name of its own (its content's hash)."""
    source = (folder / ROUTES).read_bytes()
    module_name = f"gymext_{app_name}_{hashlib.sha256(source).hexdigest()[:12]}"
    loader_spec = importlib.util.spec_from_file_location(module_name, folder / ROUTES)
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    mount = getattr(module, "mount", None)
    if not callable(mount):
        raise SpecError(f"{folder / ROUTES}: defines no mount(app, router)")
    return mount


def template_dirs(folder: Path | None) -> tuple[Path, ...]:
    """The extension's template folder, when it has one."""
    if folder is None or not (folder / TEMPLATES).is_dir():
        return ()
    return (folder / TEMPLATES,)


__all__ = ["ROUTES", "TEMPLATES", "extension_folder", "load_mount", "stamp", "template_dirs"]
