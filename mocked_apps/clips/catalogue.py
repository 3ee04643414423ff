"""The public creators every world has (travel, food, tech, ...) and the videos the world's people post,
chosen by their role. Counts and times come from a checksum of the world id and the title, so each world
differs but the same world always gives the same rows."""

from __future__ import annotations

import zlib

__all__ = ["PUBLIC", "ROLE_VIDEOS", "hue", "number"]

PUBLIC: tuple[tuple[str, str, str, tuple[tuple[str, str, str, int], ...]], ...] = (
    ("Mika on the Road", "mikaroams", "Slow travel, fast trains.", (
        ("Lisbon in 48 hours", "Trams, tiles and the best pastel de nata.", "travel,lisbon", 58),
        ("Night train to Vienna", "Sleeper cabin tour and what I packed.", "travel,train", 44),
        ("Packing light: one bag for a week", "Everything fits under the seat.", "travel,packing", 37))),
    ("Chef Luo", "chefluo", "Home cooking in under ten minutes.", (
        ("5-minute scallion noodles", "Hot oil, soy, scallions. Done.", "food,noodles", 41),
        ("Dumplings from scratch", "Dough, filling and the pleat.", "food,dumplings", 59),
        ("Street food tour in Xi'an", "Biangbiang noodles and roujiamo.", "food,travel", 55))),
    ("Pixel Desk", "pixeldesk", "Desks, keyboards and less clutter.", (
        ("My minimal desk setup", "One screen, one lamp, no cables.", "tech,desk", 33),
        ("Three shortcuts that save hours", "Window snapping, clipboard history, search.", "tech,productivity", 28))),
    ("Run With Ada", "ada.runs", "Running for the rest of us.", (
        ("Couch to 5K, week one", "Walk, jog, repeat.", "fitness,running", 46),
        ("Stretch after every run", "Five stretches, two minutes.", "fitness,stretching", 31))),
    ("Tiny Garden", "tinygarden", "A balcony, four pots, big plans.", (
        ("Balcony tomatoes in June", "From seed to the first red one.", "garden,tomatoes", 39),
        ("Repotting a monstera", "Roots, soil mix and a bigger pot.", "garden,plants", 52))),
    ("Jazz Cat Trio", "jazzcat", "Live standards on Sundays.", (
        ("Autumn Leaves, live in the park", "Our Sunday set, first tune.", "music,jazz", 60),
        ("Drum solo in 30 seconds", "Brushes only.", "music,drums", 30))),
    ("Studio Clay", "studioclay", "Wheel-thrown pottery.", (
        ("Throwing a mug on the wheel", "Centre, open, pull, trim.", "craft,pottery", 57),
        ("Glaze test results", "Twelve tiles, two favourites.", "craft,glaze", 24))),
    ("Paws & Co", "pawsandco", "Dogs, cats and one parrot.", (
        ("Corgi meets snow", "First snow day, zero regrets.", "pets,dogs", 19),
        ("The cat who opens doors", "She learned it in a week.", "pets,cats", 26))),
)
"""(name, handle, bio, videos as (title, caption, tags, seconds)) of the public creators."""

ROLE_VIDEOS: dict[str, tuple[str, str, str]] = {
    "designer": ("Moodboard for the new brand", "Colours, type and a lot of sticky notes.", "design,work"),
    "developer": ("Debugging at 2am", "It was a missing comma.", "code,work"),
    "finance lead": ("Spreadsheet tricks for month end", "Three formulas I use every close.", "finance,excel"),
    "account lead": ("Pitch prep in ten minutes", "How I rehearse a client pitch.", "work,pitch"),
    "intern": ("First week at {company}", "Badge, laptop, too much coffee.", "work,intern"),
    "father": ("Sunday barbecue", "Ribs low and slow.", "family,food"),
    "mother": ("Garden in bloom", "The roses came back.", "family,garden"),
    "project lead": ("Site visit at {org}", "Walking the space before the kickoff.", "work,{tag}"),
    "coordinator": ("Event setup at {org}", "Chairs, lights, name badges.", "work,{tag}"),
    "accounts": ("Behind the scenes at {org}", "Where your orders get packed.", "business,{tag}"),
}
"""A world person's video by role: (title, caption, tags); {company}, {org} and {tag} are filled in."""


def number(world_id: str, key: str, low: int, high: int) -> int:
    """A count or offset in [low, high] fixed by the world and the record."""
    return low + zlib.crc32(f"{world_id}/{key}".encode()) % (high - low + 1)


def hue(title: str) -> int:
    """The cover colour of a video: from its title, so every video looks different."""
    return zlib.crc32(title.encode()) % 360
