"""A world's TripNest as families see it: its projection read with the app's own rules (prices on a date,
refunds at the world's clock), so a task's ground truth agrees with the app it runs on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from contracts.world import World

from .offers import FlightOffer, flight_offers
from .projection import project
from .rules import CHECK_IN, SALE_DAYS, arrival, departure, flight_refund, hotel_refund

__all__ = ["Held", "days_ahead", "held", "home", "offers_on"]


@dataclass(frozen=True)
class Held:
    """A confirmed booking of the world still ahead of its clock, with what its pages show."""

    row: dict
    trip: str
    title: str
    starts: datetime
    ends: datetime
    refund: float
    number: str | None = None
    cabin: str | None = None
    fare: dict | None = None
    flight: dict | None = None
    hotel: str | None = None
    room: dict | None = None
    city: str = ""


def home(world: World) -> str:
    return project(world)["city"][0]["name"]


def days_ahead(world: World, first: int = 1, last: int = 20) -> list[str]:
    today = world.scenario.clock.date()
    return [(today + timedelta(days=i)).isoformat() for i in range(first, min(last, SALE_DAYS) + 1)]


def offers_on(world: World, origin: str, destination: str, day: str) -> list[FlightOffer]:
    rows = project(world)
    ids = {c["name"]: c["id"] for c in rows["city"]}
    return [o for o in flight_offers(rows["flight"], rows["fare"], ids[origin], ids[destination], day) if o.leaves > world.scenario.clock]


def held(world: World) -> list[Held]:
    """The world's confirmed bookings that have not started yet, in booking-id order."""
    rows = project(world)
    now = world.scenario.clock
    cities = {c["id"]: c["name"] for c in rows["city"]}
    trips = {t["id"]: t["name"] for t in rows["trip"]}
    fares = {f["id"]: f for f in rows["fare"]}
    flights = {f["id"]: f for f in rows["flight"]}
    rooms = {r["id"]: r for r in rows["room"]}
    hotels = {h["id"]: h for h in rows["hotel"]}
    booked_at = lambda b: datetime.fromisoformat(b["created_at"])  # noqa: E731
    out = []
    for b in rows["trip_booking"]:
        if b["status"] != "confirmed":
            continue
        if b["kind"] == "flight":
            fare = fares[b["fare_id"]]
            f = flights[fare["flight_id"]]
            starts = departure(b["travel_date"], f["depart"])
            item = Held(row=b, trip=trips.get(b["trip_id"], ""), title=f"{cities[f['origin_id']]} to {cities[f['destination_id']]}",
                        starts=starts, ends=arrival(b["travel_date"], f["depart"], f["duration_min"]),
                        refund=flight_refund(fare["cabin"], b["total"], booked_at(b), now), number=f["number"], cabin=fare["cabin"],
                        fare=fare, flight=f, city=cities[f["destination_id"]])
        else:
            room = rooms[b["room_id"]]
            hotel = hotels[room["hotel_id"]]
            starts = datetime.combine(date.fromisoformat(b["check_in"]), CHECK_IN)
            item = Held(row=b, trip=trips.get(b["trip_id"], ""), title=hotel["name"], starts=starts,
                        ends=starts + timedelta(days=b["nights"], hours=-4),
                        refund=hotel_refund(room["refundable"], room["price"], b["check_in"], b["total"], now), hotel=hotel["name"],
                        room=room, city=cities[hotel["city_id"]])
        if item.starts > now:
            out.append(item)
    return out
