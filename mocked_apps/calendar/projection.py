"""World -> calendar seed: the signed-in user, their calendars, meetings as events, attendees with RSVPs, and the
routine a real calendar also holds.

The world's meetings come first (ids 1..n, in the world's order), then the routine, made from the same world and
fixed by its id: a weekly class and family dinners on the Personal calendar, team drinks and colleagues' birthdays
on the company's calendar (invitations the user has not all answered), a client's breakfast invitation, and a
reminder on each unpaid invoice's due day. Routine titles never repeat a meeting's title, and no timed routine
event overlaps a meeting or lies on a weekday between 09:00 and 17:00 from the clock on, the hours where
`recipes.free_slot` books meetings.
"""

from __future__ import annotations

import zlib
from datetime import date, datetime, time, timedelta

from contracts.world import Meeting, Person, World
from mocked_apps.kit.filters import money
from mocked_apps.kit.identity import identity_seed

__all__ = ["WEEKS_BACK", "WEEKS_AHEAD", "project"]

WEEKS_BACK, WEEKS_AHEAD = 6, 5
"""The routine covers the weeks from WEEKS_BACK before the clock's week to WEEKS_AHEAD after it."""
_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


def _number(world: World, key: str, low: int, high: int) -> int:
    """A choice in [low, high] fixed by the world and the record, the same on every run."""
    return low + zlib.crc32(f"{world.id}/{key}".encode()) % (high - low + 1)


def _first(name: str) -> str:
    return name.split()[0]


class _Rows:
    """The seed's event and invitee rows, numbered as they are added."""

    def __init__(self, world: World) -> None:
        self.world, self.event, self.invitee = world, [], []
        self.now = world.scenario.clock

    def add(self, calendar_id: int, title: str, start: datetime, end: datetime, organizer: Person, *, all_day: bool = False,
            location: str = "", description: str = "") -> int:
        self.event.append({
            "id": len(self.event) + 1, "calendar_id": calendar_id, "title": title, "start": start.isoformat(), "end": end.isoformat(),
            "all_day": all_day, "location": location, "description": description,
            "organizer_email": organizer.email, "organizer_name": organizer.name,
        })
        return len(self.event)

    def invite(self, event_id: int, person: Person, rsvp: str) -> None:
        self.invitee.append({"id": len(self.invitee) + 1, "event_id": event_id, "email": person.email, "name": person.name,
                             "rsvp": rsvp})


def _meetings(rows: _Rows) -> None:
    """The world's meetings on the Work calendar; answers are yes before the clock, the user's own pending after."""
    world, people = rows.world, {p.id: p for p in rows.world.people}
    for m in world.meetings:
        eid = rows.add(1, m.title, m.start, m.end, people[m.organizer], location=m.location, description=m.description)
        for pid in m.attendees:
            person = people[pid]
            if m.start < rows.now:
                rsvp = "yes"
            elif pid == world.user:
                rsvp = "pending"
            else:
                rsvp = ("yes", "maybe", "pending")[(eid + len(person.name)) % 3]
            rows.invite(eid, person, rsvp)


def _fits(rows: _Rows, title: str, start: datetime, end: datetime) -> bool:
    """Whether a routine event may go here: a title no meeting has, off the meeting hours ahead, clear of meetings."""
    meetings: tuple[Meeting, ...] = rows.world.meetings
    if any(m.title == title for m in meetings) or any(start < m.end and end > m.start for m in meetings):
        return False
    working_hours = (datetime.combine(start.date(), time(9)), datetime.combine(start.date(), time(17)))
    return not (end > rows.now and start.weekday() < 5 and start < working_hours[1] and end > working_hours[0])


def _weekly(rows: _Rows, weekday: int, at: time, every: int = 1) -> list[datetime]:
    """The starts of a routine on `weekday` at `at`, every `every` weeks, over the routine's weeks."""
    monday = rows.now.date() - timedelta(days=rows.now.weekday())
    return [datetime.combine(monday + timedelta(weeks=w, days=weekday), at) for w in range(-WEEKS_BACK, WEEKS_AHEAD + 1)
            if w % every == 0]


