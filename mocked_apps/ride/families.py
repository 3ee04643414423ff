"""Ride families: book a ride, book the cheapest class that seats a party, schedule a ride, rate and tip a past
trip, save a place; a look-up answered in text (what the last ride to a place cost); and one cross-app family
(schedule a ride, then block the trip in the calendar until the arrival time the ride app gives).

Single-app tasks run on the phone, the app's primary form factor; ground truth is the world's projection read
with the app's own fare rules.
"""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta

from contracts.family import Family, PhoneFamily, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as ride
from .fares import fare, route
from .projection import project

__all__ = ["FAMILIES"]

CARD, CHECKING = 0, 1
"""Payment methods by index: the projection lists the card first, then checking."""


def _quote(rows: dict, a: dict, b: dict) -> list[tuple[dict, float]]:
    """(class, fare) of every class for the route a -> b."""
    km, minutes = route(a["x_km"], a["y_km"], b["x_km"], b["y_km"])
    return [(c, fare(c["base"], c["per_km"], c["per_min"], c["min_fare"], km, minutes).amount) for c in rows["vehicleclass"]]


def _route(rng: random.Random, rows: dict) -> tuple[dict, dict]:
    """A pickup (a saved place mostly) and a different destination."""
    saved = [p for p in rows["place"] if p["saved_as"]]
    a = rng.choice(saved) if saved and rng.random() < 0.8 else rng.choice(rows["place"])
    b = rng.choice([p for p in rows["place"] if p["id"] != a["id"]])
    return a, b


def _method(world: World, rng: random.Random) -> tuple[int, str, str]:
    """(payment method id, its label, how the instruction says it): the card mostly, else the checking account."""
    index = CHECKING if len(project(world)["paymentmethod"]) > 1 and rng.random() < 0.4 else CARD
    return index + 1, ride.method_label(world, index), ("the card" if index == CARD else "the checking account")


def _booking(c: dict, status: str, extra: str = "") -> str:
    """Verifier: one new ride on the route, of the class, paid as asked, in `status` (a tuple's source)."""
    return ride.new_rides_source("_ride_new") + f'''

def verify(final):
    new = _ride_new(final)
    right = [r for r in new if r["pickup_id"] == {c["pickup_id"]!r} and r["dropoff_id"] == {c["dropoff_id"]!r}
             and r["class_id"] == {c["class_id"]!r} and r["status"] in {status}{extra}]
    return {{
        "booked": bool(right),
        "paid_with": any(r["payment_method_id"] == {c["method_id"]!r} for r in right),
        "only_once": len(new) == 1,
    }}
'''


def _a(name: str) -> str:
    return ("an " if name[0] in "AEIOU" else "a ") + name


def _criteria(what: str, method: str) -> list[Criterion]:
    return [Criterion(id="booked", description=what), Criterion(id="paid_with", description=f"Paid with {method}."),
            Criterion(id="only_once", description="Exactly one new ride.", weight=0.5)]


NOW = "('arriving', 'on_trip', 'completed')"
"""A ride booked for now: the driver on the way, or the trip already taken."""


