"""The reviews app's tables: businesses (category, area, hours, price level), reviews with stars and photos,
bookmark lists and the places saved in them, and table reservations. Money is a float, 2 decimals."""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Business(AppModel, table=True):
    """A place people review: a restaurant, café, bar, spa ..."""

    id: int | None = Field(default=None, primary_key=True, description="Business id.")
    name: str = Field(min_length=1, description="Name as shown.")
    category: str = Field(description="'Restaurants', 'Cafés', 'Bars', 'Beauty & spa', 'Fitness'.")
    cuisine: str = Field(default="", description="Kind within the category, e.g. 'Sichuan', 'Italian', 'Yoga'.")
    area: str = Field(description="Neighbourhood, e.g. 'Downtown'.")
    address: str = Field(description="Street address, one line.")
    price_level: int = Field(ge=1, le=4, description="1-4, shown as $ to $$$$.")
    avg_price: float = Field(ge=0, description="Average spend per person.")
    rating: float = Field(ge=0, le=5, description="Average of its reviews' stars, one decimal.")
    review_count: int = Field(ge=0, description="Number of reviews.")
    opens: str = Field(description="Opening time 'HH:MM'.")
    closes: str = Field(description="Closing time 'HH:MM' (same day).")
    closed_weekday: int = Field(default=-1, ge=-1, le=6, description="Weekday it is closed (0 Monday ... 6 Sunday); -1: open every day.")
    reservable: bool = Field(default=False, description="True if it takes table reservations.")
    max_party: int = Field(default=8, ge=1, description="Largest party it seats in one reservation.")
    phone: str = Field(default="", description="Phone number.")


class Review(AppModel, table=True):
    """One person's review of a business."""

    id: int | None = Field(default=None, primary_key=True, description="Review id.")
    business_id: int = Field(foreign_key="business.id", index=True, description="Business.")
    author: str = Field(description="Reviewer's name as shown.")
    mine: bool = Field(default=False, description="True for the signed-in user's own reviews.")
    stars: int = Field(ge=1, le=5, description="1-5 stars.")
    text: str = Field(min_length=1, description="The review.")
    photos: int = Field(default=0, ge=0, le=6, description="Photos attached.")
    written_at: NaiveDatetime = Field(description="When it was posted.")


class BookmarkList(AppModel, table=True):
    """A list of saved places ('Favourites', 'Team lunches' ...)."""

    __tablename__ = "bookmarklist"

    id: int | None = Field(default=None, primary_key=True, description="List id.")
    name: str = Field(min_length=1, description="List name, unique.")


class Bookmark(AppModel, table=True):
    """A business saved in a list."""

    id: int | None = Field(default=None, primary_key=True, description="Bookmark id.")
    list_id: int = Field(foreign_key="bookmarklist.id", index=True, description="List.")
    business_id: int = Field(foreign_key="business.id", description="Saved business.")


class Reservation(AppModel, table=True):
    """A table reservation."""

    id: int | None = Field(default=None, primary_key=True, description="Reservation id.")
    number: str = Field(description="Confirmation number as shown.")
    business_id: int = Field(foreign_key="business.id", description="Where.")
    day: str = Field(description="Date 'YYYY-MM-DD'.")
    time: str = Field(description="Time 'HH:MM'.")
    party: int = Field(ge=1, description="People.")
    name: str = Field(description="Name the table is under.")
    phone: str = Field(default="", description="Contact phone.")
    note: str = Field(default="", description="Note for the restaurant.")
    status: Literal["booked", "cancelled"] = Field(default="booked", sa_type=String, description="'booked' or 'cancelled'.")
    created_at: NaiveDatetime = Field(description="When it was made (virtual clock).")
