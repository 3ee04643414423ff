"""Page archetypes: real interaction patterns (table, detail with tabs, wizard, board, catalogue and cart, feed,
booking, calendar, chat, settings, map list, media) that compiled specs and hand-written apps both mount."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from fastapi import APIRouter

from mocked_apps.kit.spec.model import AppSpec

from .board import mount_board
from .booking import mount_booking
from .calendar import mount_calendar
from .catalogue import mount_catalogue
from .chat import mount_chat
from .common import Compiled, build_nav
from .feed import mount_feed
from .home import mount_home
from .media import mount_media
from .places import mount_maplist
from .records import mount_records, mount_table
from .settings import mount_settings

ROOT = Path(__file__).parent
"""Holds `templates/arch/` and `static/`: a compiled app's template and static folders."""

MOUNTS = {"table": mount_table, "board": mount_board, "catalogue": mount_catalogue, "feed": mount_feed,
          "booking": mount_booking, "calendar": mount_calendar, "chat": mount_chat, "settings": mount_settings,
          "maplist": mount_maplist, "media": mount_media}


def build_router(spec: AppSpec, tables: dict, extension: Callable | None = None) -> APIRouter:
    """Every page of the spec on one router: the home page, each page's archetype, and each entity's records;
    then the spec's extension `mount(app, router)` (its `custom` pages), after them so it adds and never replaces."""
    app = Compiled(spec=spec, tables=tables, nav=build_nav(spec))
    router = APIRouter()
    mount_home(app, router)
    for page in spec.pages:
        if page.archetype != "custom":
            MOUNTS[page.archetype](app, page, router)
    for e in spec.entities:
        mount_records(app, e, router)
    if extension is not None:
        extension(app, router)
    return router


__all__ = ["Compiled", "MOUNTS", "ROOT", "build_router"]
