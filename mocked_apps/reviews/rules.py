"""Reservation rules apart from HTTP: the bookable times of a business, and why a date, time and party cannot
be booked. Routes and families call the same rules."""

from __future__ import annotations

from datetime import date, datetime, timedelta

__all__ = ["AHEAD_DAYS", "LEAD", "reservation_error", "slots"]

AHEAD_DAYS = 30
"""Reservations are taken up to this many days ahead."""
LEAD = timedelta(hours=1)
"""... and at least this long before the time."""
LAST_SEATING = timedelta(hours=1)
"""The last table is an hour before closing."""


def slots(opens: str, closes: str) -> list[str]:
    """Bookable times 'HH:MM', every half hour from opening to an hour before closing."""
    t, end = datetime.strptime(opens, "%H:%M"), datetime.strptime(closes, "%H:%M") - LAST_SEATING
    out = []
    while t <= end:
        out.append(f"{t:%H:%M}")
        t += timedelta(minutes=30)
    return out


def reservation_error(opens: str, closes: str, closed_weekday: int, max_party: int, day: str, time: str, party: int | None,
                      now: datetime) -> str | None:
    """Why a business (its hours, closed weekday and largest party) cannot take this reservation, or None."""
    try:
        when = date.fromisoformat(day)
    except ValueError:
        return "Choose a date."
    if when < now.date() or when > now.date() + timedelta(days=AHEAD_DAYS):
        return f"Choose a date from today to {AHEAD_DAYS} days ahead."
    if when.weekday() == closed_weekday:
        return f"Closed on {when:%A}s."
    if time not in slots(opens, closes):
        return "Choose one of the times it takes reservations."
    if datetime.combine(when, datetime.strptime(time, "%H:%M").time()) < now + LEAD:
        return "Reserve at least an hour ahead."
    if party is None or not 1 <= party <= max_party:
        return f"Parties of 1 to {max_party}."
    return None
