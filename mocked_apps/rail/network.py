"""The rail network of a world: stations in the persona's country (their home city and every city the
world travels to), and a daily timetable of high-speed, intercity and regional trains to and from home.

Pure functions of the world, used by the projection; the same world always gives the same timetable.
"""

from __future__ import annotations

import re
import zlib

from contracts.world import World

__all__ = ["CITIES", "destinations", "stations", "timetable"]

CITIES: dict[str, tuple[str, ...]] = {
    "US": ("Seattle", "San Francisco", "Sacramento", "Los Angeles", "Chicago", "Boston", "New York"),
    "GB": ("London", "Manchester", "Birmingham", "Leeds", "Edinburgh", "Bristol", "York"),
    "IE": ("Dublin", "Cork", "Galway", "Limerick", "Waterford", "Sligo", "Belfast"),
    "AU": ("Sydney", "Melbourne", "Canberra", "Brisbane", "Adelaide", "Newcastle", "Geelong"),
    "CA": ("Toronto", "Montreal", "Ottawa", "Quebec City", "Kingston", "Windsor", "London, Ontario"),
    "DE": ("Berlin", "Hamburg", "München", "Köln", "Frankfurt", "Leipzig", "Stuttgart"),
    "AT": ("Wien", "Salzburg", "Linz", "Graz", "Innsbruck", "Klagenfurt", "Villach"),
    "FR": ("Paris", "Lyon", "Marseille", "Lille", "Bordeaux", "Nantes", "Strasbourg"),
    "ES": ("Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Málaga", "Bilbao"),
    "IT": ("Roma", "Milano", "Napoli", "Torino", "Firenze", "Bologna", "Venezia"),
    "NL": ("Amsterdam", "Rotterdam", "Utrecht", "Den Haag", "Eindhoven", "Groningen", "Maastricht"),
    "SE": ("Stockholm", "Göteborg", "Malmö", "Uppsala", "Linköping", "Örebro", "Västerås"),
    "DK": ("København", "Aarhus", "Odense", "Aalborg", "Esbjerg", "Roskilde", "Vejle"),
    "PL": ("Warszawa", "Kraków", "Gdańsk", "Wrocław", "Poznań", "Łódź", "Katowice"),
    "PT": ("Lisboa", "Porto", "Coimbra", "Braga", "Faro", "Aveiro", "Évora"),
    "BR": ("São Paulo", "Rio de Janeiro", "Campinas", "Santos", "Curitiba", "Belo Horizonte", "Niterói"),
}
"""Big stations per country (the part of the persona's locale after '_')."""

_KINDS = (  # kind, departures, speed factor, classes with price factor and seats
    ("G", ("07:00", "09:30", "13:15", "17:40"), 1.0, (("Business class", 3.0, 8), ("First class", 1.6, 24), ("Second class", 1.0, 60))),
    ("D", ("08:20", "15:05"), 1.4, (("First class", 1.4, 24), ("Second class", 0.8, 80))),
    ("K", ("06:10", "19:45"), 2.1, (("Second class", 0.55, 100),)),
)
_BOOKED = re.compile(r"^Train (?P<origin>.+) to (?P<dest>.+)$")


def destinations(world: World) -> list[str]:
    """Cities the world's booked train journeys go to (meetings titled 'Train A to B')."""
    out = []
    for m in world.meetings:
        match = _BOOKED.match(m.title)
        if match and match["dest"] not in out:
            out.append(match["dest"])
    return out


def home(world: World) -> str:
    country = world.persona.locale.rpartition("_")[2]
    return world.persona.city or CITIES.get(country, CITIES["US"])[0]


def stations(world: World) -> list[str]:
    """Station names: home first, then the world's destinations, then the country's big cities."""
    country = world.persona.locale.rpartition("_")[2]
    names = [home(world), *destinations(world), *CITIES.get(country, CITIES["US"])]
    return list(dict.fromkeys(names))


def _base_minutes(a: str, b: str) -> int:
    """High-speed journey time between two cities (symmetric)."""
    return 55 + zlib.crc32("/".join(sorted((a, b))).encode()) % 36 * 5


def timetable(names: list[str]) -> tuple[list[dict], list[dict]]:
    """(train rows, fare rows) for services between the first station (home) and every other, both ways."""
    trains: list[dict] = []
    fares: list[dict] = []
    counters = {"G": 100, "D": 300, "K": 500}
    for j in range(1, len(names)):
        base = _base_minutes(names[0], names[j])
        for origin, dest in ((1, j + 1), (j + 1, 1)):
            for kind, departs, factor, classes in _KINDS:
                for k, depart in enumerate(departs):
                    counters[kind] += 1
                    minutes = int(round(base * factor / 5.0)) * 5 + 5 * ((k + j) % 3)
                    train = {"id": len(trains) + 1, "number": f"{kind}{counters[kind]}", "kind": kind, "origin_id": origin,
                             "destination_id": dest, "depart": depart, "duration_min": minutes}
                    trains.append(train)
                    for seat_class, price_factor, seats in classes:
                        price = round((12 + base * 0.32) * price_factor + 0.5 * (k % 2), 2)
                        fares.append({"id": len(fares) + 1, "train_id": train["id"], "seat_class": seat_class, "price": price, "seats": seats})
    return trains, fares
