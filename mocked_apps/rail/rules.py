"""The rail app's rules apart from HTTP: the booking window, seat availability, fares, seats, refund fees.

Availability = a fare's seats - seats sold elsewhere (a fixed function of fare and date, the same in
every process) - this instance's live tickets. Families call these too, so a task's ground truth is
computed by the same rules the app applies.
"""

from __future__ import annotations

import zlib
from datetime import date, datetime, time, timedelta

__all__ = ["BOOKING_DAYS", "RefundError", "arrival", "bookable_dates", "departure", "duration_text", "live_statuses",
           "refund_rate", "refund_value", "seat_for", "sold_elsewhere", "ticket_price"]

BOOKING_DAYS = 15
"""Tickets go on sale this many days ahead, today included."""

live_statuses = ("unpaid", "paid")
"""Orders whose tickets hold seats."""


class RefundError(ValueError):
    """A ticket that cannot be refunded (already travelled, or not active)."""


def sold_elsewhere(fare_id: int, seats: int, day: str) -> int:
    """Seats of a fare sold on other channels for a date: about one class in eight is sold out."""
    h = zlib.crc32(f"{fare_id}/{day}".encode()) % 100
    if h < 12:
        return seats
    return seats * (h % 70) // 100


def bookable_dates(now: datetime) -> list[date]:
    """The dates on sale: today and the next BOOKING_DAYS - 1 days."""
    return [now.date() + timedelta(days=i) for i in range(BOOKING_DAYS)]


def departure(day: str | date, depart: str) -> datetime:
    """The datetime a train leaves on a date."""
    d = date.fromisoformat(day) if isinstance(day, str) else day
    return datetime.combine(d, time.fromisoformat(depart))


def arrival(day: str | date, depart: str, duration_min: int) -> datetime:
    return departure(day, depart) + timedelta(minutes=duration_min)


def duration_text(minutes: int) -> str:
    """155 -> '2h 35m' (how the app shows a journey time)."""
    return f"{minutes // 60}h {minutes % 60:02d}m"


def ticket_price(fare_price: float, kind: str) -> float:
    """A passenger's price: children pay half, seniors 80%."""
    return round(fare_price * {"child": 0.5, "senior": 0.8}.get(kind, 1.0), 2)


_LETTERS = "ABCDF"  # five seats a row: A and F by the window, C and D on the aisle
_ROWS = 20  # rows per coach


def _seats(count: int) -> list[tuple[int, str]]:
    """Every seat of a class in sale order (coach by coach, row by row, A to F)."""
    return [(1 + i // (_ROWS * 5), f"{1 + i // 5 % _ROWS:02d}{_LETTERS[i % 5]}") for i in range(count)]


def seat_for(count: int, sold_elsewhere_n: int, taken: set[tuple[int, str]], prefer: str) -> tuple[int, str]:
    """The seat a new ticket gets: the first free one, window (A/F) or aisle (C/D) seats first when preferred.

    The first `sold_elsewhere_n` seats in sale order are sold on other channels; `taken` are this instance's tickets.
    """
    seats = _seats(count)
    free = [s for s in seats[sold_elsewhere_n:] if s not in taken] or [s for s in seats if s not in taken] or seats
    wanted = {"window": "AF", "aisle": "CD"}.get(prefer, "")
    return next((s for s in free if s[1][-1] in wanted), free[0])


def refund_rate(leaves: datetime, now: datetime) -> float:
    """The refund fee as a share of the price: free 8+ days before, 5% from 48 h, 10% from 24 h, 20% in the last day."""
    hours = (leaves - now).total_seconds() / 3600
    if hours <= 0:
        raise RefundError("This train has already left; its tickets can no longer be refunded.")
    if hours >= 192:
        return 0.0
    if hours >= 48:
        return 0.05
    if hours >= 24:
        return 0.10
    return 0.20


def refund_value(price: float, leaves: datetime, now: datetime) -> float:
    """What a refund of a ticket of `price` pays back now."""
    return round(price * (1 - refund_rate(leaves, now)), 2)
