"""World -> notes seed: the persona's account, notes and collections; the world's people as authors (colleagues
and family followed); public authors whose notes recommend places in the persona's city; comments.

The same people as mail and the calendar (names and emails); times lie before the world's clock.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import PUBLIC, ROLE_NOTES, hue, number

__all__ = ["handle", "project"]

_REMARKS = ("Saved!", "Going this weekend", "Thanks for sharing", "Is it busy on Sundays?", "So helpful", "Adding to my list")
BOARDS = ("Weekend ideas", "Recipes to try", "Work trips")
"""The user's collections in every world."""


def handle(name: str) -> str:
    """A person's handle: the name in lower-case ASCII without spaces."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", ascii_name.lower()) or "user"


def _authors(world: World) -> tuple[list[dict], dict[str, int]]:
    p = world.persona
    rows = [{"id": 1, "name": p.name, "handle": handle(p.name), "bio": f"{p.role.capitalize()} · {p.city}".strip(" ·"), "email": p.email,
             "followers": number(world.id, "me", 30, 300), "is_me": True, "is_contact": False, "following": False}]
    ids = {world.user: 1}
    for person in world.people:
        if person.id == world.user:
            continue
        org = world.org(person.org)
        taken = {r["handle"] for r in rows}
        tag = handle(person.name) if handle(person.name) not in taken else f"{handle(person.name)}{len(rows) + 1}"
        ids[person.id] = len(rows) + 1
        rows.append({"id": len(rows) + 1, "name": person.name, "handle": tag,
                     "bio": person.role.capitalize() + ("" if org.kind == "household" else f" at {org.name}"), "email": person.email,
                     "followers": number(world.id, person.id, 10, 700), "is_me": False, "is_contact": True,
                     "following": org.kind in ("self", "household")})
    for i, (name, tag, bio, _) in enumerate(PUBLIC):
        rows.append({"id": len(rows) + 1, "name": name, "handle": tag, "bio": bio, "email": "", "followers": number(world.id, tag, 8_000, 900_000),
                     "is_me": False, "is_contact": False, "following": i % 2 == 0})
    return rows, ids


def _notes(world: World, authors: list[dict], ids: dict[str, int]) -> list[dict]:
    p = world.persona
    city = p.city or "town"
    rows: list[dict] = []
    titles: set[str] = set()

    def add(author: int, title: str, body: str, tags: str, place: str = "", address: str = "", popular: bool = False) -> None:
        while title in titles:
            title += " (part 2)"
        titles.add(title)
        hours = number(world.id, f"{title}/age", 3, 24 * 30)
        rows.append({"id": len(rows) + 1, "author_id": author, "title": title, "body": body, "tags": tags, "place": place,
                     "place_address": address, "images": number(world.id, f"{title}/images", 1, 6), "cover_hue": hue(title),
                     "likes": number(world.id, f"{title}/likes", 900, 90_000) if popular else number(world.id, f"{title}/likes", 0, 80),
                     "liked": False, "posted_at": (world.scenario.clock - timedelta(hours=hours)).isoformat()})

    by_handle = {a["handle"]: a["id"] for a in authors}
    for _, tag, _, notes in PUBLIC:
        for title, body, tags, place, address in notes:
            add(by_handle[tag], title.format(city=city), body, tags, place, address.format(city=city), popular=True)
    for person in world.people:
        if person.id == world.user or person.role not in ROLE_NOTES:
            continue
        title, body, tags = (s.format(org=world.org(person.org).name) for s in ROLE_NOTES[person.role])
        add(ids[person.id], title, body, tags)
    add(1, f"Our office in {city}", f"Light, plants and the {p.company} team.", "work,office")
    add(1, "Favourite lunch spots near work", "Three places within a five-minute walk.", "food,work")
    return rows


def _after(posted: str, minutes: int, world: World) -> datetime:
    """`minutes` after a note was posted, never past the world's clock."""
    return min(world.scenario.clock, datetime.fromisoformat(posted) + timedelta(minutes=minutes))


def _comments(world: World, notes: list[dict], authors: list[dict]) -> list[dict]:
    people = [a["id"] for a in authors if not a["is_me"]]
    rows = []
    for n in notes:
        pool = [a for a in people if a != n["author_id"]]
        for k in range(number(world.id, f"{n['title']}/comments", 0, 3)):
            rows.append({"id": len(rows) + 1, "note_id": n["id"], "author_id": pool[number(world.id, f"{n['title']}/c{k}", 0, len(pool) - 1)],
                         "body": _REMARKS[number(world.id, f"{n['title']}/r{k}", 0, len(_REMARKS) - 1)],
                         "posted_at": _after(n["posted_at"], 23 * (k + 1), world).isoformat()})
    return rows


def _boards(world: World, notes: list[dict]) -> tuple[list[dict], list[dict]]:
    """The user's three collections; the first food note is in 'Recipes to try', the first travel one in 'Weekend ideas'."""
    made = (world.scenario.clock - timedelta(days=40)).isoformat()
    boards = [{"id": i + 1, "name": name, "private": i == 2, "created_at": made} for i, name in enumerate(BOARDS)]
    when = (world.scenario.clock - timedelta(days=2)).isoformat()
    picks = [(next(n for n in notes if "food" in n["tags"].split(",")), 2), (next(n for n in notes if "travel" in n["tags"].split(",")), 1)]
    collects = [{"id": i + 1, "note_id": n["id"], "board_id": b, "saved_at": when} for i, (n, b) in enumerate(picks)]
    return boards, collects


def project(world: World) -> dict[str, list[dict]]:
    authors, ids = _authors(world)
    notes = _notes(world, authors, ids)
    boards, collects = _boards(world, notes)
    return {"author": authors, "notepost": notes, "notecomment": _comments(world, notes, authors), "board": boards, "collect": collects,
            **identity_seed(world.persona)}
