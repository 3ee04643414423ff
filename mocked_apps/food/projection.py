"""World -> food seed: the restaurant catalogue around the persona's office, the office as the delivery
address, the world's card and checking account as payment methods, coupons dated from the world's clock,
and past orders behind the world's lunch card charges (same amount, same moment).
"""

from __future__ import annotations

import zlib
from datetime import timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import rows as catalogue_rows

__all__ = ["payment_methods", "project"]


def payment_methods(world: World) -> list[dict]:
    rows = []
    for kind in ("credit", "checking"):
        acc = next((a for a in world.accounts if a.kind == kind), None)
        if acc is not None:
            rows.append({"id": len(rows) + 1, "label": f"{acc.name} •••• {acc.number}"})
    return rows


def _past_orders(world: World, menu: dict) -> tuple[list[dict], list[dict]]:
    orders: list[dict] = []
    lines: list[dict] = []
    charges = sorted((t for t in world.transactions if t.amount < 0 and (t.description == "Lunch meeting" or t.description.startswith("Client lunch"))),
                     key=lambda t: (t.posted, t.id))
    for t in charges:
        amount = round(-t.amount, 2)
        places = [r for r in menu["restaurant"] if r["min_order"] + r["delivery_fee"] <= amount]
        if not places:
            continue
        r = places[zlib.crc32(t.id.encode()) % len(places)]
        items = [i for i in menu["menuitem"] if i["restaurant_id"] == r["id"] and i["section"] != "Drinks"]
        item = items[zlib.crc32(f"{t.id}/item".encode()) % len(items)]
        fee = 0.0 if r["free_delivery_over"] and amount - r["delivery_fee"] >= r["free_delivery_over"] else r["delivery_fee"]
        subtotal = round(amount - fee, 2)
        q = max(1, min(8, int(subtotal // item["price"])))
        rest = round(subtotal - q * item["price"], 2)
        oid = len(orders) + 1
        placed = t.posted - timedelta(minutes=r["delivery_min"])
        orders.append({"id": oid, "number": f"F{placed:%y%m%d}{oid:03d}", "restaurant_id": r["id"], "address_id": 1, "payment_method_id": 1,
                       "coupon_id": None, "subtotal": subtotal, "delivery_fee": fee, "discount": 0.0, "total": amount, "note": "",
                       "status": "delivered", "placed_at": placed.isoformat(), "eta": t.posted.isoformat()})
        lines.append({"id": len(lines) + 1, "order_id": oid, "item_id": item["id"], "name": item["name"], "options": "", "quantity": q,
                      "unit_price": item["price"]})
        if rest > 0:
            extra = next((i for i in menu["menuitem"] if i["restaurant_id"] == r["id"] and i["section"] == "Drinks"), item)
            lines.append({"id": len(lines) + 1, "order_id": oid, "item_id": extra["id"], "name": "Drinks & extras", "options": "",
                          "quantity": 1, "unit_price": rest})
    return orders, lines


def project(world: World) -> dict[str, list[dict]]:
    menu = catalogue_rows(world.id)
    today = world.scenario.clock.date()
    p = world.persona
    orders, lines = _past_orders(world, menu)
    return {
        **menu,
        "address": [{"id": 1, "label": "Office", "line": p.address or f"{p.company}, {p.city}"},
                    {"id": 2, "label": "Home", "line": f"{p.name.split()[-1]} residence, {p.city}"}],
        "paymentmethod": payment_methods(world),
        "coupon": [
            {"id": 1, "title": "$5 off orders over $30", "discount": 5.0, "min_spend": 30.0, "restaurant_id": None,
             "expires": (today + timedelta(days=10)).isoformat(), "used": False},
            {"id": 2, "title": "$8 off orders over $60", "discount": 8.0, "min_spend": 60.0, "restaurant_id": None,
             "expires": (today + timedelta(days=4)).isoformat(), "used": False},
            {"id": 3, "title": "$4 off at Green Bowl over $20", "discount": 4.0, "min_spend": 20.0, "restaurant_id": 3,
             "expires": (today + timedelta(days=6)).isoformat(), "used": False},
            {"id": 4, "title": "$10 off your order", "discount": 10.0, "min_spend": 25.0, "restaurant_id": None,
             "expires": (today - timedelta(days=2)).isoformat(), "used": False},
        ],
        "cartline": [], "foodorder": orders, "orderline": lines, **identity_seed(world.persona),
    }
