"""TripNest look-ups answered in text: when a booked flight leaves, and the day a hotel stay ends."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta

from contracts.family import PhoneFamily, Requirements, pick, say, solve_source, with_alternative
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, answer_verifier

from . import recipes as tn
from .offers import when_text
from .projection import project
from .truth import held

__all__ = ["FlightDeparture", "HotelCheckout"]


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
        return self._req(instruction, ctx, [
            Criterion(id="right_time", description=f"The answer gives {at:%H:%M}, when flight {item.number} ({item.row['ref']}) leaves."),
            Criterion(id="no_other_time", description="The answer names no other time (the arrival is no answer).", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return with_alternative(solve_source(tn.open_booking(c["ref"]), f'env.answer({c["depart_text"]!r})'), self.alternative(req))

    def alternative(self, req: Requirements) -> str:
        """Read the time off the trip's timeline instead of the booking, on the 24-hour clock."""
        c = req.answer_context
        said = f"It departs at {c['depart']}."
        return solve_source('env.click("Trips", role="link")', f'env.click({c["trip"]!r}, role="link")', f"env.answer({said!r})")

    verifier_template = answer_verifier("time", "depart")


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
        return self._req(instruction, ctx, [
            Criterion(id="right_date", description=f"The answer gives {out.isoformat()}, the check-out day of booking {item.row['ref']}."),
            Criterion(id="no_wrong_date", description="The answer names no other date (the check-in day is no answer).", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return with_alternative(solve_source(tn.open_booking(c["ref"]), f'env.answer({c["check_out_text"]!r})'), self.alternative(req))

    def alternative(self, req: Requirements) -> str:
        """Open the booking from its trip's page instead of the trips list, and say the day with its weekday."""
        c = req.answer_context
        out = date.fromisoformat(c["check_out"])
        said = f"I check out on {out:%A}, {out.day} {out:%B} {out.year}."
        return solve_source('env.click("Trips", role="link")', f'env.click({c["trip"]!r}, role="link")',
                            f'env.click({"Booking " + c["ref"]!r}, role="link")', f"env.answer({said!r})")

    verifier_template = answer_verifier("date", "check_out")
