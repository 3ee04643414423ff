"""TripNest families: book a named flight, book the cheapest nonstop for two, book a hotel into a trip
for the nights after a flight lands, move a flight to another date, change a stay's nights, cancel a
booking under its refund rules; look-ups answered in text (`lookups`: when a booked flight leaves, the day a hotel
stay ends); and three cross-app families (a calendar meeting's date -> a flight, or
-> nights at a city's best-rated hotel; a booked flight's times -> a calendar event).

Flight tasks run at desktop size, hotel and trip tasks on the phone: the real services are used both ways.
Ground truth comes from `truth` (the world's projection read with the app's own rules).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from contracts.family import Family, PhoneFamily, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar

from . import recipes as tn
from .lookups import FlightDeparture, HotelCheckout
from .manifest import MANIFEST
from .offers import when_text
from .projection import project
from .rules import departure, fare_price, flight_change, stay_total
from .truth import days_ahead, held, home, offers_on

__all__ = ["FAMILIES"]


def _others(world: World) -> list[str]:
    return [c["name"] for c in project(world)["city"][1:]]


_BOOK_VERIFIER = '''
def verify(final):
    new = _tn_new(final)
    right = _booked(final)
    return {
        "booked": bool(right),
        "paid_with": any(b["payment_method_id"] == {method_id} for b in right),
        "only_once": len(new) == 1,
    }
'''


def _book_verifier(booked: str, method_id: int) -> str:
    return tn.new_bookings_source("_tn_new") + booked + _BOOK_VERIFIER.replace("{method_id}", repr(method_id))


_HOW = {"card": "my card", "bank": "my checking account", "account": "the company travel account"}


class BookFlight(Family):
    name = "travel.book_flight"
    apps = ("travel",)
    description = "Book and pay a named flight, date and cabin for yourself."
    difficulty = "medium"
    capabilities = ("search", "date_time", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        a = home(world)
        b = pick(rng, _others(world))
        day = pick(rng, days_ahead(world, 2, 25))
        outbound = rng.random() < 0.7
        origin, dest = (a, b) if outbound else (b, a)
        offer = pick(rng, offers_on(world, origin, dest, day))
        if offer is None:
            return None
        cabin = rng.choice(sorted(offer.fares))
        kind = rng.choice(["card", "bank", "account"])
        instruction = say(rng, world, "Book me on flight {number} from {a} to {b} on {when}, {cabin}, and pay with {how}.",
                          "I need a seat on the {depart} {number} ({a} to {b}) on {when} in {cabin}. Pay with {how}.",
                          "Get me {cabin} on {number} from {a} to {b}, {when}; use {how}.",
                          number=offer.flight["number"], a=origin, b=dest, when=when_text(day), cabin=cabin.lower(),
                          depart=offer.flight["depart"], how=_HOW[kind])
        ctx = {"number": offer.flight["number"], "day": day, "cabin": cabin, "origin": tn.city_label(world, origin),
               "destination": tn.city_label(world, dest), "travellers": 1, "method": tn.method_label(world, kind),
               "method_id": tn.method_id(world, kind)}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A confirmed booking of {offer.flight['number']} on {day} in {cabin} for one traveller."),
            Criterion(id="paid_with", description=f"It was paid with {ctx['method']}."),
            Criterion(id="only_once", description="Exactly one new booking.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(tn.search_flights(c["origin"], c["destination"], c["day"], c["travellers"], c["cabin"]),
                            tn.select_fare(c["number"], c["cabin"]), tn.book_and_pay(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _book_verifier(tn.booked_flight_source("_booked", c["number"], c["day"], c["cabin"], c["travellers"]), c["method_id"])


class CheapestNonstop(Family):
    name = "travel.cheapest_nonstop"
    apps = ("travel",)
    description = "Book the cheapest nonstop economy flight of a route and date for two travellers (a one-stop may be cheaper)."
    difficulty = "hard"
    capabilities = ("search", "filter_sort", "disambiguate", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        a, candidates = home(world), []
        for b in _others(world):
            for day in days_ahead(world, 2, 21):
                for origin, dest in ((a, b), (b, a)):
                    found = offers_on(world, origin, dest, day)
                    nonstop = sorted((o.fares["Economy"][1], o.flight["number"]) for o in found if not o.flight["stops"])
                    cheapest = min((o.fares["Economy"][1] for o in found), default=0)
                    # a unique cheapest nonstop, and a one-stop cheaper still (so sorting by price alone is not enough)
                    if len(nonstop) >= 2 and nonstop[0][0] < nonstop[1][0] and cheapest < nonstop[0][0]:
                        candidates.append((origin, dest, day, nonstop[0][1]))
        choice = pick(rng, candidates[:60])
        if choice is None:
            return None
        origin, dest, day, number = choice
        kind = rng.choice(["card", "account"])
        instruction = say(rng, world, "Book the cheapest nonstop economy flight from {a} to {b} on {when} for two travellers; pay with {how}.",
                          "Two of us fly {a} to {b} on {when}: book whichever nonstop flight is cheapest in economy, both seats on one booking, and pay with {how}.",
                          a=origin, b=dest, when=when_text(day), how=_HOW[kind])
        ctx = {"number": number, "day": day, "cabin": "Economy", "origin": tn.city_label(world, origin), "destination": tn.city_label(world, dest),
               "travellers": 2, "method": tn.method_label(world, kind), "method_id": tn.method_id(world, kind)}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A confirmed booking of {number} (the cheapest nonstop) on {day} in Economy for two travellers."),
            Criterion(id="paid_with", description=f"It was paid with {ctx['method']}."),
            Criterion(id="only_once", description="Exactly one new booking.", weight=0.5),
        ])

    golden = BookFlight.golden

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _book_verifier(tn.booked_flight_source("_booked", c["number"], c["day"], c["cabin"], c["travellers"]), c["method_id"])


class StayAfterFlight(PhoneFamily):
    name = "travel.stay_after_flight"
    apps = ("travel",)
    description = "Book a named room at a hotel for some nights from the day a trip's flight lands, into that trip."
    difficulty = "hard"
    capabilities = ("navigate", "date_time", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        trips = {}
        for h in held(world):
            trips.setdefault(h.row["trip_id"], []).append(h)
        lone = [items[0] for items in trips.values() if len(items) == 1 and items[0].number and items[0].city != home(world)]
        flight = pick(rng, lone)
        if flight is None:
            return None
        city_id = next(c["id"] for c in rows["city"] if c["name"] == flight.city)
        hotel = pick(rng, [h for h in rows["hotel"] if h["city_id"] == city_id])
        room = pick(rng, [r for r in rows["room"] if r["hotel_id"] == hotel["id"]])
        nights = rng.choice([2, 3, 4])
        check_in = flight.ends.date().isoformat()
        instruction = say(rng, world, "For my {trip}: book the {room} at {hotel} for {n} nights from the day my flight lands, add it to that trip and put it on the company travel account.",
                          "I land in {city} on my {trip} flight - book me {n} nights at {hotel} ({room}) starting that day, in the same trip, billed to the company travel account.",
                          trip=flight.trip.replace("Trip", "trip", 1), room=room["name"].lower(), hotel=hotel["name"], n=nights, city=flight.city)
        ctx = {"city": flight.city, "hotel": hotel["name"], "room": room["name"], "check_in": check_in, "nights": nights,
               "trip": flight.trip, "trip_id": flight.row["trip_id"], "method": tn.method_label(world, "account"),
               "method_id": tn.method_id(world, "account"), "total": stay_total(room["price"], check_in, nights)}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A confirmed booking of the {room['name']} at {hotel['name']} from {check_in} for {nights} nights."),
            Criterion(id="in_trip", description=f"It is in the trip '{flight.trip}'."),
            Criterion(id="paid_with", description=f"It was paid with {ctx['method']}.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(tn.search_stays(c["city"], c["check_in"], c["nights"]), tn.reserve(c["hotel"], c["room"]),
                            tn.book_and_pay(c["method"], c["trip"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return tn.new_bookings_source("_tn_new") + tn.booked_stay_source("_booked", c["hotel"], c["room"], c["check_in"], c["nights"]) + f'''

def verify(final):
    right = _booked(final)
    return {{"booked": len(right) == 1 and len(_tn_new(final)) == 1,
            "in_trip": any(b["trip_id"] == {c["trip_id"]!r} for b in right),
            "paid_with": any(b["payment_method_id"] == {c["method_id"]!r} for b in right)}}
'''


class ChangeFlightDate(Family):
    name = "travel.change_flight_date"
    apps = ("travel",)
    description = "Move an upcoming flight booking to another date (same flight; the fare difference and change fee apply)."
    difficulty = "medium"
    capabilities = ("navigate", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        item = pick(rng, [h for h in held(world) if h.number])
        if item is None:
            return None
        old = date.fromisoformat(item.row["travel_date"])
        choices = [old + timedelta(days=d) for d in (-2, -1, 1, 2, 3)]
        choices = [d for d in choices if departure(d, item.flight["depart"]) > world.scenario.clock + timedelta(hours=2)
                   and d.isoformat() in days_ahead(world, 0, 60)]
        day = pick(rng, choices)
        if day is None:
            return None
        new_total = round(fare_price(item.fare["price"], item.fare["id"], day) * item.row["travellers"], 2)
        _, fee, due = flight_change(item.cabin, item.row["total"], new_total)
        instruction = say(rng, world, "Move my {number} flight ({a}) on {when} to {new} instead - same flight.",
                          "Change my {a} flight from {when} to {new}; keep flight {number}.",
                          number=item.number, a=item.title, when=when_text(old), new=when_text(day))
        ctx = {"booking_id": item.row["id"], "ref": item.row["ref"], "day": day.isoformat(), "total": new_total,
               "fee": round(item.row["change_fee"] + fee, 2), "due_now": due}
        return self._req(instruction, ctx, [
            Criterion(id="moved", description=f"Booking {item.row['ref']} is confirmed on {day.isoformat()}, same flight and cabin."),
            Criterion(id="priced", description=f"Its fare is now {money(new_total)} and the change fee of {money(fee)} was charged."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(tn.open_booking(c["ref"]), tn.change_flight_date(c["day"]))

    verifier_template = '''
def verify(final):
    b = next((x for x in final.state["travel"]["trip_booking"] if x["id"] == {{ booking_id }}), None)
    before = next((x for x in final.initial_state["travel"]["trip_booking"] if x["id"] == {{ booking_id }}), None)
    ok = bool(b) and b["status"] == "confirmed" and b["travel_date"] == {{ day|py }} and b["fare_id"] == before["fare_id"]
    return {"moved": ok, "priced": ok and abs(b["total"] - {{ total }}) < 0.005 and abs(b["change_fee"] - {{ fee }}) < 0.005}
'''


class ChangeStayNights(PhoneFamily):
    name = "travel.change_stay_nights"
    apps = ("travel",)
    description = "Shorten or extend an upcoming hotel stay, same check-in day."
    difficulty = "medium"
    capabilities = ("navigate", "form_fill", "compute", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        item = pick(rng, [h for h in held(world) if h.hotel])
        if item is None:
            return None
        nights = rng.choice([n for n in (1, 2, 3, 4, 5) if n != item.row["nights"]])
        check_out = date.fromisoformat(item.row["check_in"]) + timedelta(days=nights)
        total = stay_total(item.room["price"], item.row["check_in"], nights)
        instruction = say(rng, world, "Change my stay at {hotel} so I check out on {out} instead; same check-in day.",
                          "I now need {n} night{s} at {hotel} ({city}), still arriving on {when}. Please change the booking.",
                          hotel=item.hotel, out=when_text(check_out), n=nights, s="s" if nights > 1 else "", city=item.city,
                          when=when_text(item.row["check_in"]))
        ctx = {"booking_id": item.row["id"], "ref": item.row["ref"], "check_in": item.row["check_in"], "nights": nights, "total": total}
        return self._req(instruction, ctx, [
            Criterion(id="nights", description=f"Booking {item.row['ref']} is confirmed for {nights} nights from {item.row['check_in']}."),
            Criterion(id="priced", description=f"Its total is now {money(total)}.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(tn.open_booking(c["ref"]), tn.change_stay(c["check_in"], c["nights"]))

    verifier_template = '''
def verify(final):
    b = next((x for x in final.state["travel"]["trip_booking"] if x["id"] == {{ booking_id }}), None)
    ok = bool(b) and b["status"] == "confirmed" and b["check_in"] == {{ check_in|py }} and b["nights"] == {{ nights }}
    return {"nights": ok, "priced": ok and abs(b["total"] - {{ total }}) < 0.005}
'''


class CancelBooking(Family):
    name = "travel.cancel_booking"
    apps = ("travel",)
    description = "Cancel an upcoming flight or hotel booking (the refund follows its fare's or rate's rules)."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        item = pick(rng, held(world))
        if item is None:
            return None
        if item.number:
            instruction = say(rng, world, "Cancel my {a} flight on {when} ({number}); I am not going.",
                              "Please cancel flight {number} on {when}, {a}.", a=item.title, when=when_text(item.starts.date()), number=item.number)
        else:
            instruction = say(rng, world, "Cancel my stay at {hotel} from {when}.", "I no longer need the room at {hotel} in {city} on {when}: cancel it.",
                              hotel=item.hotel, city=item.city, when=when_text(item.starts.date()))
        ctx = {"booking_id": item.row["id"], "ref": item.row["ref"], "refund": item.refund}
        return self._req(instruction, ctx, [
            Criterion(id="cancelled", description=f"Booking {item.row['ref']} is cancelled."),
            Criterion(id="refund", description=f"It paid back {money(item.refund)} (its refund rules at this moment)."),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(tn.open_booking(req.answer_context["ref"]), tn.cancel_booking())

    verifier_template = '''
def verify(final):
    b = next((x for x in final.state["travel"]["trip_booking"] if x["id"] == {{ booking_id }}), None)
    ok = bool(b) and b["status"] == "cancelled"
    return {"cancelled": ok, "refund": ok and abs(b["refund_amount"] - {{ refund }}) < 0.005}
'''


class FlightForMeeting(Family):
    name = "cross.flight_for_meeting"
    apps = ("calendar", "travel")
    description = "Book the first nonstop flight to a city on the day of a calendar meeting (the date is only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "search", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        days = set(days_ahead(world, 1, 30))
        meetings = [m for m in world.meetings if m.start.date().isoformat() in days and sum(x.title == m.title for x in world.meetings) == 1
                    and not m.title.startswith(("Hotel ", "Train "))]
        meeting = pick(rng, sorted(meetings, key=lambda m: (m.start, m.id)))
        dest = pick(rng, _others(world))
        if meeting is None or dest is None:
            return None
        day = meeting.start.date().isoformat()
        a = home(world)
        first = next((o for o in offers_on(world, a, dest, day) if not o.flight["stops"]), None)
        if first is None:
            return None
        instruction = say(rng, world, "On the day of my \"{title}\" meeting I have to fly to {b}: book me the first nonstop economy flight from {a} that day (the date is in my calendar). Pay by card.",
                          "Check my calendar for when \"{title}\" is, and book the earliest nonstop {a} - {b} flight that day, economy, on my card.",
                          title=meeting.title, a=a, b=dest)
        ctx = {"number": first.flight["number"], "day": day, "cabin": "Economy", "origin": tn.city_label(world, a),
               "destination": tn.city_label(world, dest), "travellers": 1, "method": tn.method_label(world, "card"),
               "method_id": tn.method_id(world, "card")}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A confirmed booking of {first.flight['number']} ({first.flight['depart']}) on {day} in Economy for one."),
            Criterion(id="paid_with", description=f"It was paid with {ctx['method']}."),
            Criterion(id="only_once", description="Exactly one new booking.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), tn.open_app(), tn.search_flights(c["origin"], c["destination"], c["day"], 1, c["cabin"]),
                            tn.select_fare(c["number"], c["cabin"]), tn.book_and_pay(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _book_verifier(tn.booked_flight_source("_booked", c["number"], c["day"], c["cabin"], c["travellers"]), c["method_id"])


class FlightToCalendar(Family):
    name = "cross.flight_to_calendar"
    apps = ("travel", "calendar")
    description = "Put a booked flight in the calendar from its departure to its arrival (the times are only in the travel app)."
    difficulty = "medium"
    capabilities = ("cross_app", "navigate", "date_time", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        taken = {m.title.lower() for m in world.meetings}
        item = pick(rng, [h for h in held(world) if h.number and h.ends.date() == h.starts.date()])
        if item is None:
            return None
        title = f"Flight {item.number} to {item.city}"
        if title.lower() in taken:
            return None
        instruction = say(rng, world, "Put my flight {number} to {city} on {when} in my calendar as \"{title}\", from take-off to landing (the times are in {app}).",
                          "Add a calendar event \"{title}\" for my {number} flight to {city} on {when}: from when it departs to when it lands.",
                          number=item.number, city=item.city, when=when_text(item.starts.date()), title=title, app=MANIFEST.title)
        ctx = {"ref": item.row["ref"], "title": title, "date": item.starts.date().isoformat(), "start": item.starts.strftime("%H:%M"),
               "end": item.ends.strftime("%H:%M"), "start_at": item.starts.isoformat(), "end_at": item.ends.isoformat()}
        return self._req(instruction, ctx, [
            Criterion(id="event", description=f"A new calendar event '{title}' on {ctx['date']} from {ctx['start']} to {ctx['end']}."),
            Criterion(id="only_one", description="Only one such event was created.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(tn.open_app(), tn.open_booking(c["ref"]), calendar.open_app(),
                            calendar.create_event(c["title"], c["date"], c["start"], c["end"], ""))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (calendar.new_events_source("_timed", c["title"], c["start_at"], c["end_at"]) + calendar.new_events_source("_titled", c["title"])
                + '''

def verify(final):
    return {"event": len(_timed(final)) >= 1, "only_one": len(_titled(final)) == 1 and len(_timed(final)) == 1}
''')


class HotelForMeeting(Family):
    name = "cross.hotel_for_meeting"
    apps = ("calendar", "travel")
    description = "Book nights at a city's best-rated hotel, cheapest free-cancellation room, from the day of a calendar meeting held there."
    difficulty = "hard"
    capabilities = ("cross_app", "search", "filter_sort", "date_time", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        days = set(days_ahead(world, 1, 30))
        meetings = [m for m in world.meetings if m.start.date().isoformat() in days and sum(x.title == m.title for x in world.meetings) == 1
                    and not m.title.startswith(("Hotel ", "Train "))]
        meeting = pick(rng, sorted(meetings, key=lambda m: (m.start, m.id)))
        if meeting is None:
            return None
        cities = []
        for c in rows["city"][1:]:
            ranked = sorted((h for h in rows["hotel"] if h["city_id"] == c["id"]), key=lambda h: -h["rating"])
            if len(ranked) >= 2 and ranked[0]["rating"] > ranked[1]["rating"]:
                cities.append((c["name"], ranked[0]))
        choice = pick(rng, cities)
        if choice is None:
            return None
        city, hotel = choice
        nights = rng.choice([1, 2, 3])
        check_in = meeting.start.date().isoformat()
        rooms = sorted((stay_total(r["price"], check_in, nights), r["name"]) for r in rows["room"] if r["hotel_id"] == hotel["id"] and r["refundable"])
        room = rooms[0][1]
        instruction = say(rng, world, "My \"{title}\" meeting is in {city} this time: book me {n} night{s} from that day (the date is in my calendar) at the best-rated hotel in {city}, in its cheapest room with free cancellation. Pay by card.",
                          "Find the day of \"{title}\" in my calendar, then get me a hotel in {city} from that day for {n} night{s}: the one with the highest guest rating, cheapest free-cancellation room, on my card.",
                          title=meeting.title, city=city, n=nights, s="s" if nights > 1 else "")
        ctx = {"city": city, "hotel": hotel["name"], "room": room, "check_in": check_in, "nights": nights,
               "method": tn.method_label(world, "card"), "method_id": tn.method_id(world, "card")}
        return self._req(instruction, ctx, [
            Criterion(id="booked", description=f"A confirmed booking of the {room} at {hotel['name']} from {check_in} for {nights} night(s)."),
            Criterion(id="paid_with", description=f"It was paid with {ctx['method']}."),
            Criterion(id="only_once", description="Exactly one new booking.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), tn.open_app(), tn.search_stays(c["city"], c["check_in"], c["nights"]),
                            tn.reserve(c["hotel"], c["room"]), tn.book_and_pay(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _book_verifier(tn.booked_stay_source("_booked", c["hotel"], c["room"], c["check_in"], c["nights"]), c["method_id"])


FAMILIES = (BookFlight(), CheapestNonstop(), StayAfterFlight(), ChangeFlightDate(), ChangeStayNights(), CancelBooking(),
            FlightForMeeting(), FlightToCalendar(), HotelForMeeting(), FlightDeparture(), HotelCheckout())
