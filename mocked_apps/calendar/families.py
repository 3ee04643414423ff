"""Calendar families: answer an invitation, book a meeting with a colleague; and look-ups answered in text: when an
event starts, how many people its guest list has, who organised it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

from contracts.family import Family, Requirements, first_name, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from .projection import project
from .recipes import create_event, free_slot
from .routes import AGENDA_DAYS


class RsvpYes(Family):
    name = "calendar.rsvp_yes"
    apps = ("calendar",)
    description = "Accept a pending invitation to a meeting."
    difficulty = "easy"
    capabilities = ('navigate', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        titles = Counter(m.title for m in world.meetings)
        now = world.scenario.clock
        pending = [m for m in world.meetings if world.user in m.attendees and m.organizer != world.user
                   and m.start > now and titles[m.title] == 1]
        m = pick(rng, pending)
        if m is None:
            return None
        who = world.person(m.organizer).name
        instruction = say(rng, world, "Accept {who}'s invitation to \"{title}\".", "Tell {first} I'll be at \"{title}\" - RSVP yes.",
                          "RSVP yes to the \"{title}\" meeting on {day}.", who=who, first=first_name(who), title=m.title,
                          day=m.start.strftime("%A %B %d").replace(" 0", " "))
        ctx = {"title": m.title, "me": world.persona.email}
        return self._req(instruction, ctx, [
            Criterion(id="accepted", description=f"The user's answer to '{m.title}' is yes."),
            Criterion(id="nothing_else", description="No other answer of the user changed.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        title = req.answer_context["title"]
        return solve_source(f'env.fill(env.word("Search") + " events", {title!r})', 'env.press("Enter")', f'env.click({title!r}, role="link")',
                            'env.click("Yes", role="button")')

    verifier_template = '''
def verify(final):
    cal, before = final.state["calendar"], final.initial_state["calendar"]
    ids = [e["id"] for e in before["event"] if e["title"] == {{ title|py }}]
    mine = lambda s: {(i["event_id"]): i["rsvp"] for i in s["invitee"] if i["email"].lower() == {{ me|py }}}
    now, then = mine(cal), mine(before)
    accepted = bool(ids) and now.get(ids[0]) == "yes"
    others = all(now.get(e) == r for e, r in then.items() if e not in ids)
    return {"accepted": accepted, "nothing_else": others}
'''


class BookMeeting(Family):
    name = "calendar.book_meeting"
    apps = ("calendar",)
    description = "Create an event at a given time with a colleague as guest."
    difficulty = "medium"
    capabilities = ('form_fill', 'date_time', 'select_option')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        colleagues = [p for p in world.people if p.org == world.person(world.user).org and p.id != world.user]
        who = pick(rng, colleagues)
        if who is None:
            return None
        minutes = rng.choice([30, 45, 60])
        start = free_slot(world, rng, minutes)
        title = rng.choice(["Budget check-in", "Project sync", "Design review", "Planning session", "Catch-up"])
        when = start.strftime("%A %B %d at %H:%M").replace(" 0", " ")
        instruction = say(rng, world, "Put a {minutes}-minute \"{title}\" with {who} on my calendar for {when}.",
                          "Book \"{title}\" with {first} on {when}, {minutes} minutes.",
                          "Schedule a {minutes} min meeting called \"{title}\" on {when} and invite {who} ({email}).",
                          minutes=minutes, title=title, who=who.name, first=first_name(who.name), when=when, email=who.email)
        ctx = {"title": title, "start": start.isoformat(), "end": (start + timedelta(minutes=minutes)).isoformat(),
               "date": start.date().isoformat(), "start_time": start.strftime("%H:%M"),
               "end_time": (start + timedelta(minutes=minutes)).strftime("%H:%M"), "guest": who.email}
        return self._req(instruction, ctx, [
            Criterion(id="event_created", description=f"An event titled '{title}' exists that did not before."),
            Criterion(id="right_time", description=f"It starts at {start:%Y-%m-%d %H:%M} and lasts {minutes} minutes."),
            Criterion(id="guest_invited", description=f"{who.email} is invited to it."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(create_event(c["title"], c["date"], c["start_time"], c["end_time"], c["guest"]))

    verifier_template = '''
from datetime import datetime


def _t(value):
    return datetime.fromisoformat(str(value).replace(" ", "T"))


def verify(final):
    cal, before = final.state["calendar"], final.initial_state["calendar"]
    old = {e["id"] for e in before["event"]}
    new = [e for e in cal["event"] if e["id"] not in old and e["title"].strip().lower() == {{ title|py }}.lower()]
    timed = [e for e in new if _t(e["start"]) == _t({{ start|py }}) and _t(e["end"]) == _t({{ end|py }})]
    guests = {(i["event_id"], i["email"].strip().lower()) for i in cal["invitee"]}
    return {
        "event_created": bool(new),
        "right_time": bool(timed),
        "guest_invited": any((e["id"], {{ guest|py }}) in guests for e in timed or new),
    }
'''


def _day_text(when: datetime) -> str:
    """'Thursday, March 5': how instructions name an event's day."""
    return f"{when:%A, %B} {when.day}"


def _clock_text(when: datetime) -> str:
    """'9:30 AM': a time as a person writes it, one reading only."""
    return f"{when.hour % 12 or 12}:{when:%M} {'AM' if when.hour < 12 else 'PM'}"


def _one_of_a_kind(rows: dict) -> list[dict]:
    """Timed events whose title no other event has, nor holds (a link found by that title is this one), with `start` as a datetime."""
    titles = [e["title"].lower() for e in rows["event"]]
    return [dict(e, start=datetime.fromisoformat(e["start"])) for e in rows["event"]
            if sum(e["title"].lower() in t for t in titles) == 1 and not e["all_day"]]


