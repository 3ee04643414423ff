"""Saved places: save a known place under a label (Home, Office, Gym ...), or remove the label."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import Place

router = APIRouter()


@router.get("/places")
def saved(gym: GymDep, error: str = "", label: str = "", place: str = ""):
    rows = gym.db.exec(select(Place).order_by(Place.id)).all()
    return gym.render("places.html", saved=[p for p in rows if p.saved_as], others=[p for p in rows if not p.saved_as], error=error,
                      values={"label": label, "place": place})


@router.post("/places/save")
def save(gym: GymDep, place: str = Form(""), label: str = Form("")):
    target = gym.db.get(Place, int(place)) if place.strip().isdigit() else None
    name = " ".join(label.split())[:30]
    if target is None:
        return gym.done("/places", error="place", label=label)
    if not name:
        return gym.done("/places", error="label", place=place)
    if any(p.saved_as.lower() == name.lower() and p.id != target.id for p in gym.db.exec(select(Place)).all()):
        return gym.done("/places", error="taken", label=label, place=place)
    target.saved_as = name
    gym.db.add(target)
    return gym.done("/places", notice=f"{target.name} saved as {name}")


@router.post("/places/{place_id}/remove")
def remove(gym: GymDep, place_id: int):
    target = gym.get(Place, place_id)
    target.saved_as = ""
    gym.db.add(target)
    return gym.done("/places", notice=f"{target.name} removed from saved places")
