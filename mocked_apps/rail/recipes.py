"""Rail's recipes: how the app shows a world's records, golden steps and verifier predicates other families call.

Other families use these instead of re-typing the app's labels (the search form, the 'Book <class> on
<train>' links, the payment step), its row ids or its tables.
"""

from __future__ import annotations

from contracts.world import World

from .manifest import MANIFEST
from .projection import payment_methods

__all__ = ["add_passenger", "book", "booked_source", "change_to", "method_id", "method_label", "new_orders_source", "open_app", "open_order",
           "refund_all", "search"]


def method_label(world: World, kind: str = "card") -> str:
    """How the payment step shows the world's card ('card') or checking account ('bank')."""
    return next(m["label"] for m in payment_methods(world) if m["kind"] == kind)


def method_id(world: World, kind: str = "card") -> int:
    """The app's row id of the world's payment method of that kind."""
    return next(m["id"] for m in payment_methods(world) if m["kind"] == kind)


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def search(origin: str, destination: str, day: str) -> str:
    """Search the trains of a route on a date (ISO)."""
    return "\n".join([
        'env.click(env.word("Search"), role="link")', f'env.select("From", {origin!r})', f'env.select("To", {destination!r})',
        f'env.fill("Travel date", {day!r})', 'env.click(env.word("Search") + " trains", role="button")'])


def book(number: str, seat_class: str, passengers: list[str], others: list[str], method: str) -> str:
    """From a search's results: book `seat_class` on train `number` for `passengers` (names; `others` unticked), then pay."""
    return "\n".join([
        f'env.click("Book {seat_class} on {number}", role="link")',
        *[f"env.check({p!r}, True)" for p in passengers], *[f"env.check({p!r}, False)" for p in others if p not in passengers],
        'env.click("Submit order", role="button")', f'env.select("Payment method", {method!r})', 'env.click("Pay now", role="button")'])


def open_order(number: str) -> str:
    """Open an upcoming order by its number."""
    return "\n".join(['env.click("My orders", role="link")', f'env.click("Order {number}", role="link")'])


def refund_all() -> str:
    """On an order's page: refund every ticket."""
    return "\n".join(['env.click("Refund tickets", role="link")', 'env.click("Confirm refund", role="button")'])


def change_to(number: str, seat_class: str, day_label: str | None = None) -> str:
    """On an order's page: change the trip to train `number` in `seat_class` (on another date when `day_label` is given)."""
    steps = ['env.click("Change trip", role="link")']
    if day_label:
        steps += [f'env.select("New date", {day_label!r})', 'env.click("Show trains", role="button")']
    return "\n".join([*steps, f'env.click("Change to {seat_class} on {number}", role="button")'])


def add_passenger(name: str, id_number: str, kind_label: str) -> str:
    return "\n".join([
        'env.click("Passengers", role="link")', 'env.click("Add passenger", role="link")', f'env.fill("Full name", {name!r})',
        f'env.fill("ID number", {id_number!r})', f'env.select("Passenger type", {kind_label!r})', 'env.click("Save passenger", role="button")'])


def new_orders_source(fn: str) -> str:
    """`fn(final)`: the orders created during the attempt that are paid, each with its train number and passenger names."""
    return f'''
def {fn}(final):
    rail, before = final.state["rail"], final.initial_state["rail"]
    old = {{o["id"] for o in before["orders"]}}
    trains = {{t["id"]: t["number"] for t in rail["service"]}}
    out = []
    for o in rail["orders"]:
        if o["id"] not in old and o["status"] == "paid":
            names = sorted(t["passenger_name"] for t in rail["ticket"] if t["order_id"] == o["id"] and t["status"] == "active")
            out.append(dict(o, train=trains.get(o["train_id"]), passengers=names))
    return out
'''


def booked_source(fn: str, number: str, day: str, seat_class: str, passengers: list[str]) -> str:
    """`fn(final)`: the new paid orders of train `number` on `day` in `seat_class` for exactly `passengers`.
    Needs `new_orders_source("_rail_new")` in the same verifier."""
    return f'''
def {fn}(final):
    return [o for o in _rail_new(final) if o["train"] == {number!r} and o["travel_date"] == {day!r}
            and o["seat_class"] == {seat_class!r} and o["passengers"] == {sorted(passengers)!r}]
'''
