"""World -> clinic seed: the clinics and doctors around the persona's city (and the world's own health
vendor, if it has one), the persona and their partner and children as saved patients on the persona's
insurance, and appointments: the world's "Physio at <clinic>" meetings (same times) plus a past check-up
and three upcoming visits booked in this app but not yet in the calendar.
"""

from __future__ import annotations

import re
import zlib
from datetime import date, datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import clinics_and_doctors
from .rules import CARRIERS, slots

__all__ = ["birth_date", "carrier_of", "member_id", "phone_of", "project"]

_PHYSIO = re.compile(r"^Physio at (?P<clinic>.+)$")
_SAVED_ROLES = {"partner": "partner", "wife": "partner", "husband": "partner", "son": "child", "daughter": "child"}
_ROLES = {**_SAVED_ROLES, "mother": "parent", "father": "parent", "brother": "sibling", "sister": "sibling"}


def _n(text: str) -> int:
    return zlib.crc32(text.encode())


def relationship_of(role: str) -> str:
    """A household role ('daughter') as the app's relationship ('child')."""
    return _ROLES.get(role, "other")


def birth_date(name: str, relationship: str, today: date) -> str:
    """A person's date of birth, the same in every world they appear in at that date: children 3-15, parents 60-80."""
    low, high = {"child": (3, 15), "parent": (60, 80)}.get(relationship, (26, 55))
    n = _n(name)
    born = date(today.year - (low + n % (high - low + 1)), 1 + n // 7 % 12, 1 + n // 91 % 28)
    return born.isoformat()


def carrier_of(world: World) -> str:
    """The household's insurance carrier."""
    return CARRIERS[_n(world.persona.name) % len(CARRIERS)]


def member_id(name: str) -> str:
    n = _n(name)
    return f"{'ABCDEFGHJKLMNPRSTUVWXYZ'[n % 23]}{'HMQRWZ'[n // 23 % 6]}{n % 10**8:08d}"


def phone_of(name: str) -> str:
    n = _n(f"phone/{name}")
    return f"(555) {200 + n % 800:03d}-{1000 + n // 800 % 9000:04d}"


def _patients(world: World) -> list[dict]:
    today = world.scenario.clock.date()
    carrier = carrier_of(world)
    me = world.persona.name
    rows = [{"id": 1, "name": me, "date_of_birth": birth_date(me, "self", today), "relationship": "self", "phone": phone_of(me),
             "email": world.persona.email, "carrier": carrier, "member_id": member_id(me), "is_self": True}]
    for p in world.people:
        if world.org(p.org).kind == "household" and p.role in _SAVED_ROLES:
            rel = _SAVED_ROLES[p.role]
            rows.append({"id": len(rows) + 1, "name": p.name, "date_of_birth": birth_date(p.name, rel, today), "relationship": rel,
                         "phone": phone_of(me if rel == "child" else p.name), "email": "" if rel == "child" else p.email,
                         "carrier": carrier, "member_id": member_id(p.name), "is_self": False})
    return rows


def _first_slot_from(doctor: dict, after: datetime) -> datetime:
    """The doctor's first slot at or after `after` (within three weeks)."""
    for i in range(21):
        for s in slots(doctor, after.date() + timedelta(days=i)):
            if s >= after:
                return s
    return after


def project(world: World) -> dict[str, list[dict]]:
    clinics, doctors = clinics_and_doctors(world)
    patients = _patients(world)
    now = world.scenario.clock
    appointments: list[dict] = []

    def book(doctor: dict, start: datetime, end: datetime, patient: dict, reason: str, booked: datetime) -> None:
        aid = len(appointments) + 1
        appointments.append({"id": aid, "code": f"C{booked:%y%m%d}{aid:03d}", "doctor_id": doctor["id"], "patient_id": patient["id"],
                             "patient_name": patient["name"], "start": start.isoformat(), "end": end.isoformat(), "reason": reason,
                             "visit_type": "in_person", "insurance": patient["carrier"] if _accepted(doctor, patient["carrier"]) else "",
                             "note": "", "status": "booked", "created_at": booked.isoformat(), "cancelled_at": None, "cancel_fee": 0.0,
                             "cancel_reason": "", "reschedules": 0})

    def visit(doctor: dict, start: datetime, patient: dict, reason: str) -> None:
        booked = min(now - timedelta(days=2, hours=_n(f"{world.id}/{len(appointments)}") % 48), start - timedelta(days=1))
        book(doctor, start, start + timedelta(minutes=doctor["slot_minutes"]), patient, reason, booked.replace(second=0, microsecond=0))

    by_name = {c["name"]: c["id"] for c in clinics}
    for m in sorted(world.meetings, key=lambda m: (m.start, m.id)):
        match = _PHYSIO.match(m.title)
        doctor = next((d for d in doctors if match and d["clinic_id"] == by_name.get(match["clinic"])), None)
        if doctor is not None:
            book(doctor, m.start, m.end, patients[0], "Physical therapy session", min(m.start, now) - timedelta(days=8))
    me = patients[0]
    relative = patients[1] if len(patients) > 1 else me
    morning = now.replace(hour=9, minute=0, second=0, microsecond=0)
    visit(doctors[0], _first_slot_from(doctors[0], morning - timedelta(days=23)), me, "Annual physical")
    visit(doctors[4], _first_slot_from(doctors[4], now + timedelta(hours=20)), me, "Cleaning and check-up")
    visit(doctors[10], _first_slot_from(doctors[10], morning + timedelta(days=3, hours=2)), me, "Eye exam")
    visit(doctors[7], _first_slot_from(doctors[7], morning + timedelta(days=6, hours=6)), relative, "Skin check")
    appointments.sort(key=lambda a: (a["created_at"], a["id"]))
    for i, a in enumerate(appointments):
        a["id"] = i + 1
        a["code"] = f"C{datetime.fromisoformat(a['created_at']):%y%m%d}{i + 1:03d}"
    return {"clinic": clinics, "doctor": doctors, "patient": patients, "appointment": appointments, **identity_seed(world.persona)}


def _accepted(doctor: dict, carrier: str) -> bool:
    return carrier in [c.strip() for c in doctor["accepts"].split(",")]
