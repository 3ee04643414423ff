"""Clinic's recipes: how the app shows a world's records, golden steps and verifier predicates other
families call (the search form, the 'Book <doctor> at <time>' links, a visit's label, the tables)."""

from __future__ import annotations

from datetime import date, datetime

from .manifest import MANIFEST

__all__ = ["add_patient", "book", "cancel", "day_label", "new_appointments_source", "open_app", "open_visit", "reschedule_to", "search",
           "visit_label", "visit_source"]


ANY_INSURANCE = "Any (I'll pay myself)"
"""The search form's insurance option that shows every doctor."""


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def visit_label(doctor: str, start: datetime) -> str:
    """How the appointment lists name a visit (its link's accessible name)."""
    return f"{doctor}, {start:%a %b} {start.day} at {start:%H:%M}"


def day_label(day: date) -> str:
    """How the reschedule page's date list names a day."""
    return f"{day:%a, %b} {day.day}"


def search(specialty: str, day: str, insurance: str | None = None) -> str:
    """From anywhere in the app: search a specialty on a day (ISO), in a carrier's network when given."""
    return "\n".join([
        'env.click("Find care", role="link")', f'env.select("Specialty", {specialty!r})', f'env.fill("Date", {day!r})',
        f'env.select("Insurance", {insurance or ANY_INSURANCE!r})', 'env.click(env.word("Find") + " doctors", role="button")'])


def book(doctor: str, time: str, patient: str, reason: str, insurance: str) -> str:
    """From search results or a doctor's page: book `doctor` at `time` (HH:MM) for `patient`, with a reason and a carrier."""
    return "\n".join([
        f'env.click("Book {doctor} at {time}", role="link")', f'env.check({patient!r}, True)', f'env.select("Reason for visit", {reason!r})',
        f'env.select("Insurance", {insurance!r})', 'env.click(env.word("Book") + " appointment", role="button")'])


def open_visit(doctor: str, start: datetime) -> str:
    """Open an upcoming appointment from the Appointments list."""
    return "\n".join(['env.click("Appointments", role="link")', f'env.click({visit_label(doctor, start)!r}, role="link")'])


def cancel(reason: str = "My plans changed") -> str:
    """On an appointment's page: cancel it, giving a reason."""
    return "\n".join(['env.click("Cancel appointment", role="link")', f'env.select("Reason for cancelling", {reason!r})',
                      'env.click("Confirm cancellation", role="button")'])


def reschedule_to(day: date, time: str) -> str:
    """On an appointment's page: move it to `time` (HH:MM) on `day`."""
    return "\n".join(['env.click("Reschedule", role="link")', f'env.select("New date", {day_label(day)!r})',
                      'env.click("Show times", role="button")', f'env.click("Move to {time}", role="button")'])


def add_patient(name: str, born: str, relationship: str, phone: str, carrier: str, member_id: str) -> str:
    """Save a patient; `relationship` is the form's label ('Parent'), `carrier` a carrier's name."""
    return "\n".join([
        'env.click("Patients", role="link")', 'env.click("Add patient", role="link")', f'env.fill("Full name", {name!r})',
        f'env.fill("Date of birth", {born!r})', f'env.select("Relationship", {relationship!r})', f'env.fill("Phone", {phone!r})',
        f'env.select("Insurance carrier", {carrier!r})', f'env.fill("Member ID", {member_id!r})', 'env.click("Save patient", role="button")'])


def new_appointments_source(fn: str) -> str:
    """`fn(final)`: the appointments booked during the attempt (status booked), each with `start`/`end` as datetimes."""
    return f'''
from datetime import datetime


def _clinic_t(value):
    return datetime.fromisoformat(str(value).replace(" ", "T"))


def {fn}(final):
    old = {{a["id"] for a in final.initial_state["clinic"]["appointment"]}}
    return [dict(a, start=_clinic_t(a["start"]), end=_clinic_t(a["end"])) for a in final.state["clinic"]["appointment"]
            if a["id"] not in old and a["status"] == "booked"]
'''


def visit_source(fn: str) -> str:
    """`fn(final, appointment_id)`: that appointment now (start/end as datetimes), or None."""
    return f'''
from datetime import datetime


def _clinic_at(value):
    return datetime.fromisoformat(str(value).replace(" ", "T"))


def {fn}(final, appointment_id):
    a = next((a for a in final.state["clinic"]["appointment"] if a["id"] == appointment_id), None)
    return None if a is None else dict(a, start=_clinic_at(a["start"]), end=_clinic_at(a["end"]))
'''
