"""Calendar families: answer an invitation, book a meeting with a colleague."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from contracts.family import Family, Requirements, first_name, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from .recipes import create_event, free_slot


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
        return solve_source(f'env.fill("Search events", {title!r})', 'env.press("Enter")', f'env.click({title!r}, role="link")',
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


FAMILIES = (RsvpYes(), BookMeeting())
