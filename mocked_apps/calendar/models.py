"""Calendar tables: calendars, events and their invitees.

The signed-in user is the kit's identity (`gym.identity`): events they organise are editable, invitations to
them get RSVPs.
"""

from __future__ import annotations

import re

from pydantic import NaiveDatetime, field_validator
from sqlmodel import Field

from mocked_apps.kit.tables import namespace

RSVP_ANSWERS = ("pending", "yes", "no", "maybe")


AppModel = namespace()
"""This app's table namespace (table names unique within the app only)."""


class Calendar(AppModel, table=True):
    """A named, coloured calendar such as Work or Personal."""

    id: int | None = Field(default=None, primary_key=True, description="Calendar id.")
    name: str = Field(min_length=1, description="Name shown in the side bar, e.g. 'Work'.")
    color: str = Field(default="#2f6fed", description="Hex colour, e.g. '#2f6fed'.")

    @field_validator("color")
    @classmethod
    def _hex_colour(cls, value: str) -> str:
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            raise ValueError("must be a hex colour like '#2f6fed'")
        return value


class Event(AppModel, table=True):
    """One event on one calendar; `end` is exclusive (all-day events end at midnight after the last day)."""

    id: int | None = Field(default=None, primary_key=True, description="Event id.")
    calendar_id: int = Field(foreign_key="calendar.id", description="The calendar it is on.")
    title: str = Field(min_length=1, description="Event title, e.g. 'Month-end close review'.")
    start: NaiveDatetime = Field(description="Start, local time, e.g. '2026-03-04T14:00:00'.")
    end: NaiveDatetime = Field(description="End, local time, after start.")
    all_day: bool = Field(default=False, description="True for all-day events (start and end at midnight).")
    location: str = Field(default="", description="Where it happens, free text.")
    description: str = Field(default="", description="Notes or agenda, free text.")
    organizer_email: str = Field(description="Email address of the organiser.")
    organizer_name: str = Field(default="", description="Display name of the organiser.")


class Invitee(AppModel, table=True):
    """A guest of an event and their answer."""

    id: int | None = Field(default=None, primary_key=True, description="Invitee row id.")
    event_id: int = Field(foreign_key="event.id", description="The event they are invited to.")
    email: str = Field(min_length=3, description="Guest email address.")
    name: str = Field(default="", description="Guest display name.")
    rsvp: str = Field(default="pending", description="'pending', 'yes', 'no' or 'maybe'.")

    @field_validator("rsvp")
    @classmethod
    def _known_answer(cls, value: str) -> str:
        if value not in RSVP_ANSWERS:
            raise ValueError(f"must be one of {', '.join(RSVP_ANSWERS)}")
        return value
