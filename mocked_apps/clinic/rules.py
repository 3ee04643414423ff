"""The clinic's rules apart from HTTP: specialties and their visit reasons, insurance, the booking window,
a doctor's slots and which are free, the cancellation and rescheduling policy, and patient details.

Families call these too (on the projection's rows), so a task's ground truth follows the rules the app
applies. Rows may be models or dicts: `_get` reads either.
"""

from __future__ import annotations

import re
import zlib
from datetime import date, datetime, time, timedelta
from typing import Any, Iterable

__all__ = ["BOOKING_DAYS", "CARRIERS", "FREE_CANCEL_HOURS", "MIN_NOTICE", "ONLINE_CANCEL_HOURS", "REASONS", "SPECIALTIES",
           "RELATIONSHIPS", "accepts", "bookable_days", "can_reschedule", "cancel_terms", "free_slots", "patient_clash", "patient_errors", "slots", "taken_elsewhere"]

SPECIALTIES = ("Primary care", "Dentist", "Dermatologist", "Eye doctor", "Pediatrician", "Physical therapist")
"""What patients search by."""

REASONS = {
    "Primary care": ("Annual physical", "Illness", "Follow-up visit", "Vaccination"),
    "Dentist": ("Cleaning and check-up", "Toothache", "Filling", "Teeth whitening"),
    "Dermatologist": ("Skin check", "Acne", "Rash", "Mole removal"),
    "Eye doctor": ("Eye exam", "Contact lens fitting", "Dry eyes"),
    "Pediatrician": ("Well-child visit", "Sick visit", "Vaccination"),
    "Physical therapist": ("Back pain", "Sports injury", "Physical therapy session"),
}
"""Reasons for a visit, per specialty, as the booking form offers them."""

CARRIERS = ("Aetna", "Blue Cross Blue Shield", "Cigna", "Humana", "UnitedHealthcare")
"""Insurance carriers a doctor may take; '' on a patient or an appointment is self-pay."""

BOOKING_DAYS = 14
"""Slots are open this many days ahead, today included."""

MIN_NOTICE = timedelta(hours=1)
"""A slot must start at least this long after now to be booked online."""

FREE_CANCEL_HOURS = 24
"""Cancelling (or moving) this many hours or more before the visit is free."""

ONLINE_CANCEL_HOURS = 2
"""Closer than this to the visit, it cannot be cancelled online: call the clinic."""


def _get(row: Any, key: str) -> Any:
    return row[key] if isinstance(row, dict) else getattr(row, key)


