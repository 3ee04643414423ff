"""What a world's rail app has on sale, computed from its projection with the app's own rules: families
write their ground truth from here, so a task agrees with the app it runs on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from contracts.world import World

from .projection import project
from .rules import departure, live_statuses, sold_elsewhere

__all__ = ["Trip", "WorldOffer", "offers", "upcoming", "when_text"]


@dataclass(frozen=True)
class WorldOffer:
    """One seat class of one train on one date, as the world's app sells it at its clock."""

    number: str
    train_id: int
    origin: str
    destination: str
    day: str
    depart: str
    duration_min: int
    seat_class: str
    price: float
    left: int


@dataclass(frozen=True)
class Trip:
    """A paid order of the world still ahead of its clock."""

    order_id: int
    number: str
    train_id: int
    train: str
    origin: str
    destination: str
    day: str
    depart: str
    seat_class: str
    total: float
    passengers: tuple[str, ...]
    leaves: datetime


def _rows(world: World) -> dict:
    return project(world)


def offers(world: World, rows: dict | None = None) -> list[WorldOffer]:
    """Every class of every train from or to the home station on the next six days, in order of departure."""
    rows = rows or _rows(world)
    names = {s["id"]: s["name"] for s in rows["station"]}
    trains = {t["id"]: t for t in rows["service"]}
    live = {o["id"]: o for o in rows["orders"] if o["status"] in live_statuses}
    held: dict[tuple[int, str, str], int] = {}
    for t in rows["ticket"]:
        o = live.get(t["order_id"])
        if o and t["status"] == "active":
            key = (o["train_id"], o["travel_date"], o["seat_class"])
            held[key] = held.get(key, 0) + 1
    now = world.scenario.clock
    out = []
    for i in range(1, 7):
        day = (now.date() + timedelta(days=i)).isoformat()
        for f in rows["fare"]:
            t = trains[f["train_id"]]
            left = f["seats"] - sold_elsewhere(f["id"], f["seats"], day) - held.get((t["id"], day, f["seat_class"]), 0)
            out.append(WorldOffer(number=t["number"], train_id=t["id"], origin=names[t["origin_id"]], destination=names[t["destination_id"]],
                                  day=day, depart=t["depart"], duration_min=t["duration_min"], seat_class=f["seat_class"],
                                  price=f["price"], left=max(0, left)))
    return sorted(out, key=lambda o: (o.day, o.origin, o.destination, o.depart, o.number, o.seat_class))


def upcoming(world: World, rows: dict | None = None) -> list[Trip]:
    """The world's paid orders whose train has not left yet."""
    rows = rows or _rows(world)
    names = {s["id"]: s["name"] for s in rows["station"]}
    trains = {t["id"]: t for t in rows["service"]}
    out = []
    for o in rows["orders"]:
        t = trains[o["train_id"]]
        leaves = departure(o["travel_date"], t["depart"])
        if o["status"] == "paid" and leaves > world.scenario.clock:
            who = tuple(k["passenger_name"] for k in rows["ticket"] if k["order_id"] == o["id"] and k["status"] == "active")
            out.append(Trip(order_id=o["id"], number=o["number"], train_id=t["id"], train=t["number"], origin=names[t["origin_id"]],
                            destination=names[t["destination_id"]], day=o["travel_date"], depart=t["depart"], seat_class=o["seat_class"],
                            total=o["total"], passengers=who, leaves=leaves))
    return out


def when_text(day: str | date) -> str:
    """'Thursday, March 5': how instructions name a travel date."""
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{d:%A, %B} {d.day}"
