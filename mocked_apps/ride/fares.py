"""Fare rules apart from HTTP: a route's distance and minutes between two places on the city grid, a vehicle
class's fare for them, and the total with a tip. Routes, the projection and families all call these."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Fare", "ROAD_FACTOR", "fare", "route"]

ROAD_FACTOR = 1.25
"""Roads are longer than the straight line between two places."""
KM_PER_MIN = 0.5
"""City traffic: 30 km/h."""


def route(x1: float, y1: float, x2: float, y2: float) -> tuple[float, int]:
    """(km, minutes) of the drive between two grid points: km to one decimal, 3 minutes of getting going included."""
    km = round(math.hypot(x2 - x1, y2 - y1) * ROAD_FACTOR, 1)
    return km, int(round(3 + km / KM_PER_MIN))


@dataclass(frozen=True)
class Fare:
    """A fare's parts as the receipt shows them; `amount` is at least the class's minimum fare."""

    base: float
    distance: float
    time: float
    amount: float


def fare(base: float, per_km: float, per_min: float, min_fare: float, km: float, minutes: int) -> Fare:
    """The fare of a class (its rates) for a route."""
    distance, time = round(per_km * km, 2), round(per_min * minutes, 2)
    return Fare(base, distance, time, round(max(min_fare, base + distance + time), 2))
