"""The compiler: an app spec (YAML) -> an `AppPackage` the kit serves like any hand-written app.

Nothing is generated on disk and no kit code is copied: the package's tables come from the spec
(in their own namespace), its router is the kit's archetypes mounted over the spec, its templates
and static files are the archetypes', and its default seed is the spec's sample data.
"""

from __future__ import annotations

import functools
import os
from datetime import datetime
from pathlib import Path
from types import ModuleType

from contracts.world import World
from mocked_apps.catalogue import SPECS

from .archetypes import ROOT, build_router
from .identity import IDENTITY_KEY, Identity, identity_seed
from .manifest import AppManifest, PageSpec as ManifestPage
from .package import AppPackage
from .spec.derive import derive_families
from .spec.extension import extension_folder, load_mount, stamp, template_dirs
from .spec.files import declared_extension, read_spec
from .spec.model import AppSpec, page_path, page_title
from .spec.sample import sample_seed
from .spec.tables import build_tables

DEFAULT_CLOCK = "2026-03-02T09:00:00"
DEFAULT_IDENTITY = {IDENTITY_KEY: [Identity(name="Alex Morgan", email="alex.morgan@northwind.example",
                                            company="Northwind Studio").model_dump()]}
"""Who a default seed signs in (the persona of the default world, as in every app's default seed); a world's
projection signs in its own persona instead."""


def manifest_of(spec: AppSpec) -> AppManifest:
    """The manifest a compiled app declares: its pages, and the changes that follow from others (consequences)."""
    consequences: dict[str, str] = {}
    for e in spec.entities:
        for t in e.transitions:
            for name in t.effects:
                consequences.setdefault(f"{e.name}.{name}", f"set when a {e.display.lower()} is moved to {t.to}")
    archetypes = {p.archetype for p in spec.pages}
    if "catalogue" in archetypes:
        consequences.update({"cart_line": "items added to the cart before checkout",
                             "purchase.placed_at": "the clock when the order is placed"})
    if "feed" in archetypes:
        consequences["comment.posted_at"] = "the clock when the comment is posted"
    if "chat" in archetypes:
        consequences["chat_message.sent_at"] = "the clock when the message is sent"
    pages = [ManifestPage(path="/", title="Home", description=spec.tagline or spec.description)]
    pages += [ManifestPage(path=page_path(p), title=page_title(spec, p), description=f"{p.archetype} page") for p in spec.pages]
    return AppManifest(name=spec.name, title=spec.title, category=spec.category, description=spec.description,
                       version=spec.version, icon=spec.icon, imitates="novel (compiled from a spec)", pages=tuple(pages),
                       consequences=consequences)


def compile_spec(spec: AppSpec, root: Path | None = None, extension: Path | None = None) -> AppPackage:
    """The app package of a spec (tables, archetype routes, templates, default seed), with the routes and templates
    of its extension folder when given (`mocked_apps/kit/spec/extension.py`; without it, only the spec's own pages)."""
    tables = build_tables(spec)
    return AppPackage(
        manifest=manifest_of(spec),
        tables=tuple(tables.values()),
        router=build_router(spec, tables, load_mount(extension, spec.name) if extension else None),
        root=root or ROOT,
        default_seed={**sample_seed(spec, spec.sample_seed, datetime.fromisoformat(DEFAULT_CLOCK)), **DEFAULT_IDENTITY},
        default_clock=DEFAULT_CLOCK,
        template_dirs=template_dirs(extension),
    )


def load_spec_package(path: str) -> AppPackage:
    """The compiled package of a spec file, once per process while neither it nor its extension changes."""
    name = declared_extension(path)
    folder = Path(path).resolve().parent / name if name else None
    return _load_spec_package(path, Path(path).stat().st_mtime_ns, stamp(folder if folder and folder.is_dir() else None))


@functools.lru_cache(maxsize=None)
def _load_spec_package(path: str, _mtime: int, _extension_stamp: tuple) -> AppPackage:
    spec = read_spec(path)
    return compile_spec(spec, extension=extension_folder(spec, path))




def projection(spec: AppSpec):
    """`project(world)` of a spec: sample rows seeded by the world's id, at the world's clock, with its people and orgs."""

    def project(world: World) -> dict[str, list[dict]]:
        return {**sample_seed(spec, world.id, world.scenario.clock, world), **identity_seed(world.persona)}

    return project


def families_enabled() -> bool:
    """Compiled apps' families join synthesis only with `GYMFACTORY_CATALOGUE=1` (e.g. `GYMFACTORY_CATALOGUE=1
    gymfactory run --tasks 600`): 41 catalogue apps bring 174 families, and the default run stays the shipped apps'."""
    return os.environ.get("GYMFACTORY_CATALOGUE", "0") == "1"


def spec_part(ref: str, name: str) -> ModuleType | None:
    """The module-like part `name` ('projection', 'families') of the compiled app at spec file `ref`, or None.

    The shipped catalogue's families wait for `GYMFACTORY_CATALOGUE=1`; a spec of one's own (`apps compile`,
    `apps new`, `apps synthesize`) always brings its derived families."""
    if name == "families" and not families_enabled() and Path(ref).resolve().parent == SPECS.resolve():
        return None
    return _spec_part(ref, name)


def derived_families(ref: str) -> tuple:
    """The families derived from the spec at `ref`, whatever `GYMFACTORY_CATALOGUE` says (synthesis asks for them
    with `SynthConfig.catalogue`, `gymfactory run --catalogue`)."""
    return tuple(getattr(_spec_part(ref, "families"), "FAMILIES", ()))


@functools.lru_cache(maxsize=None)
def _spec_part(ref: str, name: str) -> ModuleType | None:
    spec = read_spec(ref)
    module = ModuleType(f"gymspec_{spec.name}.{name}", f"{name} of the compiled app {spec.name}")
    if name == "projection":
        module.project = projection(spec)
    elif name == "families":
        module.FAMILIES = derive_families(spec)
    else:
        return None
    return module


__all__ = ["DEFAULT_CLOCK", "compile_spec", "families_enabled", "load_spec_package", "manifest_of", "projection", "spec_part"]
