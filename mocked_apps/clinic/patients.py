"""Saved patients: the people the user books for, with the details a clinic needs (validated by
`rules.patient_errors`). The user's own entry cannot be removed."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import Gym, GymDep

from .models import Patient
from .rules import CARRIERS, RELATIONSHIPS, patient_errors

router = APIRouter()
FIELDS = ("name", "date_of_birth", "relationship", "phone", "email", "carrier", "member_id")


@router.get("/patients")
def patients(gym: GymDep):
    rows = gym.db.exec(select(Patient).order_by(Patient.is_self.desc(), Patient.id)).all()
    return gym.render("patients.html", rows=rows, relationships=RELATIONSHIPS)


def _form(gym: Gym, p: Patient | None, check: str, typed: dict[str, str]):
    values = typed if check or p is None else {f: getattr(p, f) for f in FIELDS}
    if p is None and not check:
        values = {**typed, "relationship": typed.get("relationship") or "child"}
    errors = patient_errors(values, gym.now.date(), is_self=bool(p and p.is_self)) if check else {}
    relationships = {k: v for k, v in RELATIONSHIPS.items() if (k == "self") == bool(p and p.is_self)}
    return gym.render("patient_form.html", p=p, values=values, errors=errors, relationships=relationships, carriers=CARRIERS)


def _typed(name, date_of_birth, relationship, phone, email, carrier, member_id) -> dict[str, str]:
    return {"name": name, "date_of_birth": date_of_birth, "relationship": relationship, "phone": phone, "email": email,
            "carrier": carrier, "member_id": member_id}


def _save(p: Patient, typed: dict[str, str]) -> None:
    p.name, p.date_of_birth, p.relationship = " ".join(typed["name"].split()), typed["date_of_birth"].strip(), typed["relationship"]
    p.phone, p.email, p.carrier = typed["phone"].strip(), typed["email"].strip(), typed["carrier"]
    p.member_id = typed["member_id"].strip().upper()


@router.get("/patients/new")
def new_patient(gym: GymDep, check: str = "", name: str = "", date_of_birth: str = "", relationship: str = "", phone: str = "",
                email: str = "", carrier: str = "", member_id: str = ""):
    return _form(gym, None, check, _typed(name, date_of_birth, relationship, phone, email, carrier, member_id))


@router.post("/patients/new")
def create(gym: GymDep, name: str = Form(""), date_of_birth: str = Form(""), relationship: str = Form(""), phone: str = Form(""),
           email: str = Form(""), carrier: str = Form(""), member_id: str = Form("")):
    typed = _typed(name, date_of_birth, relationship, phone, email, carrier, member_id)
    if patient_errors(typed, gym.now.date()):
        return gym.done("/patients/new", check=1, **typed)
    p = Patient(name="", date_of_birth="")
    _save(p, typed)
    gym.db.add(p)
    return gym.done("/patients", notice=f"{p.name} saved as a patient")


@router.get("/patients/{patient_id}")
def edit(gym: GymDep, patient_id: int, check: str = "", name: str = "", date_of_birth: str = "", relationship: str = "", phone: str = "",
         email: str = "", carrier: str = "", member_id: str = ""):
    return _form(gym, gym.get(Patient, patient_id), check, _typed(name, date_of_birth, relationship, phone, email, carrier, member_id))


@router.post("/patients/{patient_id}")
def update(gym: GymDep, patient_id: int, name: str = Form(""), date_of_birth: str = Form(""), relationship: str = Form(""),
           phone: str = Form(""), email: str = Form(""), carrier: str = Form(""), member_id: str = Form("")):
    p = gym.get(Patient, patient_id)
    typed = _typed(name, date_of_birth, relationship, phone, email, carrier, member_id)
    if patient_errors(typed, gym.now.date(), is_self=p.is_self):
        return gym.done(f"/patients/{patient_id}", check=1, **typed)
    _save(p, typed)
    gym.db.add(p)
    return gym.done("/patients", notice=f"{p.name} updated")


@router.post("/patients/{patient_id}/delete")
def delete(gym: GymDep, patient_id: int):
    p = gym.get(Patient, patient_id)
    if p.is_self:
        return gym.done(f"/patients/{patient_id}", notice="Your own entry cannot be removed.")
    gym.db.delete(p)
    return gym.done("/patients", notice=f"{p.name} removed from your patients")