def _personal(rows: _Rows, user: Person, family: list[Person]) -> None:
    """A weekly class, dinners with family every other Sunday, a haircut, a relative's birthday."""
    world, city = rows.world, rows.world.persona.city
    classes = ("Yoga class", "Pilates", "Spin class", "Swimming lessons")
    cls = classes[_number(world, "class", 0, len(classes) - 1)]
    weekday = _number(world, "class/day", 0, 3)
    for start in _weekly(rows, weekday, time(18, 30)):
        end = start + timedelta(hours=1)
        if _fits(rows, cls, start, end):
            rows.add(2, cls, start, end, user, location=f"{city} community centre" if city else "Community centre")
    for relative in family[:1]:
        dinner = f"Dinner with {_first(relative.name)}"
        for start in _weekly(rows, 6, time(18), every=2):
            if _fits(rows, dinner, start, start + timedelta(hours=2)):
                eid = rows.add(2, dinner, start, start + timedelta(hours=2), user, location="Home")
                rows.invite(eid, relative, "yes")
        birthday = rows.now.date() + timedelta(days=_number(world, "birthday", 3, 25))
        rows.add(2, f"{_first(relative.name)}'s birthday", datetime.combine(birthday, time()),
                 datetime.combine(birthday + timedelta(days=1), time()), user, all_day=True)
    saturday = rows.now.date() + timedelta(days=(5 - rows.now.weekday()) % 7 + 7)
    haircut = datetime.combine(saturday, time(10, _number(world, "haircut", 0, 1) * 30))
    if _fits(rows, "Haircut", haircut, haircut + timedelta(minutes=45)):
        rows.add(2, "Haircut", haircut, haircut + timedelta(minutes=45), user, location=f"Barber, {city}" if city else "Barber")


def _team(rows: _Rows, user: Person, colleagues: list[Person]) -> None:
    """Team drinks every other Friday after work, hosted by a colleague; colleagues' birthdays as all-day events."""
    if not colleagues:
        return
    world = rows.world
    host = colleagues[_number(world, "drinks/host", 0, len(colleagues) - 1)]
    for start in _weekly(rows, 4, time(17, 30), every=2):
        end = start + timedelta(minutes=90)
        if not _fits(rows, "Friday drinks", start, end):
            continue
        eid = rows.add(3, "Friday drinks", start, end, host, location="Office kitchen",
                       description=f"End-of-week drinks at {world.persona.company}. Everyone welcome.")
        for person in [user, *colleagues]:
            if person.id == host.id:
                continue
            if start < rows.now:
                answer = "yes"
            elif person.id == user.id:
                answer = "pending"
            else:
                answer = ("yes", "maybe")[_number(world, f"drinks/{eid}/{person.id}", 0, 1)]
            rows.invite(eid, person, answer)
    for person in colleagues[:3]:
        day = rows.now.date() + timedelta(days=_number(world, f"birthday/{person.id}", -30, 30))
        rows.add(3, f"{_first(person.name)}'s birthday", datetime.combine(day, time()),
                 datetime.combine(day + timedelta(days=1), time()), person, all_day=True)


def _client_breakfast(rows: _Rows, user: Person, clients: list[Person]) -> None:
    """A client contact's invitation to breakfast before work, next week, not answered yet."""
    if not clients:
        return
    contact = clients[_number(rows.world, "breakfast", 0, len(clients) - 1)]
    org = {o.id: o.name for o in rows.world.organisations}[contact.org]
    day = rows.now.date() + timedelta(days=7 - rows.now.weekday() + _number(rows.world, "breakfast/day", 1, 3))
    start = datetime.combine(day, time(8))
    title = f"Breakfast with {org}"
    if _fits(rows, title, start, start + timedelta(minutes=45)):
        eid = rows.add(1, title, start, start + timedelta(minutes=45), contact, location="Café across from the office",
                       description=f"Coffee and a catch-up before work, {contact.name} ({org}).")
        rows.invite(eid, user, "pending")


def _due_reminders(rows: _Rows, user: Person) -> None:
    """An all-day reminder on the due day of each unpaid invoice: vendor, number, amount."""
    world = rows.world
    vendors = {o.id: o.name for o in world.organisations}
    symbol = _SYMBOLS.get(world.persona.currency, f"{world.persona.currency} ")
    for inv in sorted((i for i in world.invoices if not i.paid), key=lambda i: (i.due, i.number)):
        due: date = inv.due
        rows.add(1, f"Pay {vendors[inv.vendor]} {inv.number} ({money(inv.amount, symbol)}, due {due:%b} {due.day})",
                 datetime.combine(due, time()), datetime.combine(due + timedelta(days=1), time()), user, all_day=True,
                 description=inv.description)


def project(world: World) -> dict[str, list[dict]]:
    user = world.person(world.user)
    orgs = {o.id: o for o in world.organisations}
    others = [p for p in world.people if p.id != user.id]
    colleagues = [p for p in others if p.org == user.org]
    family = [p for p in others if orgs[p.org].kind == "household"]
    clients = [p for p in others if orgs[p.org].kind == "client"]
    rows = _Rows(world)
    _meetings(rows)
    _personal(rows, user, family)
    _team(rows, user, colleagues)
    _client_breakfast(rows, user, clients)
    _due_reminders(rows, user)
    return {
        **identity_seed(world.persona),
        "calendar": [{"id": 1, "name": "Work", "color": "#2f6fed"}, {"id": 2, "name": "Personal", "color": "#1f8a4c"},
                     {"id": 3, "name": world.persona.company, "color": "#8e44ad"}],
        "event": rows.event, "invitee": rows.invitee,
    }
