"""Shared lookups over the app's rows (a live database or a world's projection): a flight on a date with
its fares, a hotel's stay prices, what a booking shows. Routes and families both read through here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from .rules import arrival, departure, fare_price, stay_total

__all__ = ["FlightOffer", "StayOffer", "flight_offers", "stay_offers", "when_text"]


@dataclass(frozen=True)
class FlightOffer:
    """One flight on one date, with its fares' prices that day (cabin -> (fare id, price per traveller))."""

    flight: dict
    day: str
    leaves: datetime
    arrives: datetime
    fares: dict[str, tuple[int, float]]

    @property
    def cheapest(self) -> float:
        return min(p for _, p in self.fares.values())


@dataclass(frozen=True)
class StayOffer:
    """One hotel for some nights: each room type's total ((room, total)) and the cheapest per night."""

    hotel: dict
    rooms: list[tuple[dict, float]]

    @property
    def cheapest(self) -> float:
        return min(t for _, t in self.rooms)


def flight_offers(flights: list[dict], fares: list[dict], origin: int, destination: int, day: str) -> list[FlightOffer]:
    """Every flight of a route on a date, by departure time."""
    out = []
    for f in sorted((f for f in flights if (f["origin_id"], f["destination_id"]) == (origin, destination)), key=lambda f: (f["depart"], f["id"])):
        prices = {x["cabin"]: (x["id"], fare_price(x["price"], x["id"], day)) for x in fares if x["flight_id"] == f["id"]}
        out.append(FlightOffer(flight=f, day=day, leaves=departure(day, f["depart"]), arrives=arrival(day, f["depart"], f["duration_min"]),
                               fares=prices))
    return out


def stay_offers(hotels: list[dict], rooms: list[dict], city: int, check_in: str, nights: int, guests: int = 1) -> list[StayOffer]:
    """Every hotel of a city with the totals of its rooms that sleep `guests`, in id order."""
    out = []
    for h in sorted((h for h in hotels if h["city_id"] == city), key=lambda h: h["id"]):
        fitting = [(r, stay_total(r["price"], check_in, nights)) for r in rooms if r["hotel_id"] == h["id"] and r["sleeps"] >= guests]
        if fitting:
            out.append(StayOffer(hotel=h, rooms=fitting))
    return out


def when_text(day: str | date) -> str:
    """'Thursday, March 5': how instructions and pages name a date."""
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{d:%A, %B} {d.day}"