def _dt(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def bookable_days(now: datetime) -> list[date]:
    return [now.date() + timedelta(days=i) for i in range(BOOKING_DAYS)]


def accepts(doctor: Any, carrier: str) -> bool:
    """Whether the doctor takes `carrier` ('' = self-pay, which every doctor takes)."""
    return not carrier or carrier in [c.strip() for c in _get(doctor, "accepts").split(",")]


def taken_elsewhere(doctor_id: int, start: datetime, busy: int) -> bool:
    """Whether a slot was booked on another channel (phone, other apps): `busy` percent of them, fixed per slot."""
    return zlib.crc32(f"{doctor_id}/{start:%Y-%m-%dT%H:%M}".encode()) % 100 < busy


def slots(doctor: Any, day: date) -> list[datetime]:
    """Every slot start of a doctor on a day (their weekly hours cut into visits), booked or not."""
    if str(day.isoweekday()) not in _get(doctor, "days"):
        return []
    step = timedelta(minutes=_get(doctor, "slot_minutes"))
    out = []
    for window in _get(doctor, "hours").split(","):
        a, b = (time.fromisoformat(x.strip()) for x in window.split("-"))
        start, end = datetime.combine(day, a), datetime.combine(day, b)
        while start + step <= end:
            out.append(start)
            start += step
    return out


def free_slots(doctor: Any, day: date, now: datetime, appointments: Iterable[Any], ignore: int | None = None) -> list[datetime]:
    """The slots of a doctor on a day that can be booked now: in the window, with notice, not taken elsewhere,
    overlapping none of the doctor's booked appointments (`ignore`: an appointment id being moved)."""
    if day not in bookable_days(now):
        return []
    did, minutes = _get(doctor, "id"), _get(doctor, "slot_minutes")
    booked = [(_dt(_get(a, "start")), _dt(_get(a, "end"))) for a in appointments
              if _get(a, "doctor_id") == did and _get(a, "status") == "booked" and _get(a, "id") != ignore]
    out = []
    for s in slots(doctor, day):
        e = s + timedelta(minutes=minutes)
        if s < now + MIN_NOTICE or taken_elsewhere(did, s, _get(doctor, "busy")):
            continue
        if any(s < b_end and b_start < e for b_start, b_end in booked):
            continue
        out.append(s)
    return out


def patient_clash(patient_id: int, start: datetime, end: datetime, appointments: Iterable[Any]) -> Any | None:
    """The patient's booked appointment that overlaps [start, end), if any: the app books no one twice at once."""
    return next((a for a in appointments if _get(a, "patient_id") == patient_id and _get(a, "status") == "booked"
                 and _dt(_get(a, "start")) < end and start < _dt(_get(a, "end"))), None)


def cancel_terms(start: datetime, now: datetime, late_fee: float) -> tuple[bool, float, str]:
    """(can cancel online, the fee, the policy line shown) for a visit at `start`."""
    hours = (start - now).total_seconds() / 3600
    if hours < ONLINE_CANCEL_HOURS:
        return False, 0.0, f"Less than {ONLINE_CANCEL_HOURS} hours to go: call the clinic to cancel."
    if hours < FREE_CANCEL_HOURS:
        return True, round(late_fee, 2), f"Less than {FREE_CANCEL_HOURS} hours before the visit: a late cancellation fee applies."
    return True, 0.0, f"Free cancellation until {FREE_CANCEL_HOURS} hours before the visit."


def can_reschedule(start: datetime, now: datetime) -> bool:
    """Moving a visit is allowed while cancelling it would be free."""
    return (start - now).total_seconds() / 3600 >= FREE_CANCEL_HOURS


_PHONE = re.compile(r"^\+?[0-9 ()\-.]{7,20}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_MEMBER = re.compile(r"^[A-Z0-9]{6,15}$")
RELATIONSHIPS = {"self": "Me", "partner": "Partner or spouse", "child": "Child", "parent": "Parent", "sibling": "Sibling", "other": "Other"}


def patient_errors(values: dict[str, str], today: date, is_self: bool = False) -> dict[str, str]:
    """Field -> message for a patient's details (name, birth date in the past, phone, email, insurance)."""
    errors = {}
    if not values.get("name", "").strip() or len(values["name"].split()) < 2:
        errors["name"] = "Enter the patient's first and last name."
    try:
        born = date.fromisoformat(values.get("date_of_birth", "").strip())
        if born > today:
            errors["date_of_birth"] = "The date of birth cannot be in the future."
        elif born.year < today.year - 120:
            errors["date_of_birth"] = "Check the year of birth."
    except ValueError:
        errors["date_of_birth"] = "Enter the date of birth as YYYY-MM-DD."
    rel = values.get("relationship", "")
    if rel not in RELATIONSHIPS or (rel == "self") != is_self:
        errors["relationship"] = "Choose how the patient is related to you."
    phone = values.get("phone", "").strip()
    if not _PHONE.match(phone) or sum(c.isdigit() for c in phone) < 7:
        errors["phone"] = "Enter a phone number (at least 7 digits)."
    email = values.get("email", "").strip()
    if email and not _EMAIL.match(email):
        errors["email"] = "Enter an email like name@example.com, or leave it empty."
    carrier, member = values.get("carrier", ""), values.get("member_id", "").strip().upper()
    if carrier and carrier not in CARRIERS:
        errors["carrier"] = "Choose an insurance carrier, or self-pay."
    elif carrier and not _MEMBER.match(member):
        errors["member_id"] = "Enter the member ID from the insurance card: 6 to 15 letters and digits."
    elif not carrier and member:
        errors["member_id"] = "Self-pay patients have no member ID: leave it empty or choose the carrier."
    return errors
