"""Booking: pick a day from the next two weeks, then a free time slot, then confirm the details; taken slots are shown taken."""

from __future__ import annotations

from datetime import date, timedelta

from fastapi import APIRouter, Request
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, options, parse, render

SLOTS = ("09:00", "10:00", "11:00", "12:00", "14:00", "15:00", "16:00", "17:00")


def mount_booking(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    e = app.spec.entity(page.entity)
    model = app.model(e.name)
    path = page_path(page)
    day_field, slot_field = page.options.get("date", "date"), page.options.get("slot", "slot")
    slots = tuple(page.options.get("slots", SLOTS))
    details = [n for n in e.create if n not in (day_field, slot_field)]

    def taken(gym, day: date) -> set[str]:
        col = getattr(model, day_field)
        rows = gym.db.exec(select(model).where(col == day)).all()
        cancelled = set(e.states[-1:]) if e.states else set()
        return {getattr(r, slot_field) for r in rows if not e.states or getattr(r, e.state_field) not in cancelled}

    @router.get(path)
    def pick(gym: GymDep, request: Request, day: str = "", slot: str = "", check: str = ""):
        today = gym.now.date()
        days = [today + timedelta(days=i) for i in range(1, 15)]
        try:
            chosen = date.fromisoformat(day) if day else None
        except ValueError:
            chosen = None
        chosen = chosen if chosen in days else None
        busy = taken(gym, chosen) if chosen else set()
        slot = slot if chosen and slot in slots and slot not in busy else ""
        values = {n: request.query_params.get(n, "") for n in details}
        errors = {n: err for n in details if check and (err := parse(e.field(n), values[n])[1])}
        return render(app, gym, "arch/booking.html", page_title(app.spec, page), entity=e, days=days, day=chosen,
                      slots=slots, busy=busy, slot=slot, details=details, values=values, errors=errors, path=path,
                      field=e.field, options=lambda f: options(app, gym, f))

    @router.post(path)
    async def book(gym: GymDep, request: Request):
        form = await request.form()
        day, slot = str(form.get("day", "")), str(form.get("slot", ""))
        values = {n: str(form.get(n, "")) for n in details}
        try:
            when = date.fromisoformat(day)
        except ValueError:
            return gym.done(path, notice="Pick a day first")
        if slot not in slots or slot in taken(gym, when):
            return gym.done(path, day=day, notice="That time is no longer free; pick another")
        row = {day_field: when, slot_field: slot}
        for n in details:
            value, err = parse(e.field(n), values[n])
            if err:
                return gym.done(path, day=day, slot=slot, check=1, **values)
            row[n] = value
        obj = model(**row)
        gym.db.add(obj)
        gym.db.flush()
        return gym.done(f"/{e.name}/{obj.id}", notice=f"Booked for {when:%b %d} at {slot}")


__all__ = ["SLOTS", "mount_booking"]
