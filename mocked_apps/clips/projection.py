"""World -> clips seed: the persona's own account and videos, the world's people as contacts (colleagues
and family followed, vendors and clients not), public creators, comments and past shares.

The same people as mail and the calendar (names and emails); times lie before the world's clock.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import PUBLIC, ROLE_VIDEOS, hue, number

__all__ = ["handle", "project"]

_REMARKS = ("Love this!", "Saving this for later", "How long did this take?", "This made my day", "Need a part two",
            "Okay this is genius", "Watched it three times", "Where is this?")


def handle(name: str) -> str:
    """A person's handle: the name in lower-case ASCII, dots between words ('Åke Östberg' -> 'ake.ostberg')."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return ".".join(re.sub(r"[^a-z0-9 ]", "", ascii_name.lower()).split()) or "user"


def _creators(world: World) -> tuple[list[dict], dict[str, int]]:
    """Creator rows (me first, then the world's people, then public creators) and person id -> creator id."""
    p = world.persona
    rows = [{"id": 1, "name": p.name, "handle": handle(p.name), "bio": f"{p.role.capitalize()} at {p.company} · {p.city}".strip(" ·"),
             "email": p.email, "followers": number(world.id, "me", 40, 400), "is_me": True, "is_contact": False, "following": False}]
    ids = {world.user: 1}
    for person in world.people:
        if person.id == world.user:
            continue
        org = world.org(person.org)
        close = org.kind in ("self", "household")
        ids[person.id] = len(rows) + 1
        taken = {r["handle"] for r in rows}
        rows.append({"id": len(rows) + 1, "name": person.name,
                     "handle": handle(person.name) if handle(person.name) not in taken else f"{handle(person.name)}{len(rows) + 1}",
                     "bio": person.role.capitalize() + ("" if org.kind == "household" else f" at {org.name}"),
                     "email": person.email, "followers": number(world.id, person.id, 20, 900), "is_me": False,
                     "is_contact": True, "following": close})
    for i, (name, tag, bio, _) in enumerate(PUBLIC):
        rows.append({"id": len(rows) + 1, "name": name, "handle": tag, "bio": bio, "email": "",
                     "followers": number(world.id, tag, 12_000, 2_400_000), "is_me": False, "is_contact": False,
                     "following": i % 3 == 0})
    return rows, ids


def _video(world: World, vid: int, creator: int, title: str, caption: str, tags: str, seconds: int, sound: str,
           visibility: str = "public", popular: bool = False) -> dict:
    hours = number(world.id, f"{title}/age", 2, 24 * 21)
    likes = number(world.id, f"{title}/likes", 2_000, 480_000) if popular else number(world.id, f"{title}/likes", 0, 60)
    return {"id": vid, "creator_id": creator, "title": title, "caption": caption, "tags": tags, "visibility": visibility,
            "allow_comments": True, "duration_s": seconds, "sound": sound, "cover_hue": hue(title), "likes": likes,
            "views": likes * number(world.id, f"{title}/views", 6, 30) + 10, "liked": False, "saved": False,
            "posted_at": (world.scenario.clock - timedelta(hours=hours)).isoformat()}


def _videos(world: World, creators: list[dict], ids: dict[str, int]) -> list[dict]:
    p = world.persona
    me = creators[0]["handle"]
    rows: list[dict] = []
    titles: set[str] = set()

    def add(creator: int, title: str, caption: str, tags: str, seconds: int, sound: str, **kw) -> None:
        while title in titles:  # two people of one role at one organisation: the second is part 2
            title += " (part 2)"
        titles.add(title)
        rows.append(_video(world, len(rows) + 1, creator, title, caption, tags, seconds, sound, **kw))

    add(1, f"Our studio in {p.city or 'town'}", f"A quick tour of the {p.company} office.", "work,office", 34, f"original sound - {me}")
    add(1, f"{p.company} team lunch", "Friday lunch with the team.", "work,team", 22, f"original sound - {me}", visibility="friends")
    add(1, "Office tour draft", "Not ready yet.", "draft", 48, f"original sound - {me}", visibility="private")
    for person in world.people:
        if person.id == world.user or person.role not in ROLE_VIDEOS:
            continue
        org = world.org(person.org)
        title, caption, tags = (s.format(company=p.company, org=org.name, tag=handle(org.name).split(".")[0]) for s in ROLE_VIDEOS[person.role])
        add(ids[person.id], title, caption, tags, number(world.id, person.id, 12, 58), f"original sound - {handle(person.name)}")
    by_handle = {c["handle"]: c["id"] for c in creators}
    for _, tag, _, videos in PUBLIC:
        for title, caption, tags, seconds in videos:
            add(by_handle[tag], title, caption, tags, seconds, f"original sound - {tag}", popular=True)
    return rows


def _comments(world: World, videos: list[dict], creators: list[dict]) -> list[dict]:
    """Two or three comments under most videos, by contacts under theirs and the user's, by public creators elsewhere."""
    contacts = [c["id"] for c in creators if c["is_contact"]]
    public = [c["id"] for c in creators if not c["is_contact"] and not c["is_me"]]
    rows = []
    for v in videos:
        if v["visibility"] == "private":
            continue
        pool = [c for c in (public if v["likes"] > 1000 else contacts) if c != v["creator_id"]]
        for k in range(number(world.id, f"{v['title']}/comments", 0, 3)):
            who = pool[number(world.id, f"{v['title']}/c{k}", 0, len(pool) - 1)]
            rows.append({"id": len(rows) + 1, "video_id": v["id"], "creator_id": who,
                         "body": _REMARKS[number(world.id, f"{v['title']}/r{k}", 0, len(_REMARKS) - 1)],
                         "posted_at": _after(v["posted_at"], 17 * (k + 1), world).isoformat()})
    return rows


def _after(posted: str, minutes: int, world: World) -> datetime:
    """`minutes` after a video was posted, never past the world's clock."""
    return min(world.scenario.clock, datetime.fromisoformat(posted) + timedelta(minutes=minutes))


def _shares(world: World, videos: list[dict], creators: list[dict]) -> list[dict]:
    """The user sent the first public creator's video to the first two colleagues, a day ago."""
    colleagues = [c["id"] for c in creators if c["is_contact"] and c["following"]][:2]
    popular = next(v for v in videos if v["likes"] > 1000)
    when = (world.scenario.clock - timedelta(days=1)).isoformat()
    return [{"id": i + 1, "video_id": popular["id"], "contact_id": c, "message": "You have to see this", "sent_at": when}
            for i, c in enumerate(colleagues)]


def project(world: World) -> dict[str, list[dict]]:
    creators, ids = _creators(world)
    videos = _videos(world, creators, ids)
    return {"creator": creators, "video": videos, "videocomment": _comments(world, videos, creators),
            "share": _shares(world, videos, creators), **identity_seed(world.persona)}
