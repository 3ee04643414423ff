"""World -> calendar seed: the signed-in user, their calendars, meetings as events, attendees with RSVPs."""

from __future__ import annotations

from contracts.world import World
from mocked_apps.kit.identity import identity_seed


def project(world: World) -> dict[str, list[dict]]:
    user = world.person(world.user)
    people = {p.id: p for p in world.people}
    now = world.scenario.clock
    rows: dict[str, list[dict]] = {
        **identity_seed(world.persona),
        "calendar": [{"id": 1, "name": "Work", "color": "#2f6fed"}, {"id": 2, "name": "Personal", "color": "#1f8a4c"}],
        "event": [], "invitee": [],
    }
    for eid, m in enumerate(world.meetings, start=1):
        organizer = people[m.organizer]
        rows["event"].append({
            "id": eid, "calendar_id": 1, "title": m.title, "start": m.start.isoformat(), "end": m.end.isoformat(),
            "all_day": False, "location": m.location, "description": m.description,
            "organizer_email": organizer.email, "organizer_name": organizer.name,
        })
        for pid in m.attendees:
            person = people[pid]
            if m.start < now:
                rsvp = "yes"
            elif pid == user.id:
                rsvp = "pending"
            else:
                rsvp = ("yes", "maybe", "pending")[(eid + len(person.name)) % 3]
            rows["invitee"].append({"id": len(rows["invitee"]) + 1, "event_id": eid, "email": person.email,
                                    "name": person.name, "rsvp": rsvp})
    return rows
