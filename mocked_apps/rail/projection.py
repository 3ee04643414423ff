"""World -> rail seed: the network and timetable, the persona and family as saved passengers, the
persona's card and checking account as payment methods, and the orders behind the world's rail spending.

The same money and dates as the bank: each 'Train ticket' card charge is a paid order of that amount
booked at that moment (for a trip a few days later: the latest is always still ahead), and a booked
journey of the scenario ('Train A to B' in the calendar, its confirmation email and card charge) is a
paid order with the booking's reference, train time and price.
"""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .network import _BOOKED, stations, timetable
from .rules import seat_for, sold_elsewhere

__all__ = ["id_number", "payment_methods", "project"]


def id_number(name: str) -> str:
    """A person's ID document number, the same in every world they appear in."""
    return f"P{zlib.crc32(name.encode()) % 10**8:08d}"


def _passengers(world: World) -> list[dict]:
    household = [p for p in world.people if world.org(p.org).kind == "household"]
    rows = [{"id": 1, "name": world.persona.name, "id_number": id_number(world.persona.name), "kind": "adult",
             "phone": "", "is_self": True}]
    for p in household:
        kind = "child" if p.role in ("son", "daughter") else "senior" if p.role in ("mother", "father") else "adult"
        rows.append({"id": len(rows) + 1, "name": p.name, "id_number": id_number(p.name), "kind": kind, "phone": "", "is_self": False})
    return rows


def payment_methods(world: World) -> list[dict]:
    rows = []
    for kind in ("credit", "checking"):
        acc = next((a for a in world.accounts if a.kind == kind), None)
        if acc is not None:
            rows.append({"id": len(rows) + 1, "label": f"{acc.name} •••• {acc.number}", "kind": "card" if kind == "credit" else "bank"})
    return rows


def project(world: World) -> dict[str, list[dict]]:
    names = stations(world)
    trains, fares = timetable(names)
    now = world.scenario.clock
    orders: list[dict] = []
    tickets: list[dict] = []
    methods = payment_methods(world)
    card = next((m["id"] for m in methods if m["kind"] == "card"), None)

    def order(train: dict, day: str, booked: datetime, price: float, number: str) -> None:
        fare = next((f for f in fares if f["train_id"] == train["id"] and f["seat_class"] == "Second class"), None)
        oid = len(orders) + 1
        orders.append({"id": oid, "number": number, "train_id": train["id"], "travel_date": day, "seat_class": "Second class",
                       "status": "paid", "total": price, "payment_method_id": card, "created_at": booked.isoformat(),
                       "paid_at": (booked + timedelta(minutes=1)).isoformat(), "changed_from_id": None, "changed_to_id": None,
                       "fare_difference": 0.0})
        seats = fare["seats"] if fare else 60
        coach, seat = seat_for(seats, sold_elsewhere(fare["id"], seats, day) if fare else 0, set(), "window")
        tickets.append({"id": len(tickets) + 1, "order_id": oid, "passenger_id": 1, "passenger_name": world.persona.name,
                        "coach": coach, "seat": seat, "price": price, "status": "active", "refund_amount": 0.0, "refunded_at": None})

    spent = sorted((t for t in world.transactions if t.description == "Train ticket" and t.amount < 0), key=lambda t: (t.posted, t.id))
    for i, t in enumerate(spent):
        ahead = 2 + zlib.crc32(t.id.encode()) % 6
        day = t.posted.date() + timedelta(days=ahead)
        if i == len(spent) - 1 and day <= now.date():
            day = now.date() + timedelta(days=ahead)  # the latest ticket is for a trip still to come
        dest = 2 + zlib.crc32(f"{t.id}/dest".encode()) % (len(names) - 1)
        outbound = zlib.crc32(f"{t.id}/way".encode()) % 2 == 0
        choices = [tr for tr in trains if (tr["origin_id"], tr["destination_id"]) == ((1, dest) if outbound else (dest, 1)) and tr["kind"] == "K"]
        train = choices[zlib.crc32(f"{t.id}/train".encode()) % len(choices)]
        order(train, day.isoformat(), t.posted, round(-t.amount, 2), f"E{t.posted:%y%m%d}{i + 1:03d}")

    stations_by_name = {n: i + 1 for i, n in enumerate(names)}
    for m in world.meetings:
        match = _BOOKED.match(m.title)
        if not match or match["origin"] not in stations_by_name or match["dest"] not in stations_by_name:
            continue
        ref = m.description.split()[1] if m.description.startswith("Booking ") else f"B{m.id}"
        charge = next((t for t in world.transactions if t.reference == ref), None)
        train = {"id": len(trains) + 1, "number": f"G{800 + len(trains)}", "kind": "G", "origin_id": stations_by_name[match["origin"]],
                 "destination_id": stations_by_name[match["dest"]], "depart": m.start.strftime("%H:%M"),
                 "duration_min": int((m.end - m.start).total_seconds() // 60)}
        trains.append(train)
        price = round(-charge.amount, 2) if charge else 80.0
        for seat_class, factor, seats in (("First class", 1.6, 24), ("Second class", 1.0, 60)):
            fares.append({"id": len(fares) + 1, "train_id": train["id"], "seat_class": seat_class, "price": round(price * factor, 2), "seats": seats})
        order(train, m.start.date().isoformat(), charge.posted if charge else now - timedelta(days=3), price, ref)

    codes: list[str] = []
    for n in names:
        letters = "".join(c for c in n.upper() if c.isalpha())[:3].ljust(3, "X")
        code = letters if letters not in codes else letters[:2] + str(len(codes) % 10)
        codes.append(code)
    return {
        "station": [{"id": i + 1, "name": n, "code": codes[i]} for i, n in enumerate(names)],
        "service": trains, "fare": fares, "passenger": _passengers(world), "paymentmethod": methods,
        "orders": orders, "ticket": tickets, **identity_seed(world.persona),
    }
