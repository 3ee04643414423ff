"""TripNest's rules apart from HTTP: what is on sale, prices on a date, change and refund terms.

Families call these too, so a task's ground truth follows the same rules the app applies.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

__all__ = ["CABINS", "SALE_DAYS", "CabinTerms", "arrival", "departure", "duration_text", "fare_price", "flight_change",
           "flight_refund", "hotel_refund", "night_rate", "nights_of", "on_sale", "stay_total"]

SALE_DAYS = 60
"""Flights and stays can be booked from today to this many days ahead."""


@dataclass(frozen=True)
class CabinTerms:
    """What a cabin's fare allows after booking."""

    change_fee: float
    """Charged on every change of date (besides any higher fare)."""
    cancel_fee: float | None
    """Kept on a cancellation; None: non-refundable."""


CABINS: dict[str, CabinTerms] = {
    "Economy": CabinTerms(change_fee=75.0, cancel_fee=None),
    "Premium economy": CabinTerms(change_fee=40.0, cancel_fee=100.0),
    "Business": CabinTerms(change_fee=0.0, cancel_fee=0.0),
}
"""Cabins, cheapest first, with their terms."""

FREE_CANCEL_HOURS = 24
"""Any flight booking can be cancelled for a full refund within this many hours of booking."""

HOTEL_FREE_HOURS = 48
"""A refundable room is free to cancel until this many hours before check-in (15:00)."""

CHECK_IN = time(15, 0)


def on_sale(now: datetime, day: date) -> bool:
    return now.date() <= day <= now.date() + timedelta(days=SALE_DAYS)


def _day(day: str | date) -> date:
    return date.fromisoformat(day) if isinstance(day, str) else day


def fare_price(base: float, fare_id: int, day: str | date) -> float:
    """A fare's price per traveller on a date: 80% to 129% of its base, fixed per fare and date."""
    factor = 80 + zlib.crc32(f"{fare_id}/{_day(day).isoformat()}".encode()) % 50
    return round(base * factor / 100, 2)


def departure(day: str | date, depart: str) -> datetime:
    return datetime.combine(_day(day), time.fromisoformat(depart))


def arrival(day: str | date, depart: str, duration_min: int) -> datetime:
    return departure(day, depart) + timedelta(minutes=duration_min)


def duration_text(minutes: int) -> str:
    """155 -> '2h 35m'."""
    return f"{minutes // 60}h {minutes % 60:02d}m"


def night_rate(base: float, night: date) -> float:
    """A room's rate for the night starting on `night`: Friday and Saturday nights cost 20% more."""
    return round(base * (1.2 if night.weekday() in (4, 5) else 1.0), 2)


def nights_of(check_in: str | date, nights: int) -> list[date]:
    start = _day(check_in)
    return [start + timedelta(days=i) for i in range(nights)]


def stay_total(base: float, check_in: str | date, nights: int) -> float:
    """The price of a stay: the sum of its nights' rates."""
    return round(sum(night_rate(base, n) for n in nights_of(check_in, nights)), 2)


def flight_change(cabin: str, old_total: float, new_total: float) -> tuple[float, float, float]:
    """(fare difference, change fee, amount due now) of moving a flight booking to a new total.

    A cheaper new date returns nothing on Economy (the difference is forfeited) and is refunded on the other cabins.
    """
    terms = CABINS[cabin]
    diff = round(new_total - old_total, 2)
    due = terms.change_fee + (diff if diff > 0 or cabin != "Economy" else 0.0)
    return diff, terms.change_fee, round(due, 2)


def flight_refund(cabin: str, total: float, booked: datetime, now: datetime) -> float:
    """What cancelling a flight booking pays back now: all within 24 hours of booking, else by the cabin's terms."""
    if now - booked <= timedelta(hours=FREE_CANCEL_HOURS):
        return round(total, 2)
    fee = CABINS[cabin].cancel_fee
    return 0.0 if fee is None else round(max(total - fee, 0.0), 2)


def hotel_refund(refundable: bool, base: float, check_in: str | date, total: float, now: datetime) -> float:
    """What cancelling a stay pays back now: a refundable rate in full until 48 h before check-in, then all but
    the first night; a non-refundable rate nothing."""
    if not refundable:
        return 0.0
    deadline = datetime.combine(_day(check_in), CHECK_IN) - timedelta(hours=HOTEL_FREE_HOURS)
    if now <= deadline:
        return round(total, 2)
    return round(max(total - night_rate(base, _day(check_in)), 0.0), 2)
