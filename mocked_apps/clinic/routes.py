"""Pages and form posts of Clinic Booking: the search, a specialty's doctors with the day's free slots, a
doctor's profile, and booking a slot.

Appointments after booking (cancel, reschedule) live in `visits.py`, saved patients in `patients.py`. A
booking error redirects back to the form with the typed values and `check=1`; the form validates them
again, so no state lives in the browser.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from . import patients, visits
from .models import Appointment, Clinic, Doctor, Patient
from .rules import CARRIERS, REASONS, SPECIALTIES, accepts, bookable_days, free_slots, patient_clash

router = APIRouter()
router.include_router(visits.router)
router.include_router(patients.router)

SORTS = {"soonest": "Soonest available", "rating": "Highest rated", "reviews": "Most reviewed"}
VISIT_TYPES = {"in_person": "In person", "video": "Video visit"}


def _day(gym: Gym, text: str) -> date | None:
    try:
        day = date.fromisoformat(text.strip()) if text and text.strip() else gym.now.date()
    except ValueError:
        return None
    return day if day in bookable_days(gym.now) else None


def live_appointments(gym: Gym) -> list[Appointment]:
    return list(gym.db.exec(select(Appointment).where(Appointment.status == "booked")).all())


def upcoming(gym: Gym) -> list[tuple[Appointment, Doctor]]:
    rows = gym.db.exec(select(Appointment, Doctor).join(Doctor, Appointment.doctor_id == Doctor.id)
                       .where(Appointment.status == "booked", Appointment.start > gym.now).order_by(Appointment.start, Appointment.id)).all()
    return list(rows)


@router.get("/")
def home(gym: GymDep, specialty: str = "", day: str = "", insurance: str = "", check: str = ""):
    me = gym.db.exec(select(Patient).where(Patient.is_self == True)).first()  # noqa: E712
    values = {"specialty": specialty or SPECIALTIES[0], "day": day or gym.now.date().isoformat(),
              "insurance": insurance if check else (me.carrier if me else "")}
    errors = _search_errors(gym, specialty, day) if check else {}
    return gym.render("home.html", values=values, errors=errors, specialties=SPECIALTIES, carriers=CARRIERS,
                      days=bookable_days(gym.now), upcoming=upcoming(gym)[:3],
                      clinics={c.id: c for c in gym.db.exec(select(Clinic)).all()})


def _search_errors(gym: Gym, specialty: str, day: str) -> dict[str, str]:
    errors = {}
    if specialty not in SPECIALTIES:
        errors["specialty"] = "Choose a specialty."
    if _day(gym, day) is None:
        last = bookable_days(gym.now)[-1]
        errors["day"] = f"Choose a date from today to {last:%B} {last.day}: bookings open two weeks ahead."
    return errors


@router.get("/search")
def search(gym: GymDep, specialty: str = "", day: str = "", insurance: str = "", sort: str = "soonest", video: str = "",
           available: str = ""):
    """A specialty's doctors with their free slots on a day; a bad search goes back to the form with the reason."""
    if _search_errors(gym, specialty, day):
        return gym.done("/", check=1, specialty=specialty, day=day, insurance=insurance)
    when = _day(gym, day)
    carrier = insurance if insurance in CARRIERS else ""
    live = live_appointments(gym)
    doctors = gym.db.exec(select(Doctor).where(Doctor.specialty == specialty).order_by(Doctor.id)).all()
    rows = []
    for d in doctors:
        if carrier and not accepts(d, carrier) or video and not d.video:
            continue
        free = free_slots(d, when, gym.now, live)
        if available and not free:
            continue
        rows.append((d, free))
    sort = sort if sort in SORTS else "soonest"
    key = {"soonest": lambda r: (r[1][0] if r[1] else datetime.max, r[0].id), "rating": lambda r: (-r[0].rating, r[0].id),
           "reviews": lambda r: (-r[0].reviews, r[0].id)}[sort]
    rows.sort(key=key)
    days = bookable_days(gym.now)
    return gym.render("search.html", rows=rows, specialty=specialty, day=when, insurance=carrier, sort=sort, sorts=SORTS, video=video,
                      available=available, carriers=CARRIERS, specialties=SPECIALTIES,
                      clinics={c.id: c for c in gym.db.exec(select(Clinic)).all()},
                      prev_day=when - timedelta(days=1) if when > days[0] else None,
                      next_day=when + timedelta(days=1) if when < days[-1] else None)


