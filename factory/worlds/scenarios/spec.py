"""A scenario as data: the cast it brings in and the beats it plays (meetings, documents, mail,
spending, bills, bookings). `factory.worlds.beats` expands each beat into world records.

Text fields are templates filled from the world's context with `str.format`: `{user}`, `{user_first}`,
`{company}`, `{city}`, `{dest}`, `{month}`, `{next_month}`, `{year}`, `{client}`, `{client_first}`,
`{colleague}`, `{colleague_first}`, `{relative}`, `{relative_first}`, `{key_date}`, `{ref}`, each cast
member's key (its organisation's name) and `{<key>_first}` (its contact's first name), and each
key of `choices`.

`who` names a party: "user", "colleague" (one colleague), "colleagues" (a few), "client", "vendor"
(one of the persona's routine vendors), "household" (a family member), or a cast key.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Beat", "Bill", "Booking", "Cast", "Doc", "Mail", "Meet", "ScenarioSpec", "Spend"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Cast(_Frozen):
    """An organisation the scenario brings in (a clinic, movers, an insurer...) and its people."""

    key: str = Field(description="Placeholder name, e.g. 'clinic' -> {clinic}, {clinic_first}.")
    kind: Literal["vendor", "client", "service"] = "service"
    names: tuple[str, ...] = Field(description="Name templates; {last} is a surname of the persona's locale.")
    roles: tuple[str, ...] = ("front desk",)
    category: str = Field(default="services", description="Bank category of what it bills.")


class Meet(_Frozen):
    """Calendar events: one, or a series every `every_days`."""

    kind: Literal["meet"] = "meet"
    title: str
    who: str = "colleagues"
    organizer: Literal["user", "them"] = "user"
    days: tuple[int, int] = Field(default=(1, 10), description="Day offsets from the clock of the first one (negative: past).")
    count: int = Field(default=1, ge=1, le=12)
    every_days: int = Field(default=7, ge=1)
    minutes: int = Field(default=60, ge=15, le=240)
    hours: tuple[int, ...] = (9, 11, 14, 16)
    location: tuple[str, ...] = ("Video call",)
    description: str = ""


class Doc(_Frozen):
    """A document (text) or a table in the drive."""

    kind: Literal["doc"] = "doc"
    name: str
    folder: str
    text: str = ""
    columns: tuple[str, ...] = Field(default=(), description="A table's header; rows come from `rows`.")
    rows: tuple[tuple[str, ...], ...] = ()
    owner: Literal["user", "colleague", "client"] = "user"
    outdated: bool = Field(default=True, description="May have an older version beside it (a distractor).")


class Mail(_Frozen):
    """An email thread: a first message and replies, optionally with documents attached."""

    kind: Literal["mail"] = "mail"
    subject: str
    body: str
    sender: str = "colleague"
    to: str = Field(default="user", description="Who the first message goes to (the user, unless the user writes it).")
    cc: tuple[str, ...] = ()
    replies: tuple[str, ...] = Field(default=(), description="Bodies of replies, alternating user / sender.")
    days_ago: tuple[int, int] = (1, 6)
    attach: tuple[str, ...] = Field(default=(), description="Names (templates) of documents this scenario writes.")
    unread: bool = False


class Spend(_Frozen):
    """Card or account transactions of the scenario."""

    kind: Literal["spend"] = "spend"
    items: tuple[tuple[str, float, float], ...] = Field(description="(description template, lowest, highest amount).")
    category: str
    account: Literal["card", "checking"] = "card"
    count: tuple[int, int] = (2, 4)
    days_ago: tuple[int, int] = (1, 20)
    refund: bool = Field(default=False, description="The first charge is refunded later, in part or whole.")


class Bill(_Frozen):
    """An invoice from a cast member or a routine vendor, emailed to the user."""

    kind: Literal["bill"] = "bill"
    sender: str = Field(description="A cast key of kind vendor/service, or 'vendor'.")
    items: tuple[tuple[str, float], ...]
    description: str
    paid: float = Field(default=0.3, ge=0, le=1, description="Chance it is already paid.")


class Booking(_Frozen):
    """A reservation: confirmation email, card charge with the booking reference, calendar entry."""

    kind: Literal["booking"] = "booking"
    what: str = Field(description="Title template, e.g. 'Train {city} to {dest}'.")
    provider: str = Field(description="Cast key of the seller.")
    price: tuple[float, float]
    day: tuple[int, int] = (3, 12)
    hour: tuple[int, ...] = (8, 10, 15)
    minutes: int = 120
    category: str = "travel"


Beat = Annotated[Union[Meet, Doc, Mail, Spend, Bill, Booking], Field(discriminator="kind")]


class ScenarioSpec(_Frozen):
    """One entry of the scenario catalogue: when it happens, who it brings in, what it plays."""

    id: str
    title: str
    description: str = Field(description="Template; the world's scenario gets it filled.")
    kind: Literal["work", "life"] = "work"
    months: tuple[int, ...] = tuple(range(1, 13))
    days: tuple[int, int] = Field(default=(1, 28), description="Day-of-month range of the clock.")
    cast: tuple[Cast, ...] = ()
    choices: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Extra placeholders: one value drawn per world.")
    beats: tuple[Beat, ...]
