"""Map-like list: places by distance with markers on a drawn map, a distance filter, and a selected place."""

from __future__ import annotations

import hashlib

from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render

RADII = (1, 3, 5, 10)


def _spot(row_id: int, name: str) -> tuple[int, int]:
    digest = hashlib.sha256(f"{name}/{row_id}".encode()).digest()
    return 8 + digest[0] % 84, 10 + digest[1] % 78


def mount_maplist(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model = app.model(e.name)
    path = page_path(page)
    distance = page.options.get("distance") or next(f.name for f in e.fields if f.type == "number")

    @router.get(path)
    def places(gym: GymDep, within: int = 0, selected: int = 0):
        rows = gym.db.exec(select(model).order_by(getattr(model, distance), model.id)).all()
        if within in RADII:
            rows = [r for r in rows if (getattr(r, distance) or 0) <= within]
        marks = [(r, *_spot(r.id, app.spec.name)) for r in rows]
        return render(app, gym, "arch/maplist.html", page_title(app.spec, page), entity=e, marks=marks, within=within,
                      radii=RADII, distance=distance, selected=selected, path=path)


__all__ = ["mount_maplist"]
