"""What a world's clinic app shows at its clock, computed from its projection with the app's own rules:
families write their ground truth from here, so a task agrees with the app it runs on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from contracts.world import World

from .projection import project
from .rules import accepts, cancel_terms, free_slots, patient_clash

__all__ = ["Visit", "free_times", "near_threshold", "upcoming", "when_text"]


@dataclass(frozen=True)
class Visit:
    """A booked appointment of the world still ahead of its clock."""

    appointment_id: int
    doctor: str
    doctor_id: int
    specialty: str
    patient: str
    reason: str
    start: datetime
    end: datetime
    fee: float
    online: bool


def _dt(value) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def free_times(world: World, day: date, specialty: str | None = None, carrier: str = "", rows: dict | None = None,
               ignore: int | None = None, patient: int | None = None) -> list[tuple[datetime, dict]]:
    """(slot start, doctor row) of every free slot on `day`, of a specialty and in a carrier's network when given, by time;
    with `patient` (an id), only the slots that patient can book: none overlapping their own booked appointments."""
    rows = rows or project(world)
    out = []
    for d in rows["doctor"]:
        if (specialty is None or d["specialty"] == specialty) and accepts(d, carrier):
            for s in free_slots(d, day, world.scenario.clock, rows["appointment"], ignore=ignore):
                end = s + timedelta(minutes=d["slot_minutes"])
                if patient is None or patient_clash(patient, s, end, rows["appointment"]) is None:
                    out.append((s, d))
    return sorted(out, key=lambda x: (x[0], x[1]["id"]))


def upcoming(world: World, rows: dict | None = None) -> list[Visit]:
    """The world's booked appointments that have not started, by start."""
    rows = rows or project(world)
    now = world.scenario.clock
    doctors = {d["id"]: d for d in rows["doctor"]}
    out = []
    for a in rows["appointment"]:
        start = _dt(a["start"])
        if a["status"] == "booked" and start > now:
            d = doctors[a["doctor_id"]]
            online, fee, _ = cancel_terms(start, now, d["late_fee"])
            out.append(Visit(appointment_id=a["id"], doctor=d["name"], doctor_id=d["id"], specialty=d["specialty"], patient=a["patient_name"],
                             reason=a["reason"], start=start, end=_dt(a["end"]), fee=fee, online=online))
    return sorted(out, key=lambda v: (v.start, v.appointment_id))


def when_text(day: date | datetime) -> str:
    """'Thursday, March 5': how instructions name a day."""
    return f"{day:%A, %B} {day.day}"


def near_threshold(start: datetime, now: datetime) -> bool:
    """Whether a visit is within 15 minutes of a policy threshold (24 h, 2 h), where the clock's advance during an attempt could flip it."""
    hours = (start - now).total_seconds() / 3600
    return any(abs(hours - h) < 0.25 for h in (24, 2))

