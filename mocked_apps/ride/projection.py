"""World -> ride seed: the office and home as saved places, the city's landmarks and the world's clients as
known places, the world's card and checking account as payment methods (labelled as the bank labels them),
and past rides behind the world's taxi card charges (the same amount, ending at the moment of the charge).
"""

from __future__ import annotations

import zlib
from datetime import timedelta

from contracts.world import World
from mocked_apps.bank.recipes import account_label
from mocked_apps.kit.identity import identity_seed

from .catalogue import CLASSES, LANDMARKS, driver, grid
from .fares import fare, route

__all__ = ["classes", "payment_methods", "places", "project"]

UNRATED = 2
"""The last rides of a world wait for a rating; the older ones were rated 4 or 5 stars."""


def classes() -> list[dict]:
    return [{"id": i, "name": n, "seats": s, "base": b, "per_km": k, "per_min": m, "min_fare": f, "pickup_min": p, "blurb": t}
            for i, (n, s, b, k, m, f, p, t) in enumerate(CLASSES, start=1)]


def payment_methods(world: World) -> list[dict]:
    """The world's card first, then its checking account, as the bank's drop-downs show them."""
    kinds = [k for k in ("credit", "checking") if any(a.kind == k for a in world.accounts)]
    return [{"id": i, "label": account_label(world, k)} for i, k in enumerate(kinds, start=1)]


def places(world: World) -> list[dict]:
    """Office (saved), Home (saved), the landmarks, then one place per client organisation."""
    p = world.persona
    rows = [{"id": 1, "name": "Office", "address": p.address or f"{p.company}, {p.city}", "x_km": 0.0, "y_km": 0.0, "saved_as": "Office", "last_used": None}]
    hx, hy = grid(world.id, "home", 6.0)
    rows.append({"id": 2, "name": "Home", "address": f"{p.name.split()[-1]} residence, {p.city}", "x_km": hx, "y_km": hy, "saved_as": "Home", "last_used": None})
    for name, street, ring in LANDMARKS:
        x, y = grid(world.id, name, ring)
        rows.append({"id": len(rows) + 1, "name": name.format(city=p.city or "City"), "address": f"{street}, {p.city}".strip(", "),
                     "x_km": x, "y_km": y, "saved_as": "", "last_used": None})
    for org in world.organisations:
        if org.kind == "client":
            x, y = grid(world.id, org.name, 5.0)
            number = zlib.crc32(org.name.encode()) % 1900 + 100
            rows.append({"id": len(rows) + 1, "name": org.name, "address": f"{number} Commerce Street, {p.city}".strip(", "),
                         "x_km": x, "y_km": y, "saved_as": "", "last_used": None})
    return rows


def _closest(amount: float, spots: list[dict], kinds: list[dict]) -> tuple[dict, dict, dict, tuple]:
    """The route and class whose fare is nearest `amount` (the charge a past ride must match)."""
    best = None
    for a in spots:
        for b in spots:
            if a["id"] == b["id"]:
                continue
            km, minutes = route(a["x_km"], a["y_km"], b["x_km"], b["y_km"])
            for c in kinds:
                f = fare(c["base"], c["per_km"], c["per_min"], c["min_fare"], km, minutes)
                key = (round(abs(amount - f.amount), 2), a["id"], b["id"], c["id"])
                if best is None or key < best[0]:
                    best = (key, a, b, c, (km, minutes, f))
    return best[1:]


def _past_rides(world: World, rows: list[dict], kinds: list[dict]) -> list[dict]:
    rides: list[dict] = []
    charges = sorted((t for t in world.transactions if t.amount < 0 and t.description == "Taxi"), key=lambda t: (t.posted, t.id))
    for n, t in enumerate(charges):
        amount = round(-t.amount, 2)
        start, spot, c, (km, minutes, f) = _closest(amount, rows, kinds)
        rid = len(rides) + 1
        dropoff = t.posted
        pickup = dropoff - timedelta(minutes=minutes)
        number = f"R{pickup:%y%m%d}{rid:04d}"
        name, car, plate = driver(number)
        old = n < len(charges) - UNRATED
        rides.append({"id": rid, "number": number, "pickup_id": start["id"], "dropoff_id": spot["id"], "class_id": c["id"],
                      "payment_method_id": 1, "status": "completed", "requested_at": (pickup - timedelta(minutes=c["pickup_min"])).isoformat(),
                      "pickup_at": pickup.isoformat(), "dropoff_at": dropoff.isoformat(), "km": km, "minutes": minutes,
                      "base_fare": f.base, "distance_fare": f.distance, "time_fare": f.time, "adjustment": round(amount - f.amount, 2),
                      "fare": amount, "tip": 0.0, "total": amount, "rating": (5 if zlib.crc32(t.id.encode()) % 3 else 4) if old else None,
                      "comment": "", "driver_name": name, "car": car, "plate": plate})
        for r in (start, spot):
            r["last_used"] = max(r["last_used"] or "", pickup.isoformat())
    return rides


def project(world: World) -> dict[str, list[dict]]:
    rows, kinds = places(world), classes()
    rides = _past_rides(world, rows, kinds)
    return {"place": rows, "vehicleclass": kinds, "paymentmethod": payment_methods(world), "ride": rides, **identity_seed(world.persona)}
