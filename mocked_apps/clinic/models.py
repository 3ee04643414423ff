"""The clinic app's tables: clinics, doctors (with their weekly hours and the insurance they take), saved
patients, and appointments.

Free slots are not stored: a doctor's slots are their weekly hours cut into visits of `slot_minutes`, less
the slots booked on other channels (a fixed function of the doctor and the time, `rules.taken_elsewhere`),
less this instance's booked appointments, so a slot disappears when it is booked and comes back when the
appointment is cancelled or moved. Money is a float in the persona's currency, 2 decimals.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Clinic(AppModel, table=True):
    """A practice where doctors see patients."""

    id: int | None = Field(default=None, primary_key=True, description="Clinic id.")
    name: str = Field(min_length=1, description="Clinic name as shown, e.g. 'Riverside Family Health'.")
    address: str = Field(description="Street address, one line.")
    phone: str = Field(description="Front desk phone, shown for cancellations that cannot be made online.")
    color: str = Field(default="#0f766e", description="Brand colour of its drawn photo, '#rrggbb'.")


class Doctor(AppModel, table=True):
    """A doctor (or dentist, therapist) who takes bookings at one clinic."""

    id: int | None = Field(default=None, primary_key=True, description="Doctor id.")
    name: str = Field(min_length=1, description="Name as shown, e.g. 'Dr. Maya Patel'.")
    credentials: str = Field(default="MD", description="Letters after the name, e.g. 'MD', 'DDS', 'DPT'.")
    specialty: str = Field(description="One of rules.SPECIALTIES, e.g. 'Dermatologist'.")
    clinic_id: int = Field(foreign_key="clinic.id", description="Where they practise.")
    rating: float = Field(ge=0, le=5, description="Average patient rating, 0-5.")
    reviews: int = Field(ge=0, description="Number of patient reviews.")
    languages: str = Field(default="English", description="Languages spoken, comma-separated.")
    bio: str = Field(default="", description="A short profile.")
    accepts: str = Field(default="", description="Insurance carriers taken, comma-separated (see rules.CARRIERS).")
    video: bool = Field(default=False, description="True when they also offer video visits.")
    days: str = Field(description="Weekdays they see patients, as digits Monday=1 .. Sunday=7, e.g. '12345'.")
    hours: str = Field(description="Daily opening windows 'HH:MM-HH:MM', comma-separated, e.g. '09:00-12:00,13:00-17:00'.")
    slot_minutes: int = Field(gt=0, description="Length of one visit; slots start every slot_minutes within the windows.")
    busy: int = Field(ge=0, le=100, description="Percent of slots booked on other channels (see rules.taken_elsewhere).")
    fee: float = Field(ge=0, description="Self-pay price of a visit.")
    late_fee: float = Field(ge=0, description="Charged for a cancellation less than 24 hours before the visit.")


class Patient(AppModel, table=True):
    """Someone the user books for: themselves or a family member."""

    id: int | None = Field(default=None, primary_key=True, description="Patient id.")
    name: str = Field(min_length=1, description="Full legal name.")
    date_of_birth: str = Field(description="'YYYY-MM-DD'.")
    relationship: Literal["self", "partner", "child", "parent", "sibling", "other"] = Field(
        default="self", sa_type=String, description="How they relate to the signed-in user.")
    phone: str = Field(default="", description="Contact phone, digits and + ( ) - and spaces.")
    email: str = Field(default="", description="Contact email, optional.")
    carrier: str = Field(default="", description="Insurance carrier (one of rules.CARRIERS), '' for self-pay.")
    member_id: str = Field(default="", description="Insurance member ID, upper case; '' for self-pay.")
    is_self: bool = Field(default=False, description="True for the signed-in user's own entry (cannot be removed).")


class Appointment(AppModel, table=True):
    """A booked visit of one patient with one doctor."""

    id: int | None = Field(default=None, primary_key=True, description="Appointment id.")
    code: str = Field(description="Confirmation code as shown, e.g. 'C260302001'.")
    doctor_id: int = Field(foreign_key="doctor.id", index=True, description="Doctor seen.")
    patient_id: int = Field(description="Patient (not a foreign key: appointments outlive a removed patient).")
    patient_name: str = Field(description="Patient's name at booking.")
    start: NaiveDatetime = Field(description="When the visit starts.")
    end: NaiveDatetime = Field(description="When it ends (start + the doctor's slot_minutes).")
    reason: str = Field(description="Reason for the visit, one of the doctor's specialty's reasons (rules.REASONS).")
    visit_type: Literal["in_person", "video"] = Field(default="in_person", sa_type=String, description="'in_person' or 'video'.")
    insurance: str = Field(default="", description="Carrier billed, '' for self-pay.")
    note: str = Field(default="", description="Note for the doctor, optional.")
    status: Literal["booked", "cancelled"] = Field(
        default="booked", sa_type=String, description="'booked' (a past booked visit counts as attended) or 'cancelled'.")
    created_at: NaiveDatetime = Field(description="When it was booked (virtual clock).")
    cancelled_at: NaiveDatetime | None = Field(default=None, description="When it was cancelled.")
    cancel_fee: float = Field(default=0.0, ge=0, description="Late-cancellation fee charged (0 when cancelled 24 h or more ahead).")
    cancel_reason: str = Field(default="", description="Why it was cancelled, as chosen.")
    reschedules: int = Field(default=0, ge=0, description="How many times the visit was moved to another time.")
