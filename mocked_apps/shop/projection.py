"""World -> shop seed: the catalogue (stock varies by world), the persona's office (default), home and
relatives' addresses, the world's card and checking account as payment methods, and past orders behind
the world's online-shopping and stationery card charges (same amount, placed at the moment of the charge).
"""

from __future__ import annotations

import re
import zlib
from datetime import timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import rows as catalogue_rows
from .pricing import FREE_SHIPPING_OVER, SPEEDS, arrival

__all__ = ["addresses", "payment_methods", "project"]

_STREETS = ("Maple Avenue", "Cedar Lane", "Harbor Road", "Birch Street", "Elm Court", "Willow Way", "Oak Terrace", "Juniper Drive")


def payment_methods(world: World) -> list[dict]:
    rows = []
    for kind in ("credit", "checking"):
        acc = next((a for a in world.accounts if a.kind == kind), None)
        if acc is not None:
            rows.append({"id": len(rows) + 1, "label": f"{acc.name} •••• {acc.number}"})
    return rows


def _split(address: str, city: str) -> tuple[str, str, str]:
    """(street, city, postcode) of a one-line address like '118 Alder Street, Portland, OR 97205'."""
    parts = [p.strip() for p in address.split(",") if p.strip()]
    street = parts[0] if parts else "1 Main Street"
    rest = " ".join(parts[1:])
    code = re.search(r"[A-Z]{0,2}\d[\dA-Z -]{2,8}$", rest)
    postcode = code.group(0).strip() if code else f"{zlib.crc32(address.encode()) % 90000 + 10000}"
    town = (rest[: code.start()] if code else rest).strip(" ,") or city or "City"
    return street, town, postcode


def _made_up(name: str, city: str, postcode: str) -> tuple[str, str, str]:
    h = zlib.crc32(name.encode())
    return f"{h % 180 + 2} {_STREETS[h // 180 % len(_STREETS)]}", city, postcode


def addresses(world: World) -> list[dict]:
    """The address book: the office (default), the persona's home, then each relative's home."""
    p = world.persona
    street, town, code = _split(p.address or f"{p.company}, {p.city}", p.city)
    rows = [{"name": p.name, "line": street, "city": town, "postcode": code, "label": "Office", "is_default": True}]
    home = _made_up(p.name, town, code)
    rows.append({"name": p.name, "line": home[0], "city": home[1], "postcode": home[2], "label": "Home", "is_default": False})
    for person in world.people:
        if world.org(person.org).kind == "household" and person.id != world.user:
            there = _made_up(person.name, town, code)
            rows.append({"name": person.name, "line": there[0], "city": there[1], "postcode": there[2], "label": "", "is_default": False})
    return [{"id": i, "phone": "", **row} for i, row in enumerate(rows, start=1)]


def _charges(world: World) -> list:
    return sorted((t for t in world.transactions if t.amount < 0 and t.posted <= world.scenario.clock
                   and (t.description == "Stationery" or t.description.endswith("online order"))), key=lambda t: (t.posted, t.id))


def _fit(pool: list[dict], subtotal: float, key: str) -> tuple[dict, int, float]:
    """(product, quantity, unit price paid) closest to list price whose units make `subtotal` to the cent."""
    best = None
    for i, product in enumerate(pool):
        for qty in range(1, 11):
            unit = round(subtotal / qty, 2)
            if round(unit * qty, 2) == subtotal:
                score = (abs(unit - product["price"]) / product["price"], (zlib.crc32(f"{key}/{i}".encode()) % 97))
                if best is None or score < best[0]:
                    best = (score, product, qty, unit)
    return best[1], best[2], best[3]


def _past_orders(world: World, catalogue: dict, book: list[dict]) -> tuple[list[dict], list[dict]]:
    """One delivered (or shipped) order per charge: a product bought at the price that makes the charge's total."""
    orders: list[dict] = []
    lines: list[dict] = []
    office = {c["id"] for c in catalogue["category"] if c["name"] == "Office"}
    for t in _charges(world):
        amount = round(-t.amount, 2)
        fee = 0.0 if amount >= FREE_SHIPPING_OVER else SPEEDS["standard"][1]
        subtotal = round(amount - fee, 2)
        if subtotal <= 0:
            continue
        pool = [p for p in catalogue["product"] if (p["category_id"] in office) == (t.description == "Stationery")]
        product, qty, unit = _fit(pool, subtotal, t.id)
        variants = [v for v in catalogue["variant"] if v["product_id"] == product["id"]]
        variant = variants[zlib.crc32(f"{t.id}/v".encode()) % len(variants)]
        oid = len(orders) + 1
        arrives = arrival("standard", t.posted.date())
        where = book[0]
        orders.append({"id": oid, "number": f"112-{t.posted:%y%m%d}-{oid:04d}", "address_id": where["id"],
                       "ship_to": f"{where['name']}, {where['line']}, {where['city']} {where['postcode']}", "payment_method_id": 1,
                       "shipping": "standard", "subtotal": subtotal, "shipping_fee": fee, "total": amount,
                       "status": "delivered" if arrives <= world.scenario.clock.date() else "shipped",
                       "placed_at": t.posted.isoformat(), "arrives": arrives.isoformat()})
        lines.append({"id": len(lines) + 1, "order_id": oid, "variant_id": variant["id"], "product_id": product["id"], "name": product["name"],
                      "colour": variant["colour"], "size": variant["size"], "quantity": qty, "unit_price": unit})
    return orders, lines


def project(world: World) -> dict[str, list[dict]]:
    catalogue = catalogue_rows(world.id)
    book = addresses(world)
    orders, lines = _past_orders(world, catalogue, book)
    return {**catalogue, "address": book, "paymentmethod": payment_methods(world), "cartline": [], "shoporder": orders, "orderline": lines,
            "returnrequest": [], **identity_seed(world.persona)}
