"""Pages and form posts of Ride: where to (saved, recent and known places), the vehicle classes with fare
estimates, and booking now or for later.

A booked trip (progress, receipt, rating, tip) lives in `trips.py`; saved places in `places.py`. Form
errors redirect back to the page with the reason and the values chosen.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from . import places, trips
from .booking import new_ride, quotes, schedule_error
from .models import PaymentMethod, Place, Ride

router = APIRouter()
router.include_router(trips.router)
router.include_router(places.router)
RECENT = 5
"""Recent places shown on the home page."""
ERRORS = {
    "places": "Choose a pickup and a different destination.",
    "class": "Choose a ride.",
    "method": "Choose how to pay.",
}


def _int(text: str | None) -> int | None:
    return int(text) if text and str(text).strip().isdigit() else None


def _place(gym, text: str | None) -> Place | None:
    return gym.db.get(Place, _int(text)) if _int(text) else None


def _when(day: str, clock: str) -> datetime | None:
    try:
        return datetime.fromisoformat(f"{day.strip()}T{clock.strip()}")
    except ValueError:
        return None


def _home(gym, error: str = "", pickup: str = "", dropoff: str = ""):
    rows = gym.db.exec(select(Place).order_by(Place.id)).all()
    saved = [p for p in rows if p.saved_as]
    recent = sorted((p for p in rows if p.last_used and not p.saved_as), key=lambda p: (p.last_used, p.id), reverse=True)[:RECENT]
    office = next((p for p in saved if p.saved_as == "Office"), rows[0] if rows else None)
    upcoming = gym.db.exec(select(Ride).where(Ride.status.in_(("scheduled", "arriving", "on_trip"))).order_by(Ride.pickup_at)).all()
    names = {p.id: p.name for p in rows}
    return gym.render("home.html", places=rows, saved=saved, recent=recent, upcoming=upcoming, names=names, error=ERRORS.get(error, ""),
                      values={"pickup": pickup or (str(office.id) if office else ""), "dropoff": dropoff}, office=office)


@router.get("/")
def home(gym: GymDep):
    return _home(gym)


@router.get("/options")
def options(gym: GymDep, pickup: str = "", dropoff: str = "", error: str = "", vclass: str = "", method: str = "", day: str = "",
            clock: str = "", why: str = ""):
    start, end = _place(gym, pickup), _place(gym, dropoff)
    if start is None or end is None or start.id == end.id:
        return _home(gym, "places" if dropoff else "", pickup, dropoff)
    methods = gym.db.exec(select(PaymentMethod).order_by(PaymentMethod.id)).all()
    quoted = quotes(gym.db, start, end)
    values = {"vclass": vclass or str(quoted[0].vclass.id), "method": method, "day": day or gym.now.date().isoformat(), "clock": clock}
    return gym.render("options.html", pickup=start, dropoff=end, quotes=quoted, methods=methods, values=values,
                      error=why if error == "time" else ERRORS.get(error, ""), error_field=error)


@router.post("/rides")
def book(gym: GymDep, pickup: str = Form(""), dropoff: str = Form(""), vclass: str = Form(""), method: str = Form(""),
         when: str = Form("now"), day: str = Form(""), clock: str = Form("")):
    start, end = _place(gym, pickup), _place(gym, dropoff)
    again = {"pickup": pickup, "dropoff": dropoff, "vclass": vclass, "method": method, "day": day, "clock": clock}
    if start is None or end is None or start.id == end.id:
        return gym.done("/", error="places")
    quote = next((q for q in quotes(gym.db, start, end) if q.vclass.id == _int(vclass)), None)
    if quote is None:
        return gym.done("/options", error="class", **again)
    pay = gym.db.get(PaymentMethod, _int(method)) if _int(method) else None
    if pay is None:
        return gym.done("/options", error="method", **again)
    at = None
    if when == "later":
        at = _when(day, clock)
        why = schedule_error(at, gym.now)
        if why:
            return gym.done("/options", error="time", why=why, **again)
    ride = new_ride(gym.db, quote, start, end, pay.id, gym.now, at)
    gym.advance()
    if at:
        return gym.done(f"/trips/{ride.id}", notice=f"Ride scheduled for {at:%a %b %d, %H:%M}")
    return gym.done(f"/trips/{ride.id}", notice=f"{ride.driver_name} is on the way")
