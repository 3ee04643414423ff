"""World -> reviews seed: the business catalogue in the persona's city, reviews by regulars and by the world's
colleagues (dated before the world's clock), a 'Favourites' list, and past reservations behind the world's
client-lunch charges (the same day, at a restaurant that was open)."""

from __future__ import annotations

import zlib
from datetime import timedelta

from contracts.world import World
from mocked_apps.kit.identity import identity_seed

from .catalogue import BUSINESSES, REVIEWERS, WORDS

__all__ = ["businesses", "project"]


def businesses(world: World) -> list[dict]:
    city = world.persona.city
    rows = []
    for i, (name, category, cuisine, area, street, level, avg, opens, closes, closed, reservable, party, stars) in enumerate(BUSINESSES, start=1):
        rows.append({"id": i, "name": name, "category": category, "cuisine": cuisine, "area": area, "address": f"{street}, {city}".strip(", "),
                     "price_level": level, "avg_price": avg, "rating": round(sum(stars) / len(stars), 1), "review_count": len(stars),
                     "opens": opens, "closes": closes, "closed_weekday": closed, "reservable": reservable, "max_party": party,
                     "phone": f"(555) {zlib.crc32(name.encode()) % 900 + 100}-{zlib.crc32(name[::-1].encode()) % 9000 + 1000}"})
    return rows


def _reviews(world: World) -> list[dict]:
    """The reviews behind each business's stars; some authors are the world's colleagues."""
    me = next((p for p in world.people if p.id == world.user), None)
    colleagues = [p.name for p in world.people if me is not None and p.org == me.org and p.id != me.id]
    authors = list(REVIEWERS) + colleagues[:3]
    clock = world.scenario.clock
    rows = []
    for b, entry in enumerate(BUSINESSES, start=1):
        for k, stars in enumerate(entry[-1]):
            h = zlib.crc32(f"{world.id}/{entry[0]}/{k}".encode())
            words = WORDS[stars]
            rows.append({"id": len(rows) + 1, "business_id": b, "author": authors[h % len(authors)], "mine": False, "stars": stars,
                         "text": words[h % len(words)], "photos": h % 4,
                         "written_at": (clock - timedelta(days=3 + h % 120, hours=h % 9)).isoformat()})
    return rows


def _past_reservations(world: World, rows: list[dict]) -> list[dict]:
    out = []
    lunches = sorted((t for t in world.transactions if t.amount < 0 and t.description.startswith("Client lunch")), key=lambda t: (t.posted, t.id))
    places = [b for b in rows if b["reservable"] and b["category"] == "Restaurants" and b["opens"] <= "12:30"]
    for t in lunches:
        b = places[zlib.crc32(t.id.encode()) % len(places)]
        day = t.posted.date()
        rid = len(out) + 1
        out.append({"id": rid, "number": f"T{day:%y%m%d}{rid:03d}", "business_id": b["id"], "day": day.isoformat(), "time": "12:30",
                    "party": 2 + zlib.crc32(t.id.encode()) % 3, "name": world.persona.name, "phone": "", "note": "", "status": "booked",
                    "created_at": (t.posted - timedelta(days=2)).isoformat()})
    return out


def project(world: World) -> dict[str, list[dict]]:
    rows = businesses(world)
    favourites = [b["id"] for b in rows if b["name"] in ("Morning Ritual", "Green Fork")]
    return {"business": rows, "review": _reviews(world), "bookmarklist": [{"id": 1, "name": "Favourites"}],
            "bookmark": [{"id": i, "list_id": 1, "business_id": b} for i, b in enumerate(favourites, start=1)],
            "reservation": _past_reservations(world, rows), **identity_seed(world.persona)}
