"""The places of a world: its cities (home first, then where the world travels, then the country's big
cities), their airports, the daily flights between home and each, and each city's hotels.

Pure functions of the world, used by the projection: the same world always gives the same schedule.
"""

from __future__ import annotations

import re
import zlib

from contracts.world import World

__all__ = ["AIRLINES", "CITIES", "ROOMS", "cities", "flights", "home", "hotels", "world_stays"]

CITIES: dict[str, tuple[tuple[str, str], ...]] = {
    "US": (("Seattle", "SEA"), ("San Francisco", "SFO"), ("Los Angeles", "LAX"), ("Chicago", "ORD"), ("New York", "JFK"), ("Denver", "DEN")),
    "GB": (("London", "LHR"), ("Manchester", "MAN"), ("Edinburgh", "EDI"), ("Belfast", "BFS"), ("Glasgow", "GLA"), ("Bristol", "BRS")),
    "IE": (("Dublin", "DUB"), ("Cork", "ORK"), ("Shannon", "SNN"), ("London", "LHR"), ("Paris", "CDG"), ("Amsterdam", "AMS")),
    "AU": (("Sydney", "SYD"), ("Melbourne", "MEL"), ("Brisbane", "BNE"), ("Perth", "PER"), ("Adelaide", "ADL"), ("Canberra", "CBR")),
    "CA": (("Toronto", "YYZ"), ("Montreal", "YUL"), ("Vancouver", "YVR"), ("Calgary", "YYC"), ("Ottawa", "YOW"), ("Halifax", "YHZ")),
    "DE": (("Berlin", "BER"), ("München", "MUC"), ("Frankfurt", "FRA"), ("Hamburg", "HAM"), ("Köln", "CGN"), ("Stuttgart", "STR")),
    "AT": (("Wien", "VIE"), ("Salzburg", "SZG"), ("Innsbruck", "INN"), ("Graz", "GRZ"), ("Linz", "LNZ"), ("Zürich", "ZRH")),
    "FR": (("Paris", "CDG"), ("Lyon", "LYS"), ("Marseille", "MRS"), ("Nice", "NCE"), ("Toulouse", "TLS"), ("Bordeaux", "BOD")),
    "ES": (("Madrid", "MAD"), ("Barcelona", "BCN"), ("Valencia", "VLC"), ("Sevilla", "SVQ"), ("Málaga", "AGP"), ("Bilbao", "BIO")),
    "IT": (("Roma", "FCO"), ("Milano", "MXP"), ("Napoli", "NAP"), ("Venezia", "VCE"), ("Torino", "TRN"), ("Bologna", "BLQ")),
    "NL": (("Amsterdam", "AMS"), ("Rotterdam", "RTM"), ("Eindhoven", "EIN"), ("London", "LHR"), ("Paris", "CDG"), ("Berlin", "BER")),
    "SE": (("Stockholm", "ARN"), ("Göteborg", "GOT"), ("Malmö", "MMX"), ("Luleå", "LLA"), ("Umeå", "UME"), ("Visby", "VBY")),
    "DK": (("København", "CPH"), ("Aarhus", "AAR"), ("Aalborg", "AAL"), ("Billund", "BLL"), ("Oslo", "OSL"), ("Stockholm", "ARN")),
    "PL": (("Warszawa", "WAW"), ("Kraków", "KRK"), ("Gdańsk", "GDN"), ("Wrocław", "WRO"), ("Poznań", "POZ"), ("Katowice", "KTW")),
    "PT": (("Lisboa", "LIS"), ("Porto", "OPO"), ("Faro", "FAO"), ("Funchal", "FNC"), ("Madrid", "MAD"), ("Paris", "CDG")),
    "BR": (("São Paulo", "GRU"), ("Rio de Janeiro", "GIG"), ("Brasília", "BSB"), ("Salvador", "SSA"), ("Curitiba", "CWB"), ("Recife", "REC")),
}
"""Big cities with their airports per country (the part of the persona's locale after '_')."""

AIRLINES = (("Skyward Air", "SK"), ("Bluecrest Airways", "BC"), ("Northline", "NL"), ("Aurora Jet", "AJ"))

_HOTEL_STAY = re.compile(r"^Hotel (?P<hotel>.+), (?P<city>.+)$")
_TRAIN = re.compile(r"^Train (?P<origin>.+) to (?P<dest>[^(]+?)( \(.*\))?$")
_HOTEL_WORDS = (("Grand {city} Hotel", 4), ("{city} Harbour Inn", 3), ("The Meridian {city}", 5), ("Parkside Suites {city}", 4),
                ("Budget Stay {city} Central", 2))
_AREAS = ("City Centre", "Old Town", "Waterfront", "Airport", "Business District", "Riverside")
_AMENITIES = ("Free Wi-Fi", "Breakfast included", "Pool", "Gym", "Parking", "Airport shuttle", "Spa")
ROOMS = (("Standard queen room", 2, 1.0, False), ("Deluxe king room", 2, 1.35, True), ("Family suite", 4, 2.1, True))
"""(room type, sleeps, rate factor, refundable): the rooms of every hotel."""


def _country(world: World) -> str:
    return world.persona.locale.rpartition("_")[2]


def home(world: World) -> str:
    return world.persona.city or CITIES.get(_country(world), CITIES["US"])[0][0]


