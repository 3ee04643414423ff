"""Derived cross-app families: a record whose person comes from the world (`world: {entity.field: people}`) and that
has a date becomes an event in the Calendar app, with that person invited.

The agent reads the date in the compiled app and creates the event in Calendar; golden steps and
verifier predicates for Calendar come from its recipes (found through the registry), never re-typed."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from contracts.family import Family, Requirements, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from ...package import AppPackageError, load_part
from ..model import AppSpec, EntitySpec
from .common import open_record, rows_of, table_page, unique_titled

CALENDAR = "calendar"
_CALENDAR_MODULE = "mocked_apps.calendar"
"""The shipped Calendar app; its recipes are loaded as the app's part (what the registry's `part` does), by module."""


def _recipes():
    """Calendar's recipes, or None when that app is not installed."""
    try:
        return load_part(_CALENDAR_MODULE, "recipes")
    except AppPackageError:
        return None


class EventFromRecord(Family):
    """Put a world person's record (a visit, a leave) into the calendar on its date, with that person invited."""

    def __init__(self, spec: AppSpec, entity: EntitySpec, person_field: str, date_field: str):
        self.spec, self.entity, self.person_field, self.date_field = spec, entity, person_field, date_field
        self.name = f"{spec.name}.{entity.name}.to_calendar"
        self.apps = (spec.name, CALENDAR)
        self.description = f"Copy a {entity.display.lower()} from {spec.title} into the calendar, inviting its person."
        self.difficulty = "hard"
        self.capabilities = ("cross_app", "search", "read_answer", "date_time", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        e = self.entity
        people = {p.name: p for p in world.people if p.id != world.user}
        rows = [r for r in unique_titled(e, rows_of(self.spec, world, e.name))
                if r[self.person_field] in people and r[self.date_field]]
        if not rows:
            return None
        row = rng.choice(rows)
        person = people[row[self.person_field]]
        day = str(row[self.date_field])[:10]
        start = datetime.combine(date.fromisoformat(day), datetime.min.time()).replace(hour=rng.choice([8, 12, 17]), minute=30)
        end = start + timedelta(minutes=30)
        title = f"{e.display}: {row[e.title]}"
        instruction = say(rng, world, "Find {who}'s {label} in {app} and add it to my calendar as \"{title}\" on that day, "
                          "{start} to {end}, with {first} invited.",
                          "Put {who}'s {label} from {app} in the calendar: \"{title}\", on its date from {start} to {end}; invite {first}.",
                          who=person.name, first=person.name.split()[0], label=e.display.lower(), app=self.spec.title, title=title,
                          start=start.strftime("%H:%M"), end=end.strftime("%H:%M"))
        ctx = {"title": title, "record": str(row[e.title]), "date": day, "start_time": start.strftime("%H:%M"),
               "end_time": end.strftime("%H:%M"), "start": start.isoformat(), "end": end.isoformat(), "email": person.email.lower()}
        return self._req(instruction, ctx, [
            Criterion(id="event_created", description=f"A new event '{title}' on {day} from {ctx['start_time']} to {ctx['end_time']}."),
            Criterion(id="person_invited", description=f"{person.name} ({person.email}) is invited to it."),
        ])

    def golden(self, req: Requirements) -> str:
        c, cal = req.answer_context, _recipes()
        return solve_source(f"env.open_app({self.spec.title!r})", *open_record(self.spec, self.entity, c["record"]),
                            cal.open_app(), cal.create_event(c["title"], c["date"], c["start_time"], c["end_time"], c["email"]))

    def verifier(self, req: Requirements) -> str:
        c, cal = req.answer_context, _recipes()
        return (cal.new_events_source("_events", c["title"], c["start"], c["end"]) + cal.invited_source("_invited") + f'''

def verify(final):
    new = _events(final)
    return {{"event_created": bool(new), "person_invited": any({c["email"]!r} in _invited(final, e) for e in new)}}
''')


def cross_families(spec: AppSpec) -> list[Family]:
    """One per entity whose person field is mapped to the world's people and that has a date, when Calendar exists."""
    if _recipes() is None:
        return []
    out: list[Family] = []
    for key, concept in spec.world.items():
        entity, _, field = key.partition(".")
        e = spec.entity(entity)
        dated = next((f.name for f in e.fields if f.type in ("date", "datetime")), None)
        if concept == "people" and dated and table_page(spec, e):
            out.append(EventFromRecord(spec, e, field, dated))
    return out


__all__ = ["EventFromRecord", "cross_families"]
