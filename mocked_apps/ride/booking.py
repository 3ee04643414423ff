"""Booking a ride apart from HTTP: quotes for a route, and the new ride row (now or scheduled) with its driver."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from .catalogue import driver
from .fares import Fare, fare, route
from .models import Place, Ride, VehicleClass

__all__ = ["LATEST", "SOONEST", "Quote", "new_ride", "quotes", "schedule_error"]

SOONEST = timedelta(minutes=15)
"""A scheduled pickup is at least this far ahead."""
LATEST = timedelta(days=7)
"""... and at most this far."""


@dataclass(frozen=True)
class Quote:
    vclass: VehicleClass
    km: float
    minutes: int
    fare: Fare


def quotes(db: Session, pickup: Place, dropoff: Place) -> list[Quote]:
    """Every class's fare for the route, in the classes' order."""
    km, minutes = route(pickup.x_km, pickup.y_km, dropoff.x_km, dropoff.y_km)
    return [Quote(c, km, minutes, fare(c.base, c.per_km, c.per_min, c.min_fare, km, minutes))
            for c in db.exec(select(VehicleClass).order_by(VehicleClass.id)).all()]


def schedule_error(at: datetime | None, now: datetime) -> str | None:
    """Why a scheduled pickup time cannot be booked, or None."""
    if at is None:
        return "Choose a pickup date and time."
    if at < now + SOONEST:
        return f"Schedule at least {int(SOONEST.total_seconds() // 60)} minutes ahead."
    if at > now + LATEST:
        return f"Rides can be scheduled up to {LATEST.days} days ahead."
    return None


def new_ride(db: Session, quote: Quote, pickup: Place, dropoff: Place, method_id: int, now: datetime, at: datetime | None) -> Ride:
    """A ride booked at `now`: the driver on the way (`at` None) or scheduled for `at` (the driver is assigned later)."""
    start = at or now + timedelta(minutes=quote.vclass.pickup_min)
    ride = Ride(number="", pickup_id=pickup.id, dropoff_id=dropoff.id, class_id=quote.vclass.id, payment_method_id=method_id,
                status="scheduled" if at else "arriving", requested_at=now, pickup_at=start, dropoff_at=start + timedelta(minutes=quote.minutes),
                km=quote.km, minutes=quote.minutes, base_fare=quote.fare.base, distance_fare=quote.fare.distance, time_fare=quote.fare.time,
                fare=quote.fare.amount, total=quote.fare.amount)
    db.add(ride)
    db.flush()
    ride.number = f"R{now:%y%m%d}{ride.id:04d}"
    if not at:
        ride.driver_name, ride.car, ride.plate = driver(ride.number)
    for place in (pickup, dropoff):
        place.last_used = now
        db.add(place)
    db.add(ride)
    return ride