class BookRide(PhoneFamily):
    name = "ride.book_ride"
    apps = ("ride",)
    description = "Book a ride now from one place to another in a given class, paid a given way."
    difficulty = "easy"
    capabilities = ("navigate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        a, b = _route(rng, rows)
        vclass = rng.choice(rows["vehicleclass"])
        method_id, method, said = _method(world, rng)
        instruction = say(rng, world, "Get me {c} ride from {a} to {b} right now, paid with {m}.",
                          "Book {c} from {a} to {b} now; put it on {m}.", c=_a(vclass["name"]), a=a["name"], b=b["name"], m=said)
        ctx = {"pickup": a["name"], "pickup_id": a["id"], "dropoff": b["name"], "dropoff_id": b["id"], "vclass": vclass["name"],
               "class_id": vclass["id"], "method": method, "method_id": method_id}
        return self._req(instruction, ctx, _criteria(f"A {vclass['name']} ride from {a['name']} to {b['name']}, booked for now.", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(ride.where_to(c["pickup"], c["dropoff"]), ride.request(c["vclass"], c["method"]))

    def verifier(self, req: Requirements) -> str:
        return _booking(req.answer_context, NOW)


class CheapestForParty(PhoneFamily):
    name = "ride.cheapest_for_party"
    apps = ("ride",)
    description = "Book the cheapest class that seats a party of people for a route (the fares depend on the route)."
    difficulty = "medium"
    capabilities = ("navigate", "compute", "disambiguate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        a, b = _route(rng, rows)
        party = rng.choice([1, 2, 3, 4, 5, 6])
        fits = sorted(((f, c["id"], c) for c, f in _quote(rows, a, b) if c["seats"] >= party), key=lambda x: (x[0], x[1]))
        if len(fits) > 1 and abs(fits[0][0] - fits[1][0]) < 0.01:
            return None  # a tie has no one right answer
        amount, _, best = fits[0]
        method_id, method, said = _method(world, rng)
        people = "one person" if party == 1 else f"{party} people"
        instruction = say(rng, world, "Book the cheapest ride from {a} to {b} right now that takes {n} in one car, paid with {m}.",
                          "Cheapest ride from {a} to {b} right now for {n} (everyone in one car). Pay with {m}.",
                          n=people, a=a["name"], b=b["name"], m=said)
        ctx = {"pickup": a["name"], "pickup_id": a["id"], "dropoff": b["name"], "dropoff_id": b["id"], "vclass": best["name"],
               "class_id": best["id"], "method": method, "method_id": method_id, "party": party, "fare": amount}
        return self._req(instruction, ctx, _criteria(f"A {best['name']} ride ({money(amount)}, the cheapest with {party}+ seats) "
                                                     f"from {a['name']} to {b['name']}, booked for now.", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(ride.where_to(c["pickup"], c["dropoff"]), ride.request(c["vclass"], c["method"]))

    def verifier(self, req: Requirements) -> str:
        return _booking(req.answer_context, NOW)


class ScheduleRide(PhoneFamily):
    name = "ride.schedule_ride"
    apps = ("ride",)
    description = "Schedule a ride in a class for a pickup at a given day and time."
    difficulty = "medium"
    capabilities = ("navigate", "select_option", "date_time", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        a, b = _route(rng, rows)
        vclass = rng.choice(rows["vehicleclass"])
        day = world.scenario.clock.date() + timedelta(days=rng.randint(1, 6))
        at = datetime.combine(day, time(rng.randint(5, 21), rng.choice([0, 15, 30, 45])))
        method_id, method, said = _method(world, rng)
        when = f"{at:%A} {at:%B} {at.day} at {at:%H:%M}"
        instruction = say(rng, world, "Schedule {c} ride from {a} to {b} for {when}, paid with {m}.",
                          "I need {c} from {a} to {b} picking me up {when}. Book it ahead and pay with {m}.",
                          c=_a(vclass["name"]), a=a["name"], b=b["name"], when=when, m=said)
        ctx = {"pickup": a["name"], "pickup_id": a["id"], "dropoff": b["name"], "dropoff_id": b["id"], "vclass": vclass["name"],
               "class_id": vclass["id"], "method": method, "method_id": method_id, "day": day.isoformat(), "clock": f"{at:%H:%M}",
               "pickup_at": at.isoformat()}
        return self._req(instruction, ctx, _criteria(f"A {vclass['name']} ride from {a['name']} to {b['name']}, scheduled for {when}.", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(ride.where_to(c["pickup"], c["dropoff"]), ride.schedule(c["vclass"], c["method"], c["day"], c["clock"]))

    def verifier(self, req: Requirements) -> str:
        at = req.answer_context["pickup_at"]
        return _booking(req.answer_context, "('scheduled',)", f' and str(r["pickup_at"]).replace(" ", "T")[:16] == {at[:16]!r}')


def _past(rows: dict) -> list[dict]:
    """Completed past rides whose destination and day name them alone, with `dropoff` and `day`."""
    names = {p["id"]: p["name"] for p in rows["place"]}
    done = [dict(r, dropoff=names[r["dropoff_id"]], day=r["pickup_at"][:10]) for r in rows["ride"] if r["status"] == "completed"]
    return [r for r in done if sum(x["dropoff"] == r["dropoff"] and x["day"] == r["day"] for x in done) == 1]


def _said_day(iso: str) -> str:
    d = datetime.fromisoformat(iso)
    return f"{d:%B} {d.day}"


class RateTrip(PhoneFamily):
    name = "ride.rate_trip"
    apps = ("ride",)
    description = "Rate a past trip's driver and tip them, a set amount or a share of the fare."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "compute", "form_fill", "select_option")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        r = pick(rng, [r for r in _past(project(world)) if r["rating"] is None])
        if r is None:
            return None
        stars = rng.choice([3, 4, 5, 5])
        share = rng.choice([0, 10, 15, 20])
        tip = round(r["fare"] * share / 100, 2) if share else float(rng.choice([1, 2, 3, 5]))
        how = f"{share}% of the fare" if share else money(tip)
        instruction = say(rng, world, "Rate my ride to {b} on {day} {s} stars and tip the driver {how}.",
                          "Give the driver of my {day} trip to {b} {s} stars, with a tip of {how}.",
                          b=r["dropoff"], day=_said_day(r["day"]), s=stars, how=how)
        ctx = {"ride_id": r["id"], "dropoff": r["dropoff"], "pickup_at": r["pickup_at"], "stars": stars, "tip": tip, "fare": r["fare"]}
        return self._req(instruction, ctx, [
            Criterion(id="rated", description=f"The trip to {r['dropoff']} on {r['day']} is rated {stars} stars."),
            Criterion(id="tipped", description=f"Its tip is {money(tip)} and its total {money(r['fare'] + tip)}."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(ride.open_trip(c["dropoff"], datetime.fromisoformat(c["pickup_at"])), ride.rate(c["stars"], c["tip"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    r = next((r for r in final.state["ride"]["ride"] if r["id"] == {c["ride_id"]!r}), None)
    return {{
        "rated": r is not None and r["rating"] == {c["stars"]!r},
        "tipped": r is not None and abs(r["tip"] - {c["tip"]!r}) < 0.011 and abs(r["total"] - {round(c["fare"] + c["tip"], 2)!r}) < 0.011,
    }}
'''


class SavePlace(PhoneFamily):
    name = "ride.save_place"
    apps = ("ride",)
    description = "Save a known place (a client's office, a landmark) under a label of the user's."
    difficulty = "easy"
    capabilities = ("navigate", "select_option", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        place = pick(rng, [p for p in rows["place"] if not p["saved_as"]])
        taken = {p["saved_as"].lower() for p in rows["place"]}
        label = pick(rng, [w for w in ("Gym", "Client", "Airport", "Station", "Weekend", "Parents", "Studio") if w.lower() not in taken])
        if place is None or label is None:
            return None
        instruction = say(rng, world, "Save {p} in my ride app's saved places as \"{l}\".",
                          "Add {p} to my saved places under the label \"{l}\".", p=place["name"], l=label)
        ctx = {"place": place["name"], "place_id": place["id"], "label": label}
        return self._req(instruction, ctx, [Criterion(id="saved", description=f"{place['name']} is saved as '{label}'.")])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source('env.click("Places", role="link")', f'env.select("Place", {c["place"]!r})', f'env.fill("Label", {c["label"]!r})',
                            'env.click("Save place", role="button")')

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    p = next((p for p in final.state["ride"]["place"] if p["id"] == {c["place_id"]!r}), None)
    return {{"saved": p is not None and p["saved_as"].strip().lower() == {c["label"].lower()!r}}}
'''


class RideInCalendar(Family):
    name = "cross.ride_in_calendar"
    apps = ("ride", "calendar")
    description = "Schedule a ride, then block the trip in the calendar from the pickup to the arrival time the ride app gives."
    difficulty = "hard"
    capabilities = ("cross_app", "navigate", "select_option", "date_time", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        a, b = _route(rng, rows)
        vclass = rng.choice(rows["vehicleclass"])
        day = world.scenario.clock.date() + timedelta(days=rng.randint(1, 6))
        at = datetime.combine(day, time(rng.randint(6, 19), rng.choice([0, 15, 30, 45])))
        _, minutes = route(a["x_km"], a["y_km"], b["x_km"], b["y_km"])
        arrive = at + timedelta(minutes=minutes)
        if arrive.date() != day:
            return None
        method_id, method, said = _method(world, rng)
        title = f"Ride to {b['name']}"
        when = f"{at:%A} {at:%B} {at.day} at {at:%H:%M}"
        instruction = say(rng, world, "Schedule {c} ride from {a} to {b} for {when}, paid with {m}. Then block the trip in my calendar as \"{t}\", from the pickup until the arrival time the ride app gives.",
                          "Book {c} from {a} to {b}, pickup {when}, on {m}; and put an event \"{t}\" in the calendar covering the ride (pickup to expected arrival, as the ride app says).",
                          c=_a(vclass["name"]), a=a["name"], b=b["name"], when=when, m=said, t=title)
        ctx = {"pickup": a["name"], "pickup_id": a["id"], "dropoff": b["name"], "dropoff_id": b["id"], "vclass": vclass["name"],
               "class_id": vclass["id"], "method": method, "method_id": method_id, "day": day.isoformat(), "clock": f"{at:%H:%M}",
               "pickup_at": at.isoformat(), "title": title, "arrive": f"{arrive:%H:%M}"}
        return self._req(instruction, ctx, [
            Criterion(id="scheduled", description=f"{_a(vclass['name'])} ride from {a['name']} to {b['name']} scheduled for {when}."),
            Criterion(id="paid_with", description=f"Paid with {method}."),
            Criterion(id="in_calendar", description=f"A calendar event \"{title}\" on {day} from {at:%H:%M} to {arrive:%H:%M}."),
            Criterion(id="only_once", description="Exactly one new ride.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(ride.open_app(), ride.where_to(c["pickup"], c["dropoff"]), ride.schedule(c["vclass"], c["method"], c["day"], c["clock"]),
                            calendar.open_app(), calendar.create_event(c["title"], c["day"], c["clock"], c["arrive"], ""))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        start, end = f"{c['day']}T{c['clock']}:00", f"{c['day']}T{c['arrive']}:00"
        return ride.new_rides_source("_ride_new") + calendar.new_events_source("_cal_new", c["title"], start, end) + f'''

def verify(final):
    new = _ride_new(final)
    right = [r for r in new if r["pickup_id"] == {c["pickup_id"]!r} and r["dropoff_id"] == {c["dropoff_id"]!r}
             and r["class_id"] == {c["class_id"]!r} and r["status"] == "scheduled"
             and str(r["pickup_at"]).replace(" ", "T")[:16] == {c["pickup_at"][:16]!r}]
    return {{
        "scheduled": bool(right),
        "paid_with": any(r["payment_method_id"] == {c["method_id"]!r} for r in right),
        "in_calendar": bool(_cal_new(final)),
        "only_once": len(new) == 1,
    }}
'''


_WHERE = {"Home": "my Home address", "Office": "the Office"}
"""How the user names the saved places in a question; other places by their name."""


class LastRideCost(PhoneFamily, AnswerFamily):
    name = "ride.last_ride_cost"
    apps = ("ride",)
    description = "Find the most recent completed ride to a place in the trip history and answer with what it cost."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {p["id"]: p["name"] for p in rows["place"]}
        last: dict[int, dict] = {}
        for r in sorted((r for r in rows["ride"] if r["status"] == "completed"), key=lambda r: (r["pickup_at"], r["id"])):
            last[r["dropoff_id"]] = r
        r = pick(rng, sorted(last.values(), key=lambda r: r["id"]))
        if r is None:
            return None
        place = names[r["dropoff_id"]]
        instruction = say(rng, world, "What did my last ride to {where} cost?", "How much did I pay for my most recent trip to {where}?",
                          "Look up my latest ride to {where} and tell me the total I paid.", where=_WHERE.get(place, place))
        ctx = {"dropoff": place, "pickup_at": r["pickup_at"], "total": r["total"]}
        return self._req(instruction, ctx, self.criteria(
            f"The answer gives {money(r['total'])}, the total of the last ride to {place} ({r['number']}).",
            "The answer names no other amount (the fare's parts or other rides are no answer)."))

    answer = AnswerSpec("amount", "total", golden="${total:,.2f}", sentence="It came to {total:.2f}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Open the receipt from the Completed tab of the trips, and say the total in a sentence without a currency sign."""
        at = datetime.fromisoformat(c["pickup_at"])
        return ride.open_trip(c["dropoff"], at), ('env.click("Trips", role="link")', 'env.click("Completed", role="link")',
                                                  f'env.click({ride.trip_label(c["dropoff"], at)!r}, role="link")')


FAMILIES = (BookRide(), CheapestForParty(), ScheduleRide(), RateTrip(), SavePlace(), RideInCalendar(), LastRideCost())
