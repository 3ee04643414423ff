"""Calendar's recipes: free slots in a world, golden steps and verifier predicates other families call."""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta

from contracts.world import World

from .manifest import MANIFEST

__all__ = ["create_event", "free_slot", "invited_source", "new_events_source", "open_app"]


def free_slot(world: World, rng: random.Random, minutes: int) -> datetime:
    """A weekday slot in the next two weeks, within 9-17, that overlaps none of the world's meetings."""
    now = world.scenario.clock
    for _ in range(200):
        day = now.date() + timedelta(days=rng.randint(1, 14))
        if day.weekday() >= 5:
            continue
        start = datetime.combine(day, time(rng.randint(9, 16 - minutes // 60), rng.choice([0, 30])))
        end = start + timedelta(minutes=minutes)
        if end.time() <= time(17, 0) and all(end <= m.start or start >= m.end for m in world.meetings):
            return start
    raise LookupError("no free slot")


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def create_event(title: str, date: str, start_time: str, end_time: str, guests: str) -> str:
    """Create an event on one day (ISO date, HH:MM times) with guests (comma-separated emails)."""
    return "\n".join([
        'env.click("Create event", role="link")', f'env.fill("Title", {title!r})', f'env.fill("Start date", {date!r})',
        f'env.fill("Start time", {start_time!r})', f'env.fill("End date", {date!r})', f'env.fill("End time", {end_time!r})',
        f'env.fill("Guests", {guests!r})', 'env.click("Save event", role="button")'])


def new_events_source(fn: str, title: str, start: str | None = None, end: str | None = None) -> str:
    """`fn(final)`: ids of the events created during the attempt titled `title` (any case), at `start`-`end` when given."""
    timed = (f' and _cal_t(e["start"]) == _cal_t({start!r}) and _cal_t(e["end"]) == _cal_t({end!r})'
             if start is not None else "")
    return f'''
from datetime import datetime


def _cal_t(value):
    return datetime.fromisoformat(str(value).replace(" ", "T"))


def {fn}(final):
    cal, before = final.state["calendar"], final.initial_state["calendar"]
    old = {{e["id"] for e in before["event"]}}
    return [e["id"] for e in cal["event"] if e["id"] not in old and e["title"].strip().lower() == {title!r}.lower(){timed}]
'''


def invited_source(fn: str) -> str:
    """`fn(final, event_id)`: the emails invited to an event, lower-cased."""
    return f'''
def {fn}(final, event_id):
    return {{i["email"].strip().lower() for i in final.state["calendar"]["invitee"] if i["event_id"] == event_id}}
'''
