"""World -> TripNest seed: the world's cities and the flights and hotels between them, the persona's card
and checking account (and the company's travel account) as payment methods, and the trips behind them.

The same money and dates as the other apps: each hotel stay the world booked ('Hotel <name>, <city>' in
the calendar, its confirmation email and card charge) is a confirmed booking with that reference, check-in
date and total, paid by card; its nights run to the world's train home when there is one. The company's
travel account (billed to the company, so no card charge) holds the persona's flights: a past trip, an
upcoming round trip with a hotel, and a one-way business trip.
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .places import ROOMS, cities, flights, hotels, world_stays
from .rules import fare_price, night_rate, nights_of, stay_total

__all__ = ["payment_methods", "project"]


def payment_methods(world: World) -> list[dict]:
    """The world's credit card, its checking account, then the company's travel account."""
    rows = []
    for kind in ("credit", "checking"):
        acc = next((a for a in world.accounts if a.kind == kind), None)
        if acc is not None:
            rows.append({"id": len(rows) + 1, "label": f"{acc.name} •••• {acc.number}", "kind": "card" if kind == "credit" else "bank"})
    rows.append({"id": len(rows) + 1, "label": f"{world.persona.company} travel account", "kind": "account"})
    return rows


def _h(world: World, key: str, mod: int) -> int:
    return zlib.crc32(f"{world.id}/{key}".encode()) % mod


class _Book:
    """Collects trips and bookings in the order they are added."""

    def __init__(self, world: World, rows: dict):
        self.world, self.rows = world, rows
        self.trips: list[dict] = []
        self.bookings: list[dict] = []

    def trip(self, name: str, created: datetime) -> int:
        self.trips.append({"id": len(self.trips) + 1, "name": name, "created_at": created.isoformat()})
        return len(self.trips)

    def _ref(self) -> str:
        return f"TN{_h(self.world, f'ref{len(self.bookings)}', 10**6):06d}"

    def flight(self, trip: int, origin: int, dest: int, day, cabin: str, pick: int, created: datetime, method: int) -> None:
        choices = [f for f in self.rows["flight"] if (f["origin_id"], f["destination_id"]) == (origin, dest) and f["stops"] == 0]
        flight = choices[pick % len(choices)]
        fare = next(f for f in self.rows["fare"] if f["flight_id"] == flight["id"] and f["cabin"] == cabin)
        self._add(kind="flight", trip_id=trip, fare_id=fare["id"], travel_date=day.isoformat(), travellers=1,
                  total=fare_price(fare["price"], fare["id"], day), created_at=created, payment_method_id=method)

    def stay(self, trip: int, room: dict, check_in, nights: int, created: datetime, method: int, ref: str | None = None,
             total: float | None = None) -> None:
        self._add(kind="hotel", trip_id=trip, room_id=room["id"], check_in=check_in.isoformat(), nights=nights, travellers=1,
                  total=total if total is not None else stay_total(room["price"], check_in, nights), created_at=created,
                  payment_method_id=method, ref=ref)

    def _add(self, ref: str | None = None, **fields) -> None:
        row = {"id": len(self.bookings) + 1, "ref": ref or self._ref(), "status": "confirmed", "fare_id": None, "travel_date": None,
               "room_id": None, "check_in": None, "nights": 0, "changes": 0, "fare_difference": 0.0, "change_fee": 0.0,
               "refund_amount": 0.0, "cancelled_at": None, **fields}
        row["created_at"] = row["created_at"].isoformat()
        self.bookings.append(row)


def _world_stays(world: World, rows: dict, book: _Book, card: int | None, city_ids: dict[str, int]) -> None:
    """The world's hotel bookings, priced to the cent of their card charge."""
    for hotel_name, city in world_stays(world):
        meeting = next(m for m in world.meetings if m.title == f"Hotel {hotel_name}, {city}")
        ref = meeting.description.split()[1] if meeting.description.startswith("Booking ") else None
        charge = next((t for t in world.transactions if ref and t.reference == ref), None)
        check_in = meeting.start.date()
        home_train = [m.start.date() for m in world.meetings if m.title.startswith(f"Train {city} to ") and m.start.date() > check_in]
        nights = min((min(home_train) - check_in).days, 7) if home_train else 1
        hotel = next(h for h in rows["hotel"] if h["name"] == hotel_name and h["city_id"] == city_ids[city])
        room = next(r for r in rows["room"] if r["hotel_id"] == hotel["id"] and r["name"] == ROOMS[1][0])
        total = round(-charge.amount, 2) if charge else stay_total(room["price"], check_in, nights)
        room["price"] = round(total / sum(night_rate(1.0, n) for n in nights_of(check_in, nights)), 2)
        booked = charge.posted if charge else meeting.start - timedelta(days=10)
        trip = next((t["id"] for t in book.trips if t["name"] == f"Trip to {city}"), None) or book.trip(f"Trip to {city}", booked)
        book.stay(trip, room, check_in, nights, booked, card, ref=ref, total=total)