def world_stays(world: World) -> list[tuple[str, str]]:
    """(hotel, city) of the world's booked hotel stays (meetings titled 'Hotel <name>, <city>'), in order."""
    out = []
    for m in sorted(world.meetings, key=lambda m: (m.start, m.id)):
        match = _HOTEL_STAY.match(m.title)
        if match and (match["hotel"], match["city"]) not in out:
            out.append((match["hotel"], match["city"]))
    return out


def _destinations(world: World) -> list[str]:
    out = [city for _, city in world_stays(world)]
    for m in world.meetings:
        match = _TRAIN.match(m.title)
        if match:
            out.append(match["dest"].strip())
    return out


def _code(name: str, taken: list[str]) -> str:
    letters = "".join(c for c in name.upper() if "A" <= c <= "Z")[:3].ljust(3, "X")
    while letters in taken:
        letters = letters[:2] + chr(ord("A") + (ord(letters[2]) - ord("A") + 1) % 26)
    return letters


def cities(world: World) -> list[tuple[str, str]]:
    """(name, airport code): home first, then the world's destinations, then the country's big cities (seven in all at least)."""
    known = dict(CITIES.get(_country(world), CITIES["US"]))
    names = list(dict.fromkeys([home(world), *_destinations(world), *known]))
    out: list[tuple[str, str]] = []
    for n in names:
        out.append((n, known.get(n) or _code(n, [c for _, c in out] + list(known.values()))))
    return out


def _base_minutes(a: str, b: str) -> int:
    """Nonstop flying time between two cities (symmetric)."""
    return 60 + zlib.crc32("/".join(sorted((a, b))).encode()) % 33 * 5


_NONSTOP = ("06:40", "09:15", "12:30", "17:05", "20:50")
_ONE_STOP = ("07:55", "14:20")


def _hub(places: list[tuple[str, str]], j: int) -> str:
    """The airport code a one-stop flight between home and city `j` stops at: another city of the list."""
    others = [code for i, (_, code) in enumerate(places) if i not in (0, j)]
    return others[j % len(others)]


def flights(places: list[tuple[str, str]]) -> tuple[list[dict], list[dict]]:
    """(flight rows, fare rows): nonstop and one-stop flights between home (the first city) and every other, both ways."""
    rows: list[dict] = []
    fares: list[dict] = []
    numbers: dict[str, int] = {}
    for j in range(1, len(places)):
        base = _base_minutes(places[0][0], places[j][0])
        hub = _hub(places, j)
        for origin, dest in ((1, j + 1), (j + 1, 1)):
            schedule = [(d, 0) for d in _NONSTOP] + [(d, 1) for d in _ONE_STOP]
            for k, (depart, stops) in enumerate(schedule):
                name, code = AIRLINES[(j + k + origin) % len(AIRLINES)]
                numbers[code] = numbers.get(code, 100 + 37 * (j % 5)) + 7
                minutes = base + 5 * ((k * 3 + j) % 4) + (95 + 5 * (k % 5) if stops else 0)
                flight = {"id": len(rows) + 1, "number": f"{code}{numbers[code]}", "airline": name, "origin_id": origin,
                          "destination_id": dest, "depart": depart, "duration_min": minutes, "stops": stops,
                          "via": hub if stops else ""}
                rows.append(flight)
                economy = round(45 + base * 0.9 - (18 if stops else 0) + 6 * (k % 3), 2)
                cabins = (("Economy", 1.0), ("Premium economy", 1.7), ("Business", 3.2)) if not stops else (("Economy", 1.0), ("Business", 2.8))
                for cabin, factor in cabins:
                    fares.append({"id": len(fares) + 1, "flight_id": flight["id"], "cabin": cabin, "price": round(economy * factor, 2)})
    return rows, fares


def hotels(places: list[tuple[str, str]], booked: list[tuple[str, str]]) -> tuple[list[dict], list[dict]]:
    """(hotel rows, room rows): every city but home gets four hotels of its own, plus the world's booked hotels."""
    rows: list[dict] = []
    rooms: list[dict] = []
    for cid, (city, _) in enumerate(places[1:], start=2):
        h = zlib.crc32(city.encode())
        names = [_HOTEL_WORDS[(h + i) % len(_HOTEL_WORDS)] for i in range(4)]
        names += [(name, 4) for name, c in booked if c == city]
        for pattern, stars in names:
            _hotel(rows, rooms, pattern.format(city=city), cid, stars)
    return rows, rooms


def _hotel(rows: list[dict], rooms: list[dict], name: str, city_id: int, stars: int) -> None:
    h = zlib.crc32(name.encode())
    hid = len(rows) + 1
    amenities = [a for i, a in enumerate(_AMENITIES) if (h >> i) % 3 == 0] or [_AMENITIES[0]]
    rows.append({"id": hid, "name": name, "city_id": city_id, "stars": stars, "rating": round(6.8 + (h % 30) / 10, 1),
                 "reviews": 120 + h % 2400, "area": _AREAS[h % len(_AREAS)], "amenities": ", ".join(amenities)})
    base = 55 + stars * 28 + h % 40
    for room, sleeps, factor, refundable in ROOMS:
        rooms.append({"id": len(rooms) + 1, "hotel_id": hid, "name": room, "sleeps": sleeps, "price": round(base * factor, 2),
                      "refundable": refundable})
