"""TripNest look-ups answered in text: when a booked flight leaves, and the day a hotel stay ends."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta

from contracts.family import PhoneFamily, Requirements, pick, say
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as tn
from .offers import when_text
from .projection import project
from .truth import held

__all__ = ["FlightDeparture", "HotelCheckout"]


def _trip(name: str) -> tuple[str, ...]:
    """Open a trip's page from the trips list."""
    return 'env.click("Trips", role="link")', f'env.click({name!r}, role="link")'


class FlightDeparture(AnswerFamily):
    name = "travel.flight_departure"
    apps = ("travel",)
    description = "Look up what time a booked flight leaves and answer with the time."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        cities = {c["id"]: c["name"] for c in project(world)["city"]}
        flights = [h for h in held(world) if h.flight]
        same = Counter((h.flight["origin_id"], h.flight["destination_id"]) for h in flights)
        item = pick(rng, [h for h in flights if same[(h.flight["origin_id"], h.flight["destination_id"])] == 1])
        if item is None:
            return None
        a, b = cities[item.flight["origin_id"]], cities[item.flight["destination_id"]]
        instruction = say(rng, world, "What time does my flight from {a} to {b} on {when} take off?",
                          "When does my {a} - {b} flight on {when} leave? Just the time, please.",
                          "Check my trips: what time is my flight from {a} to {b} ({when})?", a=a, b=b, when=when_text(item.starts.date()))
        at = item.starts
        ctx = {"ref": item.row["ref"], "trip": item.trip, "depart": f"{at:%H:%M}",
               "depart_text": f"{at.hour % 12 or 12}:{at:%M} {'AM' if at.hour < 12 else 'PM'}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {at:%H:%M}, when flight {item.number} ({item.row['ref']}) leaves.",
                                                         "The answer names no other time (the arrival is no answer)."))

    answer = AnswerSpec("time", "depart", golden="{depart_text}", sentence="It departs at {depart}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Read the time off the trip's timeline instead of the booking, on the 24-hour clock."""
        return tn.open_booking(c["ref"]), _trip(c["trip"])


class HotelCheckout(PhoneFamily, AnswerFamily):
    name = "travel.hotel_checkout"
    apps = ("travel",)
    description = "Look up the day an upcoming hotel stay ends (check-in plus its nights) and answer with the date."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        stays = [h for h in held(world) if h.hotel]
        same = Counter(h.city for h in stays)
        item = pick(rng, [h for h in stays if same[h.city] == 1])
        if item is None:
            return None
        out = date.fromisoformat(item.row["check_in"]) + timedelta(days=item.row["nights"])
        instruction = say(rng, world, "When do I check out of my hotel in {city}?", "What's the check-out day of my stay at {hotel} in {city}?",
                          "I'm booked at {hotel} in {city}. Which day do I have to check out?", city=item.city, hotel=item.hotel)
        ctx = {"ref": item.row["ref"], "trip": item.trip, "check_out": out.isoformat(), "check_out_text": f"{out:%B} {out.day}, {out.year}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {out.isoformat()}, the check-out day of booking {item.row['ref']}.",
                                                         "The answer names no other date (the check-in day is no answer)."))

    answer = AnswerSpec("date", "check_out", golden="{check_out_text}",
                        sentence="I check out on {check_out:%A}, {check_out.day} {check_out:%B} {check_out.year}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Open the booking from its trip's page instead of the trips list, and say the day with its weekday."""
        return tn.open_booking(c["ref"]), (*_trip(c["trip"]), f'env.click({"Booking " + c["ref"]!r}, role="link")')
