"""What every world's ride app knows: the vehicle classes and their rates, the city's landmarks (placed on a
grid around the office at positions that vary by world), and the drivers a booking is given."""

from __future__ import annotations

import math
import zlib

__all__ = ["CLASSES", "LANDMARKS", "driver", "grid"]

# name, seats, base, per km, per min, minimum, pickup minutes, blurb
CLASSES = (
    ("Express", 4, 2.0, 1.05, 0.22, 6.0, 3, "Affordable everyday rides"),
    ("Comfort", 4, 3.0, 1.35, 0.28, 8.0, 5, "Newer cars, more legroom"),
    ("Premier", 4, 5.0, 1.9, 0.4, 12.0, 7, "Top-rated drivers, premium cars"),
    ("XL", 6, 4.0, 1.6, 0.32, 10.0, 6, "Rides for groups of up to 6"),
    ("Taxi", 4, 3.5, 0.95, 0.18, 7.0, 4, "Licensed city taxis, metered fare"),
)

# name (with {city}), street, ring (km from the office, roughly)
LANDMARKS = (
    ("{city} International Airport", "7000 Airport Way", 18.0),
    ("Union Station", "800 Station Plaza", 2.0),
    ("Convention Center", "777 Convention Way", 3.0),
    ("City Hall", "1221 Civic Avenue", 1.5),
    ("Riverside Park", "River Road & 3rd Street", 4.0),
    ("Central Library", "801 Library Lane", 1.2),
    ("Museum of Art", "1219 Park Avenue", 2.5),
    ("General Hospital", "3181 Hospital Drive", 5.0),
    ("University Campus", "1825 College Street", 6.0),
    ("Old Town Market", "200 Market Street", 2.2),
    ("Stadium", "1 Stadium Way", 4.5),
    ("Lakeside Mall", "9300 Lakeside Boulevard", 11.0),
)

_DRIVERS = ("Daniel Ortiz", "Mei Lin", "Samuel Okafor", "Priya Raman", "Lucas Weber", "Aisha Bello", "Tomás Ruiz",
            "Hana Sato", "Omar Haddad", "Grace Kim", "Ivan Petrov", "Chloe Martin")
_CARS = ("White Toyota Camry", "Silver Honda Accord", "Black Tesla Model 3", "Blue Hyundai Ioniq", "Grey Kia Niro",
         "White Ford Transit", "Red Mazda 6", "Black Lincoln Aviator")


def grid(world_key: str, name: str, ring: float) -> tuple[float, float]:
    """A place's (x, y) km from the office: about `ring` km away in a direction that depends on `world_key` and `name`."""
    h = zlib.crc32(f"{world_key}/{name}".encode())
    angle = math.radians(h % 360)
    r = ring * (0.8 + (h >> 9) % 40 / 100)
    return round(r * math.cos(angle), 2), round(r * math.sin(angle), 2)


def driver(ride_number: str) -> tuple[str, str, str]:
    """(name, car, plate) of the driver a ride is given: the same ride number, the same driver."""
    h = zlib.crc32(ride_number.encode())
    letters = "".join(chr(65 + (h >> s) % 26) for s in (3, 8, 13))
    return _DRIVERS[h % len(_DRIVERS)], _CARS[(h >> 4) % len(_CARS)], f"{letters} {h % 9000 + 1000}"
