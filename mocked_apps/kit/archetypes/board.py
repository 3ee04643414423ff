"""Kanban board: one column per state, a card per record, moves between columns through the state machine."""

from __future__ import annotations

from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, fmt, ref_titles, render


def mount_board(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model = app.model(e.name)
    path = page_path(page)

    @router.get(path)
    def board(gym: GymDep):
        rows = gym.db.exec(select(model).order_by(model.id)).all()
        columns = [(s, [r for r in rows if getattr(r, e.state_field) == s]) for s in e.states]
        moves = {s: [t for t in e.transitions if s in t.source] for s in e.states}
        return render(app, gym, "arch/board.html", page_title(app.spec, page), entity=e, columns=columns, moves=moves,
                      path=path, refs=ref_titles(app, gym, e), sub=e.subtitle and e.field(e.subtitle))


__all__ = ["mount_board"]
