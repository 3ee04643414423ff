"""A world -> seed records for each app ({table: [rows]}), consistent across apps."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from contracts.world import World
from . import bank, calendar, drive, mail

PROJECTIONS: dict[str, Callable[[World], dict[str, list[dict]]]] = {
    "mail": mail.project,
    "calendar": calendar.project,
    "drive": drive.project,
    "bank": bank.project,
}


class NoProjection(LookupError):
    """No world projection for that app."""


def seeds_for(world: World, apps: list[str] | tuple[str, ...]) -> dict[str, dict[str, list[dict]]]:
    """Seed records of `world` for each app in `apps`."""
    out = {}
    for app in apps:
        if app not in PROJECTIONS:
            near = difflib.get_close_matches(app, PROJECTIONS, n=2)
            raise NoProjection(f"no world projection for app {app!r}" + (f"; did you mean {', '.join(near)}?" if near else ""))
        out[app] = PROJECTIONS[app](world)
    return out


__all__ = ["NoProjection", "PROJECTIONS", "seeds_for"]
