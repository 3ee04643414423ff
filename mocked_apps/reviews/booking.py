"""Table reservations: the form (a date, a time the business takes, the party, a name and phone), booking,
the list of one's reservations, and cancelling an upcoming one."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Business, Reservation
from .rules import reservation_error, slots

router = APIRouter()


def _form(gym, b: Business, values: dict, errors: dict):
    response = gym.render("reserve.html", b=b, values=values, errors=errors, times=slots(b.opens, b.closes))
    if errors:
        response.status_code = 422
    return response


@router.get("/b/{business_id}/reserve")
def reserve_form(gym: GymDep, business_id: int):
    b = gym.get(Business, business_id)
    return _form(gym, b, {"day": gym.now.date().isoformat(), "time": "", "party": "2", "name": gym.identity.name, "phone": "", "note": ""}, {})


@router.post("/b/{business_id}/reserve")
def reserve(gym: GymDep, business_id: int, day: str = Form(""), time: str = Form(""), party: str = Form(""), name: str = Form(""),
            phone: str = Form(""), note: str = Form("")):
    b = gym.get(Business, business_id)
    values = {"day": day, "time": time, "party": party, "name": name, "phone": phone, "note": note}
    if not b.reservable:
        return _form(gym, b, values, {"day": f"{b.name} does not take reservations."})
    why = reservation_error(b.opens, b.closes, b.closed_weekday, b.max_party, day.strip(), time.strip(),
                            int(party) if party.strip().isdigit() else None, gym.now)
    errors = {}
    if why:
        errors["party" if why.startswith("Parties") else "time" if "time" in why or "hour" in why else "day"] = why
    if not name.strip():
        errors["name"] = "Whose name is the table under?"
    if errors:
        return _form(gym, b, values, errors)
    r = Reservation(number="", business_id=b.id, day=day.strip(), time=time.strip(), party=int(party), name=" ".join(name.split()),
                    phone=phone.strip(), note=note.strip()[:200], created_at=gym.now)
    gym.db.add(r)
    gym.db.flush()
    r.number = f"T{gym.now:%y%m%d}{r.id:03d}"
    gym.db.add(r)
    gym.advance()
    return gym.done(f"/reservations/{r.id}", notice=f"Table booked at {b.name}")


def _when(r: Reservation) -> datetime:
    return datetime.fromisoformat(f"{r.day}T{r.time}")


@router.get("/reservations")
def reservations(gym: GymDep):
    rows = gym.db.exec(select(Reservation).order_by(Reservation.day.desc(), Reservation.time.desc(), Reservation.id.desc())).all()
    names = {b.id: b.name for b in gym.db.exec(select(Business)).all()}
    upcoming = [r for r in rows if r.status == "booked" and _when(r) >= gym.now]
    return gym.render("reservations.html", upcoming=upcoming[::-1], past=[r for r in rows if r not in upcoming], names=names)


@router.get("/reservations/{reservation_id}")
def reservation(gym: GymDep, reservation_id: int):
    r = gym.get(Reservation, reservation_id)
    return gym.render("reservation.html", r=r, b=gym.get(Business, r.business_id), upcoming=r.status == "booked" and _when(r) >= gym.now,
                      when=_when(r))


@router.post("/reservations/{reservation_id}/cancel")
def cancel(gym: GymDep, reservation_id: int):
    r = gym.get(Reservation, reservation_id)
    if r.status != "booked" or _when(r) < gym.now:
        return gym.done(f"/reservations/{r.id}", notice="Only an upcoming reservation can be cancelled.")
    r.status = "cancelled"
    gym.db.add(r)
    return gym.done(f"/reservations/{r.id}", notice="Reservation cancelled")
