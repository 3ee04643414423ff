"""The event form: what was typed, re-shown on error, and turned into validated values."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta

from .models import Calendar, Event

_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
_NAMED = re.compile(r"^(?P<name>.*?)\s*<(?P<email>[^<>]+)>$")


class FormError(ValueError):
    """A field the person must fix: `field` names the form field, the message is shown under it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass
class Guest:
    email: str
    name: str


@dataclass
class EventForm:
    """The fields of the create/edit form, as strings, exactly as submitted."""

    title: str = ""
    calendar_id: str = ""
    start_date: str = ""
    start_time: str = "10:00"
    end_date: str = ""
    end_time: str = "11:00"
    all_day: bool = False
    location: str = ""
    description: str = ""
    guests: str = ""

    @classmethod
    def blank(cls, day: date, hour: int, calendar_id: int | None) -> "EventForm":
        """A new-event form starting at `hour` on `day`, one hour long."""
        hour = min(max(hour, 0), 22)
        return cls(
            calendar_id=str(calendar_id or ""),
            start_date=day.isoformat(),
            end_date=day.isoformat(),
            start_time=f"{hour:02d}:00",
            end_time=f"{hour + 1:02d}:00",
        )

    @classmethod
    def of(cls, event: Event, guests: list[Guest]) -> "EventForm":
        """The form showing an existing event (all-day end dates are shown inclusive)."""
        last = event.end - timedelta(days=1) if event.all_day else event.end
        return cls(
            title=event.title,
            calendar_id=str(event.calendar_id),
            start_date=event.start.date().isoformat(),
            start_time="09:00" if event.all_day else event.start.strftime("%H:%M"),
            end_date=last.date().isoformat(),
            end_time="10:00" if event.all_day else event.end.strftime("%H:%M"),
            all_day=event.all_day,
            location=event.location,
            description=event.description,
            guests="\n".join(format_guest(g) for g in guests),
        )

    def values(self, calendars: list[Calendar]) -> dict:
        """Validated Event fields (title, calendar_id, start, end, all_day, location, description)."""
        title = self.title.strip()
        if not title:
            raise FormError("title", "Add a title.")
        ids = {c.id for c in calendars}
        try:
            calendar_id = int(self.calendar_id)
        except ValueError:
            calendar_id = None
        if calendar_id not in ids:
            raise FormError("calendar_id", "Choose a calendar.")
        start_day = _date(self.start_date, "start date")
        end_day = _date(self.end_date, "end date") if self.end_date.strip() else start_day
        if self.all_day:
            start, end = datetime.combine(start_day, time()), datetime.combine(end_day + timedelta(days=1), time())
            if end_day < start_day:
                raise FormError("end_date", "The end date must not be before the start date.")
        else:
            start = datetime.combine(start_day, _time(self.start_time, "start time"))
            end = datetime.combine(end_day, _time(self.end_time, "end time"))
            if end <= start:
                raise FormError("end_time", "The end must be after the start.")
        return {
            "title": title,
            "calendar_id": calendar_id,
            "start": start,
            "end": end,
            "all_day": self.all_day,
            "location": self.location.strip(),
            "description": self.description.strip(),
        }

    def guest_list(self, directory: dict[str, str], organizer_email: str) -> list[Guest]:
        """The guests typed in, one per line or comma-separated; the organiser is left out."""
        return parse_guests(self.guests, directory, organizer_email)

    def as_dict(self) -> dict:
        return asdict(self)


def parse_guests(text: str, directory: dict[str, str], organizer_email: str = "") -> list[Guest]:
    """'Name <email>' or 'email' items -> guests, names filled from the directory when missing."""
    guests: dict[str, Guest] = {}
    for item in re.split(r"[\n,;]+", text):
        item = item.strip()
        if not item:
            continue
        named = _NAMED.match(item)
        name, email = (named["name"].strip().strip('"'), named["email"].strip()) if named else ("", item)
        email = email.lower()
        if not _EMAIL.match(email):
            raise FormError("guests", f"{item!r} is not an email address.")
        if email == organizer_email.lower() or email in guests:
            continue
        guests[email] = Guest(email=email, name=name or directory.get(email) or name_from_email(email))
    return list(guests.values())


def format_guest(guest: Guest) -> str:
    return f"{guest.name} <{guest.email}>" if guest.name else guest.email


def name_from_email(email: str) -> str:
    """'dana.whitfield@x' -> 'Dana Whitfield' (a guess for people not seen before)."""
    local = email.split("@", 1)[0]
    return " ".join(part.capitalize() for part in re.split(r"[._-]+", local) if part)


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise FormError(what.replace(" ", "_"), f"Enter the {what} as YYYY-MM-DD.") from None


def _time(value: str, what: str) -> time:
    try:
        return time.fromisoformat(value.strip())
    except ValueError:
        raise FormError(what.replace(" ", "_"), f"Enter the {what} as HH:MM.") from None
