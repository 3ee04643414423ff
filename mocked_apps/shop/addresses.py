"""The address book: list, add (validated; the form comes back with the values typed and a message per
field), make default, delete. Checkout links here to add an address and comes back to it."""

from __future__ import annotations

import re

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .cart import read_cart
from .models import Address

router = APIRouter()
FIELDS = ("name", "line", "city", "postcode", "phone")


def address_errors(values: dict[str, str]) -> dict[str, str]:
    """Field -> message for a new address; empty when it can be saved."""
    errors = {}
    for field, message in (("name", "Enter the recipient's full name."), ("line", "Enter the street and number."),
                           ("city", "Enter the city."), ("postcode", "Enter the postal code.")):
        if not values.get(field, "").strip():
            errors[field] = message
    if values.get("postcode", "").strip() and not re.fullmatch(r"[A-Za-z0-9 -]{3,10}", values["postcode"].strip()):
        errors["postcode"] = "A postal code is 3 to 10 letters, digits, spaces or dashes."
    if values.get("phone", "").strip() and not re.fullmatch(r"\+?[0-9 ()-]{6,20}", values["phone"].strip()):
        errors["phone"] = "Enter a phone number of digits, spaces and dashes, or leave it empty."
    return errors


def _books(gym) -> list[Address]:
    return list(gym.db.exec(select(Address).order_by(Address.is_default.desc(), Address.id)).all())


@router.get("/addresses")
def book(gym: GymDep):
    return gym.render("addresses.html", rows=_books(gym), cart=read_cart(gym.db))


@router.get("/addresses/new")
def new_form(gym: GymDep, name: str = "", line: str = "", city: str = "", postcode: str = "", phone: str = "", label: str = "",
             default: str = "", back: str = "", check: str = ""):
    values = {"name": name, "line": line, "city": city, "postcode": postcode, "phone": phone, "label": label, "default": default,
              "back": back if back == "checkout" else ""}
    return gym.render("address_form.html", values=values, errors=address_errors(values) if check else {}, cart=read_cart(gym.db))


@router.post("/addresses")
def create(gym: GymDep, name: str = Form(""), line: str = Form(""), city: str = Form(""), postcode: str = Form(""), phone: str = Form(""),
           label: str = Form(""), default: str = Form(""), back: str = Form("")):
    values = {"name": name, "line": line, "city": city, "postcode": postcode, "phone": phone, "label": label, "default": default, "back": back}
    if address_errors(values):
        return gym.done("/addresses/new", check="1", **{k: v for k, v in values.items() if v})
    first = not _books(gym)
    row = Address(**{k: values[k].strip() for k in FIELDS}, label=label.strip()[:20], is_default=first or default == "1")
    if row.is_default:
        for other in _books(gym):
            other.is_default = False
            gym.db.add(other)
    gym.db.add(row)
    gym.db.flush()
    if back == "checkout":
        return gym.done("/checkout", address=str(row.id), notice=f"Address saved: {row.name}, {row.city}")
    return gym.done("/addresses", notice=f"Address saved: {row.name}, {row.city}")


@router.post("/addresses/{address_id}/default")
def make_default(gym: GymDep, address_id: int):
    row = gym.get(Address, address_id)
    for other in _books(gym):
        other.is_default = other.id == row.id
        gym.db.add(other)
    return gym.done("/addresses", notice=f"{row.name}, {row.city} is now your default address")


@router.post("/addresses/{address_id}/delete")
def delete(gym: GymDep, address_id: int):
    row = gym.get(Address, address_id)
    if row.is_default:
        return gym.done("/addresses", notice="Choose another default address before deleting this one.")
    gym.db.delete(row)
    return gym.done("/addresses", notice="Address deleted")
