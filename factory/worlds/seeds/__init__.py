"""A world -> seed records for each app ({table: [rows]}), consistent across apps.

Each app owns its projection (`project(world)` in its package's `projection.py`); apps are found by
discovery (`mocked_apps.registry`), so a new app folder brings its projection with it.
"""

from __future__ import annotations

from collections.abc import Callable

from contracts.registry import UnknownName
from contracts.world import World
from mocked_apps.registry import AppParts, part

Projection = Callable[[World], dict[str, list[dict]]]


def _projection(app: str) -> Projection | None:
    module = part(app, "projection")
    return getattr(module, "project", None) if module is not None else None


PROJECTIONS: AppParts[Projection] = AppParts(_projection)
"""App name -> its world projection, for every available app that has one."""


class NoProjection(UnknownName):
    """No world projection for that app; the message suggests near names."""


def seeds_for(world: World, apps: list[str] | tuple[str, ...]) -> dict[str, dict[str, list[dict]]]:
    """Seed records of `world` for each app in `apps`."""
    out = {}
    for app in apps:
        try:
            project = PROJECTIONS[app]
        except KeyError:
            raise NoProjection("world projection for app", app, PROJECTIONS) from None
        out[app] = project(world)
    return out


__all__ = ["NoProjection", "PROJECTIONS", "Projection", "seeds_for"]
