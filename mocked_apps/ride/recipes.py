"""Ride's recipes: how the app shows a world's records, golden steps and verifier predicates other families call.

Other families use these instead of re-typing the app's labels (the From / To pickers, the class radios, the
trip links of the history, the rating form), its row ids or its tables.
"""

from __future__ import annotations

from datetime import datetime

from contracts.world import World

from .manifest import MANIFEST
from .projection import payment_methods

__all__ = ["finish_trip", "method_label", "new_rides_source", "open_app", "open_trip", "rate", "request", "schedule",
           "trip_label", "where_to"]


def method_label(world: World, index: int = 0) -> str:
    """How the ride app shows the world's card (0) or checking account (1)."""
    return payment_methods(world)[index]["label"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def where_to(pickup: str, dropoff: str) -> str:
    """From the home page: choose the pickup and the destination (place names) and see the classes' prices."""
    return "\n".join(['env.click(env.word("Book"), role="link")', f'env.select("From", {pickup!r})', f'env.select("To", {dropoff!r})',
                      'env.click("See prices", role="button")'])


def request(vclass: str, method: str) -> str:
    """On the prices page: choose a class (its name) and a payment method (its label) and ride now."""
    return "\n".join([f"env.check({vclass!r}, True)", f'env.select("Payment method", {method!r})', 'env.click("Request ride", role="button")'])


def schedule(vclass: str, method: str, day: str, clock: str) -> str:
    """On the prices page: book the class for a pickup on `day` (YYYY-MM-DD) at `clock` (HH:MM)."""
    return "\n".join([f"env.check({vclass!r}, True)", f'env.select("Payment method", {method!r})', f'env.fill("Pickup date", {day!r})',
                      f'env.fill("Pickup time", {clock!r})', 'env.click("Schedule ride", role="button")'])


def finish_trip() -> str:
    """On a trip whose driver is on the way: get in, then arrive (the instance clock moves to each time)."""
    return 'env.click("Start trip", role="button")\nenv.click("End trip", role="button")'


def trip_label(dropoff: str, pickup_at: datetime) -> str:
    """The accessible name of a trip in the history: its destination and pickup time."""
    return f"Trip to {dropoff}, {pickup_at:%b %d %H:%M}"


def open_trip(dropoff: str, pickup_at: datetime) -> str:
    """Open a trip (its receipt once completed) from the trip history."""
    return f'env.click("Trips", role="link")\nenv.click({trip_label(dropoff, pickup_at)!r}, role="link")'


def rate(stars: int, tip: float) -> str:
    """On a completed, unrated trip: give the driver `stars` and a tip, and submit."""
    star = f"{stars} star" + ("" if stars == 1 else "s")
    return "\n".join([f"env.check({star!r}, True)", f'env.fill("Tip", {f"{tip:.2f}"!r})', 'env.click("Submit rating", role="button")'])


def new_rides_source(fn: str) -> str:
    """`fn(final)`: the rides booked during the attempt and not cancelled, with `pickup`/`dropoff` place names."""
    return f'''
def {fn}(final):
    ride, before = final.state["ride"], final.initial_state["ride"]
    old = {{r["id"] for r in before["ride"]}}
    names = {{p["id"]: p["name"] for p in ride["place"]}}
    return [dict(r, pickup=names.get(r["pickup_id"]), dropoff=names.get(r["dropoff_id"])) for r in ride["ride"]
            if r["id"] not in old and r["status"] != "cancelled"]
'''
