"""Booked rides: the trip page (the driver on the way, on trip, arrived), moving the trip on (each step moves the
instance clock to the trip's next time), cancelling before pickup, the receipt with its fare breakdown, the
rating and tip once completed, and the trip history."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import select

from mocked_apps.kit import GymDep

from .models import PaymentMethod, Place, Ride, VehicleClass

router = APIRouter()
TABS = {"all": "All", "upcoming": "Upcoming", "completed": "Completed", "cancelled": "Cancelled"}
UPCOMING = ("scheduled", "arriving", "on_trip")
MAX_TIP = 50.0
STAGES = (("arriving", "Driver on the way"), ("on_trip", "On trip"), ("completed", "Arrived"))


def _names(gym) -> dict[int, Place]:
    return {p.id: p for p in gym.db.exec(select(Place)).all()}


@router.get("/trips")
def history(gym: GymDep, tab: str = "all"):
    tab = tab if tab in TABS else "all"
    rows = gym.db.exec(select(Ride).order_by(Ride.pickup_at.desc(), Ride.id.desc())).all()
    pick = {"all": lambda r: True, "upcoming": lambda r: r.status in UPCOMING, "completed": lambda r: r.status == "completed",
            "cancelled": lambda r: r.status == "cancelled"}[tab]
    kinds = {c.id: c.name for c in gym.db.exec(select(VehicleClass)).all()}
    return gym.render("trips.html", rows=[r for r in rows if pick(r)], tab=tab, tabs=TABS, places=_names(gym), kinds=kinds)


@router.get("/trips/{ride_id}")
def trip(gym: GymDep, ride_id: int, error: str = ""):
    ride = gym.get(Ride, ride_id)
    places = _names(gym)
    return gym.render("trip.html", r=ride, pickup=places[ride.pickup_id], dropoff=places[ride.dropoff_id],
                      vclass=gym.db.get(VehicleClass, ride.class_id), method=gym.db.get(PaymentMethod, ride.payment_method_id),
                      stages=STAGES, error=error, tips=(0, 1, 2, 3, 5))


@router.post("/trips/{ride_id}/start")
def start(gym: GymDep, ride_id: int):
    ride = gym.get(Ride, ride_id)
    if ride.status != "arriving":
        return gym.done(f"/trips/{ride_id}", notice="This trip has already started or ended.")
    if gym.now < ride.pickup_at:
        gym.advance(ride.pickup_at - gym.now)
    ride.status = "on_trip"
    gym.db.add(ride)
    return gym.done(f"/trips/{ride_id}", notice="On your way to the destination")


@router.post("/trips/{ride_id}/end")
def end(gym: GymDep, ride_id: int):
    ride = gym.get(Ride, ride_id)
    if ride.status != "on_trip":
        return gym.done(f"/trips/{ride_id}", notice="This trip is not under way.")
    if gym.now < ride.dropoff_at:
        gym.advance(ride.dropoff_at - gym.now)
    ride.dropoff_at = gym.now
    ride.status = "completed"
    gym.db.add(ride)
    return gym.done(f"/trips/{ride_id}", notice="You have arrived. How was your ride?")


@router.post("/trips/{ride_id}/cancel")
def cancel(gym: GymDep, ride_id: int):
    ride = gym.get(Ride, ride_id)
    if ride.status not in ("scheduled", "arriving"):
        return gym.done(f"/trips/{ride_id}", notice="A trip under way or ended cannot be cancelled.")
    ride.status = "cancelled"
    gym.db.add(ride)
    return gym.done(f"/trips/{ride_id}", notice="Ride cancelled; you were not charged")


def _tip(text: str) -> float | None:
    try:
        value = round(float(text.strip().lstrip("$") or "0"), 2)
    except ValueError:
        return None
    return value if 0 <= value <= MAX_TIP else None


@router.post("/trips/{ride_id}/rate")
def rate(gym: GymDep, ride_id: int, stars: str = Form(""), tip: str = Form("0"), comment: str = Form("")):
    ride = gym.get(Ride, ride_id)
    if ride.status != "completed" or ride.rating is not None:
        return gym.done(f"/trips/{ride_id}", notice="This trip cannot be rated.")
    if stars not in ("1", "2", "3", "4", "5"):
        return gym.done(f"/trips/{ride_id}", error="stars")
    amount = _tip(tip)
    if amount is None:
        return gym.done(f"/trips/{ride_id}", error="tip")
    ride.rating, ride.tip, ride.comment = int(stars), amount, comment.strip()[:200]
    ride.total = round(ride.fare + amount, 2)
    gym.db.add(ride)
    return gym.done(f"/trips/{ride_id}", notice="Thanks for rating your driver" + (" and for the tip" if amount else ""))