def project(world: World) -> dict[str, list[dict]]:
    places = cities(world)
    flight_rows, fare_rows = flights(places)
    stays = world_stays(world)
    hotel_rows, room_rows = hotels(places, stays)
    rows = {"city": [{"id": i + 1, "name": n, "code": c} for i, (n, c) in enumerate(places)], "flight": flight_rows, "fare": fare_rows,
            "hotel": hotel_rows, "room": room_rows}
    methods = payment_methods(world)
    card = next((m["id"] for m in methods if m["kind"] == "card"), None)
    account = methods[-1]["id"]
    city_ids = {n: i + 1 for i, (n, _) in enumerate(places)}
    now = world.scenario.clock
    book = _Book(world, rows)

    stay_cities = {c for _, c in stays}
    free = [i + 1 for i, (n, _) in enumerate(places) if i and n not in stay_cities]
    ahead, oneway = free[0], free[1 + _h(world, "one", len(free) - 1)]
    rest = [c for c in free if c not in (ahead, oneway)]
    past = rest[_h(world, "past", len(rest))]
    # a past round trip, about a month ago
    out = now.date() - timedelta(days=30 + _h(world, "pastday", 10))
    booked = datetime.combine(out - timedelta(days=12), now.time())
    trip = book.trip(f"Trip to {places[past - 1][0]}", booked)
    book.flight(trip, 1, past, out, "Economy", _h(world, "p1", 5), booked, account)
    book.flight(trip, past, 1, out + timedelta(days=2), "Economy", 3 + _h(world, "p2", 2), booked, account)
    _world_stays(world, rows, book, card, city_ids)
    # an upcoming round trip with three hotel nights
    out = now.date() + timedelta(days=4 + _h(world, "outday", 5))
    booked = now - timedelta(days=6 + _h(world, "booked", 6), hours=3)
    trip = book.trip(f"Trip to {places[ahead - 1][0]}", booked)
    book.flight(trip, 1, ahead, out, "Economy", _h(world, "o1", 3), booked, account)
    city_hotels = [h for h in hotel_rows if h["city_id"] == ahead]
    hotel = city_hotels[_h(world, "hotel", len(city_hotels))]
    room = [r for r in room_rows if r["hotel_id"] == hotel["id"]][_h(world, "room", 2)]
    book.stay(trip, room, out, 3, booked + timedelta(minutes=20), account)
    book.flight(trip, ahead, 1, out + timedelta(days=3), "Economy", 3 + _h(world, "o2", 2), booked + timedelta(minutes=10), account)
    # a one-way business trip in two to three weeks
    day = now.date() + timedelta(days=12 + _h(world, "oneday", 8))
    booked = now - timedelta(days=2, hours=5)
    trip = book.trip(f"Trip to {places[oneway - 1][0]}", booked)
    book.flight(trip, 1, oneway, day, ("Business", "Premium economy")[_h(world, "cabin", 2)], _h(world, "w1", 5), booked, account)

    return {**rows, "paymentmethod": methods, "trip": book.trips, "trip_booking": book.bookings, **identity_seed(world.persona)}
