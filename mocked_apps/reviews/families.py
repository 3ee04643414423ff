"""Local Reviews families: reserve a table, reserve at the best-rated restaurant open at a time, save the
best-rated place of a kind within a budget to a list, post a review; a look-up answered in text (until when a
place is open); and one cross-app family (a table for everyone at a calendar meeting, at its start).

Single-app tasks run on the phone, the app's primary form factor; ground truth is the world's projection read
with the app's own reservation rules.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from contracts.family import Family, PhoneFamily, Requirements, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as rv
from .projection import project
from .rules import reservation_error, slots

__all__ = ["FAMILIES"]


def _bookable(b: dict, day: str, time: str, party: int, now: datetime) -> bool:
    return b["reservable"] and reservation_error(b["opens"], b["closes"], b["closed_weekday"], b["max_party"], day, time, party, now) is None


def _said(day: str, time: str) -> str:
    d = datetime.fromisoformat(f"{day}T{time}")
    return f"{d:%A} {d:%B} {d.day} at {time}"


def _verify_reservation(c: dict) -> str:
    return rv.new_reservations_source("_rv_new") + f'''

def verify(final):
    new = _rv_new(final)
    right = [r for r in new if r["business_id"] == {c["business_id"]!r} and r["day"] == {c["day"]!r} and r["time"] == {c["time"]!r}]
    return {{
        "reserved": bool(right),
        "party": any(r["party"] == {c["party"]!r} for r in right),
        "only_once": len(new) == 1,
    }}
'''


def _criteria(name: str, day: str, time: str, party: int) -> list[Criterion]:
    return [Criterion(id="reserved", description=f"A table at {name} on {day} at {time}."),
            Criterion(id="party", description=f"For {party}."),
            Criterion(id="only_once", description="Exactly one new reservation.", weight=0.5)]


class ReserveTable(PhoneFamily):
    name = "reviews.reserve_table"
    apps = ("reviews",)
    description = "Reserve a table at a named place for a party on a day and time."
    difficulty = "easy"
    capabilities = ("search", "navigate", "date_time", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        now = world.scenario.clock
        b = rng.choice([b for b in project(world)["business"] if b["reservable"]])
        day = (now.date() + timedelta(days=rng.randint(1, 12))).isoformat()
        time, party = rng.choice(slots(b["opens"], b["closes"])), rng.randint(2, min(8, b["max_party"]))
        if not _bookable(b, day, time, party, now):
            return None
        instruction = say(rng, world, "Reserve a table for {n} at {b} on {when}.", "Book {b} for {n} people, {when}.",
                          n=party, b=b["name"], when=_said(day, time))
        ctx = {"business": b["name"], "business_id": b["id"], "day": day, "time": time, "party": party}
        return self._req(instruction, ctx, _criteria(b["name"], day, time, party))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rv.open_business(c["business"]), rv.reserve(c["day"], c["time"], c["party"]))

    def verifier(self, req: Requirements) -> str:
        return _verify_reservation(req.answer_context)


class ReserveBestOpen(PhoneFamily):
    name = "reviews.reserve_best_open"
    apps = ("reviews",)
    description = "Reserve at the best-rated restaurant that takes a party at a given day and time (hours, closed days, party limits)."
    difficulty = "hard"
    capabilities = ("filter_sort", "compute", "disambiguate", "date_time", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        now = world.scenario.clock
        day = (now.date() + timedelta(days=rng.randint(1, 10))).isoformat()
        time, party = rng.choice(["12:00", "12:30", "13:00", "18:30", "19:00", "19:30", "20:00"]), rng.randint(2, 10)
        fits = sorted((b for b in project(world)["business"] if b["category"] == "Restaurants" and _bookable(b, day, time, party, now)),
                      key=lambda b: (-b["rating"], -b["review_count"], b["id"]))
        if not fits or (len(fits) > 1 and (fits[0]["rating"], fits[0]["review_count"]) == (fits[1]["rating"], fits[1]["review_count"])):
            return None
        b = fits[0]
        instruction = say(rng, world, "Book a table for {n} on {when} at the best-rated restaurant that can take us then.",
                          "We're {n} for a meal on {when}: reserve at the top-rated restaurant that is open and takes a group our size.",
                          n=party, when=_said(day, time))
        ctx = {"business": b["name"], "business_id": b["id"], "day": day, "time": time, "party": party}
        return self._req(instruction, ctx, _criteria(f"{b['name']} (rated {b['rating']})", day, time, party))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rv.open_category("Restaurants"), rv.open_business(c["business"]),
                            rv.reserve(c["day"], c["time"], c["party"]))

    def verifier(self, req: Requirements) -> str:
        return _verify_reservation(req.answer_context)


class BestToList(PhoneFamily):
    name = "reviews.best_to_list"
    apps = ("reviews",)
    description = "Save the best-rated place of a category within a price level to a bookmark list (an existing one or a new one)."
    difficulty = "medium"
    capabilities = ("filter_sort", "disambiguate", "navigate", "form_fill", "select_option")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        category = rng.choice(sorted({b["category"] for b in rows["business"]}))
        level = rng.randint(1, 3)
        fits = sorted((b for b in rows["business"] if b["category"] == category and b["price_level"] <= level),
                      key=lambda b: (-b["rating"], -b["review_count"], b["id"]))
        if not fits or (len(fits) > 1 and (fits[0]["rating"], fits[0]["review_count"]) == (fits[1]["rating"], fits[1]["review_count"])):
            return None
        b = fits[0]
        existing = [l["name"] for l in rows["bookmarklist"]]
        saved = {m["business_id"] for m in rows["bookmark"]}
        if b["id"] in saved:
            return None
        name = rng.choice(existing + ["Team lunches", "Weekend ideas", "Client dinners"])
        instruction = say(rng, world, "Find the best-rated place in {cat} at {price} or less and save it to my \"{list}\" list.",
                          "Save the top-rated {cat} place costing no more than {price} to the list \"{list}\".",
                          cat=category, price="$" * level, list=name)
        ctx = {"business": b["name"], "business_id": b["id"], "list": name, "new_list": name not in existing, "category": category, "level": level}
        return self._req(instruction, ctx, [Criterion(id="saved", description=f"{b['name']} is in the list \"{name}\"."),
                                            Criterion(id="only_it", description="Nothing else was saved to it.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rv.open_business(c["business"]), rv.save_to_list(c["list"], c["new_list"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    rv, before = final.state["reviews"], final.initial_state["reviews"]
    lists = {{l["id"] for l in rv["bookmarklist"] if l["name"].strip().lower() == {c["list"].lower()!r}}}
    old = {{m["id"] for m in before["bookmark"]}}
    added = [m for m in rv["bookmark"] if m["id"] not in old and m["list_id"] in lists]
    return {{
        "saved": any(m["business_id"] == {c["business_id"]!r} for m in rv["bookmark"] if m["list_id"] in lists),
        "only_it": [m["business_id"] for m in added] == [{c["business_id"]!r}],
    }}
'''


class WriteReview(PhoneFamily):
    name = "reviews.write_review"
    apps = ("reviews",)
    description = "Post a review of a place with given stars, words and number of photos."
    difficulty = "easy"
    capabilities = ("search", "navigate", "form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        b = rng.choice(project(world)["business"])
        stars, photos = rng.randint(2, 5), rng.randint(0, 3)
        text = rng.choice(["Great service and a relaxed atmosphere.", "Friendly staff, fair prices, would come again.",
                           "Good but the wait was long at lunchtime.", "Perfect spot for a team outing."])
        instruction = say(rng, world, "Post a {s}-star review of {b}: \"{t}\" with {p} photo{ps}.",
                          "Review {b}: {s} stars, the text \"{t}\", and attach {p} photo{ps}.", s=stars, b=b["name"], t=text, p=photos,
                          ps="" if photos == 1 else "s")
        ctx = {"business": b["name"], "business_id": b["id"], "stars": stars, "text": text, "photos": photos}
        return self._req(instruction, ctx, [Criterion(id="posted", description=f"A new review of {b['name']} with that text."),
                                            Criterion(id="stars", description=f"{stars} stars."),
                                            Criterion(id="photos", description=f"{photos} photos.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(rv.open_business(c["business"]), rv.write_review(c["stars"], c["text"], c["photos"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    rv, before = final.state["reviews"], final.initial_state["reviews"]
    old = {{r["id"] for r in before["review"]}}
    mine = [r for r in rv["review"] if r["id"] not in old and r["mine"] and r["business_id"] == {c["business_id"]!r}
            and " ".join(r["text"].split()).lower() == {c["text"].lower()!r}]
    return {{
        "posted": len(mine) == 1,
        "stars": any(r["stars"] == {c["stars"]!r} for r in mine),
        "photos": any(r["photos"] == {c["photos"]!r} for r in mine),
    }}
'''


class TableForMeeting(Family):
    name = "cross.table_for_meeting"
    apps = ("calendar", "reviews")
    description = "Reserve a table for everyone at a calendar meeting (the headcount, day and time are only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "compute", "navigate", "date_time", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        now = world.scenario.clock
        meetings = [m for m in world.meetings if m.start > now + timedelta(hours=1) and len(m.attendees) >= 1
                    and sum(x.title == m.title for x in world.meetings) == 1]
        meeting = pick(rng, sorted(meetings, key=lambda m: m.start))
        if meeting is None:
            return None
        day, time, party = meeting.start.date().isoformat(), f"{meeting.start:%H:%M}", len({meeting.organizer, *meeting.attendees})
        b = pick(rng, [b for b in project(world)["business"] if _bookable(b, day, time, party, now)])
        if b is None:
            return None
        instruction = say(rng, world, "Reserve a table at {b} for the \"{t}\" meeting: everyone in it (see the calendar), on its day at its start time.",
                          "Book {b} for \"{t}\" - one seat per person in the meeting (you included), same day and time as the meeting in the calendar.",
                          b=b["name"], t=meeting.title)
        ctx = {"business": b["name"], "business_id": b["id"], "day": day, "time": time, "party": party, "title": meeting.title}
        return self._req(instruction, ctx, _criteria(b["name"], day, time, party))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), rv.open_app(), rv.open_business(c["business"]), rv.reserve(c["day"], c["time"], c["party"]))

    def verifier(self, req: Requirements) -> str:
        return _verify_reservation(req.answer_context)


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _clock_text(hhmm: str) -> str:
    """'10:30 PM': a time as a person writes it, one reading only."""
    h, m = (int(x) for x in hhmm.split(":"))
    return f"{h % 12 or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


class ClosingTime(PhoneFamily, AnswerFamily):
    name = "reviews.closing_time"
    apps = ("reviews",)
    description = "Look up until when a place is open on a weekday it opens, and answer with the closing time."
    difficulty = "easy"
    capabilities = ("search", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        b = rng.choice(project(world)["business"])
        weekday = rng.choice([d for i, d in enumerate(_WEEKDAYS) if i != b["closed_weekday"]])
        instruction = say(rng, world, "Until what time is {b} open on {day}?", "I'd like to go to {b} on {day} evening. When does it close?",
                          "What time does {b} close on {day}s? Check the app.", b=b["name"], day=weekday)
        ctx = {"business": b["name"], "category": b["category"], "weekday": weekday, "closes": b["closes"],
               "closes_text": _clock_text(b["closes"])}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {b['closes']}, when {b['name']} closes.",
                                                         "The answer names no other time (the opening hour too is no answer)."))

    answer = AnswerSpec("time", "closes", golden="{closes_text}", sentence="It closes at {closes}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse to the place through its category instead of searching, and say the time on the 24-hour clock."""
        return rv.open_business(c["business"]), (rv.open_category(c["category"]), f'env.click({c["business"]!r}, role="link")')


FAMILIES = (ReserveTable(), ReserveBestOpen(), BestToList(), WriteReview(), TableForMeeting(), ClosingTime())
