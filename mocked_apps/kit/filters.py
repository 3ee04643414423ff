"""Jinja2 filters every app template may use."""

from __future__ import annotations

from datetime import date, datetime


def money(value: float | int | None, currency: str = "$") -> str:
    """1234.5 -> '$1,234.50'; negatives as '-$12.00'."""
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    return f"{sign}{currency}{abs(value):,.2f}"


def dt(value: datetime | str | None, fmt: str = "%b %d, %Y %H:%M") -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.strftime(fmt)


def day(value: date | datetime | str | None, fmt: str = "%b %d, %Y") -> str:
    return dt(value, fmt)


FILTERS = {"money": money, "dt": dt, "day": day}