@router.get("/doctors/{doctor_id}")
def doctor_page(gym: GymDep, doctor_id: int, day: str = ""):
    doctor = gym.get(Doctor, doctor_id)
    when = _day(gym, day) or gym.now.date()
    live = live_appointments(gym)
    strip = [(d, len(free_slots(doctor, d, gym.now, live))) for d in bookable_days(gym.now)]
    return gym.render("doctor.html", d=doctor, clinic=gym.get(Clinic, doctor.clinic_id), day=when, strip=strip,
                      free=free_slots(doctor, when, gym.now, live), carriers=[c.strip() for c in doctor.accepts.split(",")])


def _slot(gym: Gym, doctor_id: str, start: str) -> tuple[Doctor | None, datetime | None]:
    doctor = gym.db.get(Doctor, int(doctor_id)) if doctor_id.isdigit() else None
    try:
        when = datetime.fromisoformat(start)
    except ValueError:
        when = None
    return doctor, when


def book_errors(gym: Gym, doctor: Doctor | None, start: datetime | None, values: dict[str, str]) -> dict[str, str]:
    """Field -> message for a booking; the slot must still be free when the form is sent."""
    if doctor is None or start is None:
        return {"slot": "This time slot does not exist; search again."}
    if start not in free_slots(doctor, start.date(), gym.now, live_appointments(gym)):
        return {"slot": f"{start:%H:%M} on {start:%A, %B} {start.day} is no longer available with {doctor.name}: choose another time."}
    errors = {}
    patient = gym.db.get(Patient, int(values["patient"])) if values["patient"].isdigit() else None
    if patient is None:
        errors["patient"] = "Choose who the appointment is for."
    if values["reason"] not in REASONS[doctor.specialty]:
        errors["reason"] = "Choose the reason for the visit."
    if values["visit_type"] not in VISIT_TYPES or values["visit_type"] == "video" and not doctor.video:
        errors["visit_type"] = f"{doctor.name} sees patients in person only."
    insurance = values["insurance"]
    if patient is not None and insurance not in ("", patient.carrier):
        errors["insurance"] = f"Choose {patient.name}'s insurance or self-pay."
    elif insurance and not accepts(doctor, insurance):
        errors["insurance"] = f"{doctor.name} does not take {insurance}: choose self-pay ({doctor.fee:,.2f}) or another doctor."
    if patient is not None and "patient" not in errors:
        end = start + timedelta(minutes=doctor.slot_minutes)
        clash = patient_clash(patient.id, start, end, live_appointments(gym))
        if clash is not None:
            errors["patient"] = f"{patient.name} already has an appointment at {clash.start:%H:%M} that day."
    return errors


@router.get("/book")
def book_form(gym: GymDep, doctor: str = "", start: str = "", patient: str = "", reason: str = "", visit_type: str = "in_person",
              insurance: str = "", note: str = "", check: str = ""):
    d, when = _slot(gym, doctor, start)
    people = list(gym.db.exec(select(Patient).order_by(Patient.is_self.desc(), Patient.id)).all())
    me = next((p for p in people if p.is_self), None)
    values = {"doctor": doctor, "start": start, "patient": patient if check else str(me.id if me else ""), "reason": reason,
              "visit_type": visit_type, "insurance": insurance if check else (me.carrier if me and d and accepts(d, me.carrier) else ""),
              "note": note}
    found = book_errors(gym, d, when, values)
    errors = found if check else {k: v for k, v in found.items() if k == "slot"}
    return gym.render("book.html", d=d, start=when, clinic=gym.db.get(Clinic, d.clinic_id) if d else None, people=people, values=values,
                      errors=errors, reasons=REASONS.get(d.specialty, ()) if d else (), visit_types=VISIT_TYPES,
                      carriers={p.id: p.carrier for p in people})


@router.post("/book")
def book(gym: GymDep, doctor: str = Form(""), start: str = Form(""), patient: str = Form(""), reason: str = Form(""),
         visit_type: str = Form("in_person"), insurance: str = Form(""), note: str = Form("")):
    d, when = _slot(gym, doctor, start)
    values = {"doctor": doctor, "start": start, "patient": patient, "reason": reason, "visit_type": visit_type, "insurance": insurance,
              "note": note}
    if book_errors(gym, d, when, values):
        return gym.done("/book", check=1, **values)
    person = gym.get(Patient, int(patient))
    visit = Appointment(code="", doctor_id=d.id, patient_id=person.id, patient_name=person.name, start=when,
                        end=when + timedelta(minutes=d.slot_minutes), reason=reason, visit_type=visit_type, insurance=insurance,
                        note=note.strip(), created_at=gym.now)
    gym.db.add(visit)
    gym.db.flush()
    visit.code = f"C{gym.now:%y%m%d}{visit.id:03d}"
    gym.db.add(visit)
    gym.advance()
    return gym.done(f"/appointments/{visit.id}", notice=f"Booked: {d.name}, {when:%A, %B} {when.day} at {when:%H:%M}")


__all__ = ["router"]
