"""Saved passengers: the travellers the user books for (their own entry cannot be deleted)."""

from __future__ import annotations

import re

from fastapi import APIRouter, Form
from sqlmodel import func, select

from mocked_apps.kit import Gym, GymDep

from .models import Passenger

router = APIRouter()
KINDS = {"adult": "Adult", "child": "Child (half fare)", "senior": "Senior (20% off)"}
_ID = re.compile(r"^[A-Z0-9]{6,12}$")


def _errors(gym: Gym, name: str, id_number: str, kind: str, passenger_id: int | None) -> dict[str, str]:
    errors = {}
    if not name.strip():
        errors["name"] = "Enter the passenger's full name as on their ID."
    number = id_number.strip().upper()
    if not _ID.match(number):
        errors["id_number"] = "Enter the ID document number: 6 to 12 letters and digits."
    else:
        clash = gym.db.exec(select(Passenger).where(func.upper(Passenger.id_number) == number)).first()
        if clash is not None and clash.id != passenger_id:
            errors["id_number"] = f"{clash.name} is already saved with this ID number."
    if kind not in KINDS:
        errors["kind"] = "Choose the passenger type."
    return errors


@router.get("/passengers")
def passengers(gym: GymDep):
    rows = gym.db.exec(select(Passenger).order_by(Passenger.is_self.desc(), func.lower(Passenger.name), Passenger.id)).all()
    return gym.render("passengers.html", rows=rows, kinds=KINDS)


def _form(gym: Gym, p: Passenger | None, check: str, name: str, id_number: str, kind: str, phone: str):
    values = {"name": name, "id_number": id_number, "kind": kind or "adult", "phone": phone} if check or p is None else {
        "name": p.name, "id_number": p.id_number, "kind": p.kind, "phone": p.phone}
    errors = _errors(gym, values["name"], values["id_number"], values["kind"], p.id if p else None) if check else {}
    return gym.render("passenger_form.html", p=p, values=values, errors=errors, kinds=KINDS)


@router.get("/passengers/new")
def new_passenger(gym: GymDep, check: str = "", name: str = "", id_number: str = "", kind: str = "", phone: str = ""):
    return _form(gym, None, check, name, id_number, kind, phone)


@router.post("/passengers/new")
def create(gym: GymDep, name: str = Form(""), id_number: str = Form(""), kind: str = Form("adult"), phone: str = Form("")):
    if _errors(gym, name, id_number, kind, None):
        return gym.done("/passengers/new", check=1, name=name, id_number=id_number, kind=kind, phone=phone)
    p = Passenger(name=name.strip(), id_number=id_number.strip().upper(), kind=kind, phone=phone.strip())
    gym.db.add(p)
    return gym.done("/passengers", notice=f"{p.name} saved as a passenger")


@router.get("/passengers/{passenger_id}")
def edit(gym: GymDep, passenger_id: int, check: str = "", name: str = "", id_number: str = "", kind: str = "", phone: str = ""):
    return _form(gym, gym.get(Passenger, passenger_id), check, name, id_number, kind, phone)


@router.post("/passengers/{passenger_id}")
def update(gym: GymDep, passenger_id: int, name: str = Form(""), id_number: str = Form(""), kind: str = Form("adult"), phone: str = Form("")):
    p = gym.get(Passenger, passenger_id)
    if _errors(gym, name, id_number, kind, passenger_id):
        return gym.done(f"/passengers/{passenger_id}", check=1, name=name, id_number=id_number, kind=kind, phone=phone)
    p.name, p.id_number, p.kind, p.phone = name.strip(), id_number.strip().upper(), kind, phone.strip()
    gym.db.add(p)
    return gym.done("/passengers", notice=f"{p.name} updated")


@router.post("/passengers/{passenger_id}/delete")
def delete(gym: GymDep, passenger_id: int):
    p = gym.get(Passenger, passenger_id)
    if p.is_self:
        return gym.done(f"/passengers/{passenger_id}", notice="Your own entry cannot be removed.")
    gym.db.delete(p)
    return gym.done("/passengers", notice=f"{p.name} removed from your passengers")
