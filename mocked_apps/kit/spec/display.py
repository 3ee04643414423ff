"""How a compiled app shows a field's value (money, dates, refs): one place, read by the archetypes' templates
and by derived golden code (what a person reads off the page is what it answers)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from mocked_apps.kit.filters import money

from .model import FieldSpec


DATE_FORMAT = "%b %d, %Y"


def fmt(f: FieldSpec, value: Any, titles: dict[int, str] | None = None, dates: str = DATE_FORMAT) -> str:
    """A value as the app shows it: money as $1,234.50, dates as Mar 03, 2026 (or an appearance variant's `dates`
    format), refs by their title."""
    if value is None or value == "":
        return "—"
    if f.type == "money":
        return money(value)
    if f.type == "date":
        value = date.fromisoformat(value) if isinstance(value, str) else value
        return value.strftime(dates)
    if f.type == "datetime":
        value = datetime.fromisoformat(value) if isinstance(value, str) else value
        return value.strftime(f"{dates} %H:%M")
    if f.type == "bool":
        return "Yes" if value else "No"
    if f.type == "ref":
        return (titles or {}).get(value, f"#{value}")
    if f.type == "number":
        return f"{value:g}"
    return str(value)



__all__ = ["fmt"]
