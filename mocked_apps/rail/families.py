"""Rail families: book a named train, book the earliest train with seats for two, refund a trip, change a
trip, save a passenger; look-ups answered in text: when a booked train leaves, the cheapest fare of a route;
and one cross-app family (the calendar says when, the rail app books it).

Single-app tasks run on the phone, the app's primary form factor. Ground truth comes from `offers`
(the world's projection read with the app's own rules).
"""

from __future__ import annotations

import random
from collections import Counter

from contracts.family import Family, PhoneFamily, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as rail
from .offers import offers, upcoming, when_text
from .projection import id_number, project
from .rules import refund_value

__all__ = ["FAMILIES"]


def _people(world: World) -> tuple[str, list[str]]:
    """(the persona's name, the saved passengers' names) as the app shows them."""
    rows = project(world)["passenger"]
    return world.persona.name, [p["name"] for p in rows]


_BOOK_VERIFIER = '''
def verify(final):
    new = _rail_new(final)
    right = _booked(final)
    return {
        "booked": bool(right),
        "paid_with": any(o["payment_method_id"] == {method_id} for o in right),
        "only_once": len(new) == 1,
    }
'''


class BookTrain(PhoneFamily):
    name = "rail.book_train"
    apps = ("rail",)
    description = "Book and pay a named train, date and seat class for yourself."
    difficulty = "medium"
    capabilities = ("search", "date_time", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        home = project(world)["station"][0]["name"]
        outbound = rng.random() < 0.7
        choice = pick(rng, [o for o in offers(world) if o.left >= 3 and (o.origin == home) == outbound])
        if choice is None:
            return None
        me, saved = _people(world)
        kind = rng.choice(["card", "bank"])
        method = rail.method_label(world, kind)
        instruction = say(rng, world, "Book me a {cls} seat on train {number} from {a} to {b} on {when} and pay with my {how}.",
                          "Get me a ticket on the {depart} {number} from {a} to {b}, {when}, {cls}. Pay with {method}.",
                          "Get me on {number} ({a} to {b}) on {when}, {cls}, paid with the {how}.",
                          cls=choice.seat_class.lower(), number=choice.number, a=choice.origin, b=choice.destination, when=when_text(choice.day),
                          depart=choice.depart, how="card" if kind == "card" else "checking account", method=method)
        ctx = {"number": choice.number, "day": choice.day, "seat_class": choice.seat_class, "origin": choice.origin,
               "destination": choice.destination, "me": me, "others": saved, "method": method,
               "method_id": rail.method_id(world, kind)}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A paid order of {choice.number} on {choice.day} in {choice.seat_class} for {me} alone."),
            Criterion(id="paid_with", description=f"It was paid with {method}."),
            Criterion(id="only_once", description="Exactly one new order was paid.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rail.search(c["origin"], c["destination"], c["day"]),
                            rail.book(c["number"], c["seat_class"], [c["me"]], c["others"], c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (rail.new_orders_source("_rail_new") + rail.booked_source("_booked", c["number"], c["day"], c["seat_class"], [c["me"]])
                + _BOOK_VERIFIER.replace("{method_id}", repr(c["method_id"])))


class BookEarliestWithSeats(PhoneFamily):
    name = "rail.book_earliest_with_seats"
    apps = ("rail",)
    description = "Book the earliest train of a route and date that still has seats in a class, for you and a relative."
    difficulty = "hard"
    capabilities = ("search", "filter_sort", "disambiguate", "multi_item", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        me, saved = _people(world)
        relatives = [p for p in saved if p != me]
        all_offers = offers(world)
        groups: dict[tuple, list] = {}
        for o in all_offers:
            groups.setdefault((o.day, o.origin, o.destination, o.seat_class), []).append(o)
        # routes where the first train is sold out in that class, so the earliest is not simply the first
        candidates = [k for k, g in sorted(groups.items()) if len(g) >= 3 and g[0].left < 2 and any(x.left >= 2 for x in g[1:])]
        key = pick(rng, candidates)
        companion = pick(rng, relatives)
        if key is None or companion is None:
            return None
        day, a, b, cls = key
        target = next(x for x in groups[key] if x.left >= 2)
        method = rail.method_label(world, "card")
        instruction = say(rng, world, "Book {companion} and me on the earliest train from {a} to {b} on {when} that still has two {cls} seats. Pay by card.",
                          "Get two {cls} tickets, for {companion} and me, on the first train from {a} to {b} on {when} that has them; pay with the card.",
                          companion=companion, a=a, b=b, when=when_text(day), cls=cls.lower())
        ctx = {"number": target.number, "day": day, "seat_class": cls, "origin": a, "destination": b, "people": sorted([me, companion]),
               "others": saved, "method": method, "method_id": rail.method_id(world, "card")}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A paid order of {target.number} (departing {target.depart}) on {day} in {cls} for {me} and {companion}."),
            Criterion(id="paid_with", description=f"It was paid with {method}."),
            Criterion(id="only_once", description="Exactly one new order was paid.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rail.search(c["origin"], c["destination"], c["day"]),
                            rail.book(c["number"], c["seat_class"], c["people"], c["others"], c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (rail.new_orders_source("_rail_new") + rail.booked_source("_booked", c["number"], c["day"], c["seat_class"], c["people"])
                + _BOOK_VERIFIER.replace("{method_id}", repr(c["method_id"])))


class RefundTrip(PhoneFamily):
    name = "rail.refund_trip"
    apps = ("rail",)
    description = "Refund every ticket of an upcoming trip (the fee depends on how soon the train leaves)."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        trip = pick(rng, upcoming(world))
        if trip is None:
            return None
        back = refund_value(trip.total, trip.leaves, world.scenario.clock)
        instruction = say(rng, world, "Refund the tickets of my train from {a} to {b} on {when}: I am not going any more.",
                          "Cancel my {a} - {b} trip on {when} ({train}) and get the money back.",
                          "Refund my train ticket for {when}, {a} to {b}.", a=trip.origin, b=trip.destination, when=when_text(trip.day), train=trip.train)
        ctx = {"order_id": trip.order_id, "number": trip.number, "refund": back}
        return self._req(instruction, ctx, [
            Criterion(id="refunded", description=f"Order {trip.number} is refunded."),
            Criterion(id="amount", description=f"Its tickets paid back {money(back)} in all (the fee of the moment)."),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(rail.open_order(req.answer_context["number"]), rail.refund_all())

    verifier_template = '''
def verify(final):
    rail = final.state["rail"]
    order = next((o for o in rail["orders"] if o["id"] == {{ order_id }}), None)
    back = sum(t["refund_amount"] for t in rail["ticket"] if t["order_id"] == {{ order_id }} and t["status"] == "refunded")
    return {"refunded": bool(order) and order["status"] == "refunded", "amount": abs(back - {{ refund }}) < 0.005}
'''


class ChangeTrip(PhoneFamily):
    name = "rail.change_trip"
    apps = ("rail",)
    description = "Change an upcoming trip to another train of the same route and day."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        trips = [t for t in upcoming(world) if t.day > world.scenario.clock.date().isoformat()]
        trip = pick(rng, trips)
        if trip is None:
            return None
        same = [o for o in offers(world) if o.day == trip.day and o.origin == trip.origin and o.destination == trip.destination
                and o.seat_class == trip.seat_class and o.number != trip.train and o.left >= len(trip.passengers)]
        target = pick(rng, same)
        if target is None:
            return None
        later = target.depart > trip.depart
        instruction = say(rng, world, "Move my {a} to {b} trip on {when} to the {depart} train ({number}), same class.",
                          "Change my train ticket for {when} ({a} - {b}) to {number}, which leaves at {depart}.",
                          a=trip.origin, b=trip.destination, when=when_text(trip.day), depart=target.depart, number=target.number)
        ctx = {"order_id": trip.order_id, "number": trip.number, "train": target.number, "day": trip.day, "seat_class": trip.seat_class,
               "passengers": sorted(trip.passengers), "later": later}
        return self._req(instruction, ctx, [
            Criterion(id="changed", description=f"Order {trip.number} is marked changed."),
            Criterion(id="new_trip", description=f"A new paid order on {target.number} on {trip.day} in {trip.seat_class} replaces it, for the same passengers."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rail.open_order(c["number"]), rail.change_to(c["train"], c["seat_class"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return rail.new_orders_source("_rail_new") + rail.booked_source("_booked", c["train"], c["day"], c["seat_class"], c["passengers"]) + f'''

def verify(final):
    rail = final.state["rail"]
    old = next((o for o in rail["orders"] if o["id"] == {c["order_id"]!r}), None)
    new = [o for o in _booked(final) if o["changed_from_id"] == {c["order_id"]!r}]
    return {{"changed": bool(old) and old["status"] == "changed" and bool(new) and old["changed_to_id"] == new[0]["id"],
            "new_trip": len(new) == 1 and len(_rail_new(final)) == 1}}
'''


class AddPassenger(PhoneFamily):
    name = "rail.add_passenger"
    apps = ("rail",)
    description = "Save a colleague as a passenger with their ID number and type."
    difficulty = "easy"
    capabilities = ("navigate", "form_fill", "select_option")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        _, saved = _people(world)
        colleagues = [p for p in world.people if p.org == world.person(world.user).org and p.id != world.user and p.name not in saved]
        person = pick(rng, colleagues)
        if person is None:
            return None
        number = id_number(person.name)
        kind, label = rng.choice([("adult", "Adult"), ("senior", "Senior (20% off)")])
        instruction = say(rng, world, "Add {name} to my saved passengers: ID number {number}, {kind}.",
                          "Save {name} ({kind}, ID {number}) as a passenger so I can book for them.",
                          name=person.name, number=number, kind=kind)
        return self._req(instruction, {"name": person.name, "id_number": number, "kind": kind, "kind_label": label}, [
            Criterion(id="saved", description=f"A new passenger {person.name} with ID number {number}."),
            Criterion(id="kind", description=f"Saved as {kind}."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rail.add_passenger(c["name"], c["id_number"], c["kind_label"]))

    verifier_template = '''
def verify(final):
    old = {p["id"] for p in final.initial_state["rail"]["passenger"]}
    new = [p for p in final.state["rail"]["passenger"] if p["id"] not in old]
    right = [p for p in new if p["name"].strip().lower() == {{ name.lower()|py }} and p["id_number"].upper() == {{ id_number|py }}]
    return {"saved": len(right) == 1 and len(new) == 1, "kind": bool(right) and right[0]["kind"] == {{ kind|py }}}
'''


class TrainForMeeting(Family):
    name = "cross.train_for_meeting"
    apps = ("calendar", "rail")
    description = "Book the first train of a route on the day of a calendar meeting (the date is only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "search", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        clock = world.scenario.clock
        days = {o.day for o in offers(world)}
        meetings = [m for m in world.meetings if m.start.date().isoformat() in days and m.start > clock
                    and sum(x.title == m.title for x in world.meetings) == 1]
        meeting = pick(rng, sorted(meetings, key=lambda m: m.start))
        if meeting is None:
            return None
        day = meeting.start.date().isoformat()
        home = project(world)["station"][0]["name"]
        routes = sorted({o.destination for o in offers(world) if o.origin == home and o.day == day})
        dest = pick(rng, routes)
        first = next((o for o in offers(world) if o.day == day and o.origin == home and o.destination == dest
                      and o.seat_class == "Second class" and o.left >= 1), None)
        if first is None:
            return None
        me, saved = _people(world)
        method = rail.method_label(world, "card")
        instruction = say(rng, world, "On the day of my \"{title}\" meeting I also have to be in {b}: book me a second class seat on the first train from {a} to {b} that day (check my calendar for the date). Pay by card.",
                          "Look up when \"{title}\" is in my calendar and book me on the earliest {a} - {b} train that day with a second class seat; use the card.",
                          title=meeting.title, a=home, b=dest)
        ctx = {"number": first.number, "day": day, "seat_class": "Second class", "origin": home, "destination": dest, "me": me,
               "others": saved, "method": method, "method_id": rail.method_id(world, "card")}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A paid order of {first.number} ({first.depart}) on {day} in Second class for {me} alone."),
            Criterion(id="paid_with", description=f"It was paid with {method}."),
            Criterion(id="only_once", description="Exactly one new order was paid.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), rail.open_app(), rail.search(c["origin"], c["destination"], c["day"]),
                            rail.book(c["number"], c["seat_class"], [c["me"]], c["others"], c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (rail.new_orders_source("_rail_new") + rail.booked_source("_booked", c["number"], c["day"], c["seat_class"], [c["me"]])
                + _BOOK_VERIFIER.replace("{method_id}", repr(c["method_id"])))


def _clock_text(hhmm: str) -> str:
    """'8:15 AM': a departure time as a person writes it, one reading only."""
    h, m = (int(x) for x in hhmm.split(":"))
    return f"{h % 12 or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


class TrainDeparture(PhoneFamily, AnswerFamily):
    name = "rail.train_departure"
    apps = ("rail",)
    description = "Look up what time a booked train leaves and answer with the time."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        trips = upcoming(world)
        same = Counter((t.origin, t.destination, t.day) for t in trips)
        trip = pick(rng, [t for t in trips if same[(t.origin, t.destination, t.day)] == 1])
        if trip is None:
            return None
        instruction = say(rng, world, "What time does my train from {a} to {b} on {when} leave?",
                          "When does my {a} - {b} train on {when} depart? Just the time, please.",
                          "Check my booking for {when}, {a} to {b}: what time does the train leave?",
                          a=trip.origin, b=trip.destination, when=when_text(trip.day))
        ctx = {"number": trip.number, "depart": trip.depart, "depart_text": _clock_text(trip.depart)}
        return self._req(instruction, ctx, self.criteria(
            f"The answer gives {trip.depart}, when train {trip.train} of order {trip.number} leaves.",
            "The answer names no other time (listing the timetable is no answer)."))

    answer = AnswerSpec("time", "depart", golden="{depart_text}", sentence="It leaves at {depart}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Go through the Upcoming tab of the orders, and say the time on the 24-hour clock."""
        return rail.open_order(c["number"]), ('env.click("My orders", role="link")', 'env.click("Upcoming", role="link")',
                                              f'env.click({"Order " + c["number"]!r}, role="link")')


def _gives_away(instruction: str, amount: float) -> bool:
    """Whether the instruction already states the amount, in a form the review's answer_in_instruction rule reads."""
    forms = {str(amount), f"{amount:,}", f"{amount:.2f}", f"{amount:,.2f}"} | ({str(int(amount))} if amount.is_integer() else set())
    return any(f in instruction for f in forms)


class CheapestFare(PhoneFamily, AnswerFamily):
    name = "rail.cheapest_fare"
    apps = ("rail",)
    description = "Search a route on a date and answer with the lowest fare of a seat class (a train of that price still has seats)."
    difficulty = "medium"
    capabilities = ("search", "date_time", "filter_sort", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        groups: dict[tuple, list] = {}
        for o in offers(world):
            groups.setdefault((o.day, o.origin, o.destination, o.seat_class), []).append(o)
        fits = []
        for key, group in sorted(groups.items()):
            low = min(o.price for o in group)
            if len(group) >= 2 and any(o.left >= 1 and abs(o.price - low) < 0.005 for o in group):
                fits.append((key, low))
        choice = pick(rng, fits)
        if choice is None:
            return None
        (day, a, b, cls), low = choice
        instruction = say(rng, world, "What's the cheapest {cls} ticket from {a} to {b} on {when}?",
                          "How much is the lowest {cls} fare from {a} to {b} on {when}? I just need the price.",
                          "Look up the trains from {a} to {b} on {when} and tell me the cheapest price in {cls}.",
                          cls=cls.lower(), a=a, b=b, when=when_text(day))
        if _gives_away(instruction, low):
            return None
        ctx = {"origin": a, "destination": b, "day": day, "seat_class": cls, "price": low}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {money(low)}, the lowest {cls} fare from {a} to {b} on {day}.",
                                                         "The answer names no other amount (listing every fare is no answer)."))

    answer = AnswerSpec("amount", "price", golden="${price:,.2f}", sentence="The cheapest is {price:.2f}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Sort the results by price first, and say the amount in a sentence without a currency sign."""
        route = rail.search(c["origin"], c["destination"], c["day"])
        return route, (route, 'env.select("Sort by", "Lowest price")', 'env.click("Apply", role="button")')


FAMILIES = (BookTrain(), BookEarliestWithSeats(), RefundTrip(), ChangeTrip(), AddPassenger(), TrainForMeeting(), TrainDeparture(),
            CheapestFare())
