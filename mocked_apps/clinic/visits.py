"""Appointments after booking: the lists, one visit's page, cancelling under the time policy, and moving
a visit to another free slot of the same doctor."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from .models import Appointment, Clinic, Doctor
from .rules import bookable_days, can_reschedule, cancel_terms, free_slots

router = APIRouter()
TABS = {"upcoming": "Upcoming", "past": "Past", "cancelled": "Cancelled"}
CANCEL_REASONS = ("My plans changed", "I feel better", "I booked another time", "I found another doctor", "Other")


def _tab(a: Appointment, now: datetime) -> str:
    return "cancelled" if a.status == "cancelled" else "upcoming" if a.start > now else "past"


@router.get("/appointments")
def appointments(gym: GymDep, tab: str = "upcoming"):
    tab = tab if tab in TABS else "upcoming"
    rows = gym.db.exec(select(Appointment, Doctor).join(Doctor, Appointment.doctor_id == Doctor.id)).all()
    counts = {k: sum(_tab(a, gym.now) == k for a, _ in rows) for k in TABS}
    shown = sorted((r for r in rows if _tab(r[0], gym.now) == tab), key=lambda r: (r[0].start, r[0].id), reverse=tab != "upcoming")
    return gym.render("appointments.html", rows=shown, tab=tab, tabs=TABS, counts=counts,
                      clinics={c.id: c for c in gym.db.exec(select(Clinic)).all()})


def _visit(gym: Gym, appointment_id: int) -> tuple[Appointment, Doctor, Clinic]:
    a = gym.get(Appointment, appointment_id)
    d = gym.get(Doctor, a.doctor_id)
    return a, d, gym.get(Clinic, d.clinic_id)


@router.get("/appointments/{appointment_id}")
def appointment(gym: GymDep, appointment_id: int):
    a, d, clinic = _visit(gym, appointment_id)
    online, fee, policy = cancel_terms(a.start, gym.now, d.late_fee)
    return gym.render("appointment.html", a=a, d=d, clinic=clinic, tab=_tab(a, gym.now), online=online, fee=fee, policy=policy,
                      movable=can_reschedule(a.start, gym.now))


@router.get("/appointments/{appointment_id}/cancel")
def cancel_form(gym: GymDep, appointment_id: int):
    a, d, clinic = _visit(gym, appointment_id)
    online, fee, policy = cancel_terms(a.start, gym.now, d.late_fee)
    return gym.render("cancel.html", a=a, d=d, clinic=clinic, live=_tab(a, gym.now) == "upcoming", online=online, fee=fee, policy=policy,
                      reasons=CANCEL_REASONS)


@router.post("/appointments/{appointment_id}/cancel")
def cancel(gym: GymDep, appointment_id: int, reason: str = Form("")):
    a, d, clinic = _visit(gym, appointment_id)
    online, fee, _ = cancel_terms(a.start, gym.now, d.late_fee)
    if _tab(a, gym.now) != "upcoming":
        return gym.done(f"/appointments/{appointment_id}", notice="Only upcoming appointments can be cancelled.")
    if not online:
        return gym.done(f"/appointments/{appointment_id}", notice=f"Too late to cancel online: call {clinic.name} at {clinic.phone}.")
    a.status, a.cancelled_at, a.cancel_fee = "cancelled", gym.now, fee
    a.cancel_reason = reason if reason in CANCEL_REASONS else ""
    gym.db.add(a)
    gym.advance()
    charged = f"; a late cancellation fee of {fee:,.2f} was charged" if fee else "; no fee"
    return gym.done(f"/appointments/{appointment_id}", notice=f"Appointment cancelled{charged}")


def _move_day(gym: Gym, a: Appointment, day: str) -> date:
    days = bookable_days(gym.now)
    try:
        when = date.fromisoformat(day) if day else a.start.date()
    except ValueError:
        when = a.start.date()
    return when if when in days else days[0]


@router.get("/appointments/{appointment_id}/reschedule")
def reschedule_form(gym: GymDep, appointment_id: int, day: str = ""):
    a, d, clinic = _visit(gym, appointment_id)
    when = _move_day(gym, a, day)
    live = list(gym.db.exec(select(Appointment).where(Appointment.status == "booked")).all())
    movable = a.status == "booked" and can_reschedule(a.start, gym.now)
    return gym.render("reschedule.html", a=a, d=d, clinic=clinic, day=when, days=bookable_days(gym.now), movable=movable,
                      free=free_slots(d, when, gym.now, live, ignore=a.id) if movable else [])


@router.post("/appointments/{appointment_id}/reschedule")
def reschedule(gym: GymDep, appointment_id: int, start: str = Form("")):
    a, d, _ = _visit(gym, appointment_id)
    if a.status != "booked" or not can_reschedule(a.start, gym.now):
        return gym.done(f"/appointments/{appointment_id}", notice="Within 24 hours of the visit it can only be cancelled, not moved.")
    try:
        when = datetime.fromisoformat(start)
    except ValueError:
        return gym.done(f"/appointments/{appointment_id}/reschedule", notice="Choose a new time.")
    live = list(gym.db.exec(select(Appointment).where(Appointment.status == "booked")).all())
    if when not in free_slots(d, when.date(), gym.now, live, ignore=a.id):
        return gym.done(f"/appointments/{appointment_id}/reschedule", day=when.date().isoformat(),
                        notice=f"{when:%H:%M} is no longer available: choose another time.")
    a.start, a.end, a.reschedules = when, when + timedelta(minutes=d.slot_minutes), a.reschedules + 1
    gym.db.add(a)
    gym.advance()
    return gym.done(f"/appointments/{appointment_id}", notice=f"Moved to {when:%A, %B} {when.day} at {when:%H:%M}")
