"""Calendar grid: a month of records placed on their date, with previous/next month."""

from __future__ import annotations

import calendar as cal
from datetime import date, datetime, timedelta

from fastapi import APIRouter
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render


def mount_calendar(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model = app.model(e.name)
    path = page_path(page)
    field = page.options.get("date") or next(f.name for f in e.fields if f.type in ("date", "datetime"))

    @router.get(path)
    def month_view(gym: GymDep, month: str = ""):
        try:
            first = datetime.strptime(month, "%Y-%m").date()
        except ValueError:
            first = gym.now.date().replace(day=1)
        weeks = cal.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month)
        by_day: dict[date, list] = {}
        for row in gym.db.exec(select(model).order_by(model.id)).all():
            value = getattr(row, field)
            if value is not None:
                by_day.setdefault(value if isinstance(value, date) and not isinstance(value, datetime) else value.date(), []).append(row)
        prev = (first.replace(day=1) - timedelta(days=1)).replace(day=1)
        nxt = (first.replace(day=28) + timedelta(days=7)).replace(day=1)
        return render(app, gym, "arch/calendar.html", page_title(app.spec, page), entity=e, weeks=weeks, by_day=by_day,
                      first=first, prev=prev, nxt=nxt, path=path, today=gym.now.date())


__all__ = ["mount_calendar"]