def _in_agenda(world: World, events: list[dict]) -> list[dict]:
    """The events still ahead that the agenda shows from today (`AGENDA_DAYS` days)."""
    now = world.scenario.clock
    last = now.date() + timedelta(days=AGENDA_DAYS - 1)
    return [e for e in events if e["start"] > now and e["start"].date() <= last]


def _open_event(title: str, search: str | None = None) -> str:
    """Search the calendar for `search` (the title by default) and open the event titled `title` among the results."""
    return "\n".join([f'env.fill(env.word("Search") + " events", {search or title!r})', 'env.press("Enter")', f'env.click({title!r}, role="link")'])


def _through_agenda(title: str) -> tuple[str, ...]:
    """Open an event from the agenda instead of the search."""
    return 'env.click("Agenda", role="link")', f'env.click({title!r}, role="link")'


class EventStartTime(AnswerFamily):
    name = "calendar.event_start_time"
    apps = ("calendar",)
    description = "Look up when an upcoming event starts and answer with the time."
    difficulty = "easy"
    capabilities = ('search', 'read_answer')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        event = pick(rng, _in_agenda(world, _one_of_a_kind(project(world))))
        if event is None:
            return None
        instruction = say(rng, world, "What time does \"{title}\" on {day} start? Check my calendar.",
                          "When does \"{title}\" begin on {day}? Just the time, please.",
                          "Look up the start time of \"{title}\" ({day}) in the calendar and tell me.", title=event["title"],
                          day=_day_text(event["start"]))
        ctx = {"title": event["title"], "time": f"{event['start']:%H:%M}", "time_text": _clock_text(event["start"])}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['time']}, the start of '{event['title']}'.",
                                                         "The answer names no other time (listing every time is no answer)."))

    answer = AnswerSpec("time", "time", golden="{time_text}", sentence="It starts at {time}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse the agenda to the event instead of searching; the time on the 24-hour clock."""
        return _open_event(c["title"]), _through_agenda(c["title"])


def _guests(rows: dict, event: dict) -> list[dict]:
    """The event's guests as its page lists them: every invitee but the organiser."""
    return [i for i in rows["invitee"] if i["event_id"] == event["id"] and i["email"].lower() != event["organizer_email"].lower()]


class GuestCount(AnswerFamily):
    name = "calendar.guest_count"
    apps = ("calendar",)
    description = "Count the people on an event's guest list, the organiser included, and answer with the number."
    difficulty = "easy"
    capabilities = ('search', 'read_answer', 'compute')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        me = world.persona.email.lower()  # the user's own events are too many to find by searching their name
        counted = [(e, len(_guests(rows, e)) + 1) for e in _one_of_a_kind(rows) if e["organizer_email"].lower() != me]
        choice = pick(rng, [(e, n) for e, n in counted if 2 <= n <= 20])
        if choice is None:
            return None
        event, n = choice
        instruction = say(rng, world, "How many people are on the guest list of \"{title}\" on {day}, the organiser included?",
                          "Counting the organiser, how many people are invited to \"{title}\" ({day})?",
                          "Check the calendar: how many people does \"{title}\" on {day} have on its guest list, organiser included?",
                          title=event["title"], day=_day_text(event["start"]))
        if n >= 10 and str(n) in instruction:  # "March 12" would seem to give away a count of 12
            return None
        ctx = {"title": event["title"], "organizer": event["organizer_name"] or event["organizer_email"], "count": n}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {n}, the people on the guest list of '{event['title']}'.",
                                                         "The answer names no other number."))

    answer = AnswerSpec("count", "count", golden="{count}", sentence="There are {count} people on the list.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Search by the organiser instead of the title; the number in a sentence."""
        return _open_event(c["title"]), _open_event(c["title"], search=c["organizer"])


class EventOrganizer(AnswerFamily):
    name = "calendar.event_organizer"
    apps = ("calendar",)
    description = "Look up who organised an upcoming event and answer with their name."
    difficulty = "easy"
    capabilities = ('search', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        me = world.persona.email.lower()
        event = pick(rng, [e for e in _in_agenda(world, _one_of_a_kind(rows)) if e["organizer_email"].lower() != me and e["organizer_name"]
                           and first_name(e["organizer_name"]).lower() not in e["title"].lower()])
        if event is None:
            return None
        instruction = say(rng, world, "Who organised \"{title}\" on {day}?",
                          "Who is the organiser of \"{title}\" ({day})? Tell me their name.",
                          "Look up in the calendar who set up \"{title}\" on {day} and give me the name.",
                          title=event["title"], day=_day_text(event["start"]))
        people = {e["organizer_name"] for e in rows["event"]} | {i["name"] for i in rows["invitee"]}
        others = sorted(n for n in people if n and n != event["organizer_name"] and n.lower() not in instruction.lower())
        ctx = {"title": event["title"], "organizer": event["organizer_name"], "others": others}
        return self._req(instruction, ctx, self.criteria(f"The answer names {event['organizer_name']}, the organiser of '{event['title']}'.",
                                                         "The answer names nobody else from the calendar."))

    answer = AnswerSpec("name", "organizer", golden="{organizer}", sentence="It was organised by {organizer}.", others="others")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse the agenda to the event instead of searching; the name in a sentence."""
        return _open_event(c["title"]), _through_agenda(c["title"])


FAMILIES = (RsvpYes(), BookMeeting(), EventStartTime(), GuestCount(), EventOrganizer())
