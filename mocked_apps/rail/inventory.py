"""What is on sale: a route's trains on a date with each class's price and seats left, read from an instance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, func, select

from .models import SEAT_CLASSES, Fare, Order, Ticket, Train
from .rules import arrival, departure, live_statuses, seat_for, sold_elsewhere

__all__ = ["Offer", "Service", "next_seat", "seats_left", "service", "services"]


def seats_left(db: Session, fare: Fare, train: Train, day: str) -> int:
    """Seats of `fare` still for sale on `day`: capacity - sold elsewhere - live tickets here."""
    held = db.exec(select(func.count(Ticket.id)).join(Order, Ticket.order_id == Order.id).where(
        Order.train_id == train.id, Order.travel_date == day, Order.seat_class == fare.seat_class,
        Order.status.in_(live_statuses), Ticket.status == "active")).one()
    return max(0, fare.seats - sold_elsewhere(fare.id, fare.seats, day) - held)


def next_seat(db: Session, fare: Fare, train: Train, day: str, prefer: str, also: set[tuple[int, str]] = frozenset()) -> tuple[int, str]:
    """The coach and seat the next ticket of `fare` on `day` gets (`also`: seats given out in this request)."""
    rows = db.exec(select(Ticket.coach, Ticket.seat).join(Order, Ticket.order_id == Order.id).where(
        Order.train_id == train.id, Order.travel_date == day, Order.seat_class == fare.seat_class,
        Order.status.in_(live_statuses), Ticket.status == "active")).all()
    taken = {(c, s) for c, s in rows} | set(also)
    return seat_for(fare.seats, sold_elsewhere(fare.id, fare.seats, day), taken, prefer)


@dataclass(frozen=True)
class Offer:
    """One seat class of a service: its fare and the seats left."""

    fare: Fare
    left: int


@dataclass(frozen=True)
class Service:
    """One train on one date, with its offers (dearest class first)."""

    train: Train
    day: str
    leaves: datetime
    arrives: datetime
    offers: tuple[Offer, ...]

    @property
    def cheapest(self) -> float:
        return min(o.fare.price for o in self.offers)

    @property
    def available(self) -> bool:
        return any(o.left for o in self.offers)

    def offer(self, seat_class: str) -> Offer | None:
        return next((o for o in self.offers if o.fare.seat_class == seat_class), None)


def service(db: Session, train: Train, day: str) -> Service:
    fares = db.exec(select(Fare).where(Fare.train_id == train.id)).all()
    fares = sorted(fares, key=lambda f: SEAT_CLASSES.index(f.seat_class) if f.seat_class in SEAT_CLASSES else 9)
    return Service(train=train, day=day, leaves=departure(day, train.depart), arrives=arrival(day, train.depart, train.duration_min),
                   offers=tuple(Offer(fare=f, left=seats_left(db, f, train, day)) for f in fares))


def services(db: Session, origin: int, destination: int, day: str) -> list[Service]:
    """Every train of the route on `day`, in order of departure."""
    trains = db.exec(select(Train).where(Train.origin_id == origin, Train.destination_id == destination)
                     .order_by(Train.depart, Train.id)).all()
    return [service(db, t, day) for t in trains]
