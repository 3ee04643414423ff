"""The public authors every world has and their notes; places are named in the persona's city, so a note's
recommended café or shop is one the persona could visit. The world's people post notes by role."""

from __future__ import annotations

import zlib

__all__ = ["CHANNELS", "PUBLIC", "ROLE_NOTES", "hue", "number"]

CHANNELS = {"food": "Food", "travel": "Travel", "home": "Home", "fitness": "Fitness", "books": "Books", "work": "Work"}
"""Explore's channels: hashtag -> label."""

PUBLIC: tuple[tuple[str, str, str, tuple[tuple[str, str, str, str, str], ...]], ...] = (
    ("Lily Eats", "lilyeats", "Cafés and brunch spots, honestly rated.", (
        ("Best flat white in {city}", "Silky milk, proper crema and window seats. Go before ten.", "food,coffee", "Little Fern Coffee", "14 Market Street, {city}"),
        ("Brunch worth the queue", "Shakshuka, sourdough and a courtyard.", "food,brunch", "Courtyard Kitchen", "220 Elm Avenue, {city}"),
        ("Noodle bar for rainy days", "Hand-pulled noodles, chilli oil on every table.", "food,noodles", "Lanzhou Noodle House", "8 Harbour Lane, {city}"))),
    ("Weekend Wanderer", "wanderer", "Day trips and small hotels.", (
        ("A slow Saturday by the lake", "Rent a bike at the pier, picnic at the north shore.", "travel,weekend", "Lakeside Bike Hire", "1 Pier Road, {city}"),
        ("Three-day itinerary for Lisbon", "Alfama, Belém, and a day in Sintra.", "travel,lisbon", "", ""),
        ("Packing list for a work trip", "Carry-on only, one blazer, two shirts.", "travel,work", "", ""))),
    ("Small Home Big Ideas", "smallhome", "Renting? Make it yours.", (
        ("Renter-friendly kitchen upgrades", "Peel-and-stick tiles and a rail for everything.", "home,kitchen", "", ""),
        ("Where I buy my plants", "Healthy monsteras and honest prices.", "home,plants", "Greenhouse Plant Shop", "55 Garden Row, {city}"),
        ("Desk corner under $100", "Lamp, riser, one plant.", "home,work", "", ""))),
    ("Run Club Mia", "runclubmia", "Easy miles and stretching.", (
        ("Beginner 5K plan that worked", "Three runs a week, one rest day between.", "fitness,running", "", ""),
        ("Yoga studio with drop-in classes", "Morning flow at seven, mats provided.", "fitness,yoga", "Open Sky Yoga", "301 River Street, {city}"))),
    ("Bookish Ben", "bookishben", "One book a week, reviewed in a note.", (
        ("Five novels for a long flight", "Page-turners that survive turbulence.", "books,travel", "", ""),
        ("The bookshop with a cat", "Second-hand shelves and a very fat cat.", "books,shop", "Paper Lantern Books", "19 Old Mill Street, {city}"))),
    ("Office Hacks", "officehacks", "Work smarter, not longer.", (
        ("How I plan my week in 20 minutes", "Monday morning, one page, three priorities.", "work,planning", "", ""),
        ("Quiet café for remote work", "Fast wifi, plugs at every table, no music.", "work,coffee", "Study Hall Café", "77 College Road, {city}"))),
)
"""(name, handle, bio, notes as (title, body, tags, place, address)) of the public authors; {city} is filled in."""

ROLE_NOTES: dict[str, tuple[str, str, str]] = {
    "designer": ("My mood board routine", "Pinterest, scissors and a big wall.", "work,design"),
    "developer": ("Mechanical keyboard review", "Quiet switches for an open office.", "work,tech"),
    "finance lead": ("Month-end checklist", "Twelve steps I never skip.", "work,finance"),
    "account lead": ("Client gift ideas", "Thoughtful, under $40, no logos.", "work,gifts"),
    "intern": ("What I learned in my first month", "Ask early, write things down.", "work,career"),
    "father": ("Best ribs recipe", "Dry rub, low and slow, four hours.", "food,bbq"),
    "mother": ("Spring garden notes", "Roses, tulips and a lot of mulch.", "home,garden"),
    "project lead": ("Planning a team offsite", "Agenda, venue, dinner.", "work,events"),
    "coordinator": ("Event day timeline", "From setup to the last guest.", "work,events"),
    "accounts": ("A week at {org}", "Orders, deliveries and coffee.", "work,business"),
}
"""A world person's note by role: (title, body, tags); {org} is filled in."""


def number(world_id: str, key: str, low: int, high: int) -> int:
    """A count or offset in [low, high] fixed by the world and the record."""
    return low + zlib.crc32(f"{world_id}/{key}".encode()) % (high - low + 1)


def hue(title: str) -> int:
    """The colour of a note's drawn images: from its title, so every note looks different."""
    return zlib.crc32(title.encode()) % 360
