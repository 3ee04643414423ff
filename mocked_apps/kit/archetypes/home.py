"""Home: the product's landing page: its tagline, counts per state, and the latest records of each entity."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import func
from sqlmodel import select

from mocked_apps.kit.context import GymDep

from .common import Compiled, render


def mount_home(app: Compiled, router: APIRouter) -> None:
    spec = app.spec

    @router.get("/")
    def home(gym: GymDep):
        stats, recent = [], []
        for e in spec.entities:
            model = app.model(e.name)
            if e.states:
                col = getattr(model, e.state_field)
                counts = dict(gym.db.exec(select(col, func.count()).group_by(col)).all())
                stats.append((e, [(s, counts.get(s, 0)) for s in e.states]))
            recent.append((e, gym.db.exec(select(model).order_by(model.id.desc()).limit(4)).all(), app.list_path(e.name)))
        return render(app, gym, "arch/home.html", spec.title, stats=stats, recent=recent)


__all__ = ["mount_home"]
