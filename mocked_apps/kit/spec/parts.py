"""A compiled app's optional parts, as the registry asks for them (`load_part(ref, name)`): its world projection
(`project(world)`: the spec's sample data drawn from the world) and its task families (derived from the spec)."""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType

from contracts.world import World

from .compile import read_spec
from .model import AppSpec
from .sample import sample_seed


def projection(spec: AppSpec):
    """`project(world)` of a spec: sample rows seeded by the world's id, at the world's clock, with its people and orgs."""

    def project(world: World) -> dict[str, list[dict]]:
        return sample_seed(spec, world.id, world.scenario.clock, world)

    return project


@functools.lru_cache(maxsize=None)
def spec_part(ref: str, name: str) -> ModuleType | None:
    """The module-like part `name` ('projection', 'families') of the compiled app at spec file `ref`, or None."""
    spec = read_spec(ref)
    module = ModuleType(f"gymspec_{spec.name}.{name}", f"{name} of the compiled app {spec.name}")
    if name == "projection":
        module.project = projection(spec)
        return module
    if name == "families":
        from .derive import derive_families

        module.FAMILIES = derive_families(spec, str(Path(ref).resolve()))
        return module
    return None


__all__ = ["projection", "spec_part"]
