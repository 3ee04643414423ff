"""The notes app's tables: authors (the signed-in user, the world's people, public authors), notes with their
images, hashtags and an optional recommended place, comments, the user's collections (boards) and the notes
collected into them. Counts a real service keeps for millions (likes, collects, followers) are numbers of the
seed; the user's own like and follow are flags the user toggles.
"""

from __future__ import annotations

from pydantic import NaiveDatetime
from sqlmodel import Field

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Author(AppModel, table=True):
    """An account: the signed-in user (is_me), a person of the world (is_contact), or a public author."""

    id: int | None = Field(default=None, primary_key=True, description="Author id.")
    name: str = Field(min_length=1, description="Display name.")
    handle: str = Field(min_length=1, description="Unique handle without the '@'.")
    bio: str = Field(default="", description="Profile line.")
    email: str = Field(default="", description="Email of a person of the world; empty for public authors.")
    followers: int = Field(default=0, ge=0, description="Follower count, the user's own follow excluded.")
    is_me: bool = Field(default=False, description="True for the signed-in user's own account (exactly one).")
    is_contact: bool = Field(default=False, description="True for people of the world (colleagues, family, vendors, clients).")
    following: bool = Field(default=False, description="True when the user follows this author.")


class Note(AppModel, table=True):
    """A note: images, a title, a body, hashtags, maybe a place it recommends."""

    __tablename__ = "notepost"

    id: int | None = Field(default=None, primary_key=True, description="Note id.")
    author_id: int = Field(foreign_key="author.id", index=True, description="Who posted it.")
    title: str = Field(min_length=1, description="Title as shown on the card.")
    body: str = Field(default="", description="Text of the note.")
    tags: str = Field(default="", description="Hashtags without '#', lower case, comma-separated in the order typed.")
    place: str = Field(default="", description="Name of the place the note recommends (a café, restaurant, shop...); empty: none.")
    place_address: str = Field(default="", description="Address of that place, one line.")
    images: int = Field(default=1, ge=1, le=9, description="How many images the note has.")
    cover_hue: int = Field(default=0, ge=0, lt=360, description="Colour of the drawn images (hue 0-359).")
    likes: int = Field(default=0, ge=0, description="Likes by other people (the user's own like is `liked`).")
    liked: bool = Field(default=False, description="True when the user liked it.")
    posted_at: NaiveDatetime = Field(description="When it was posted (virtual clock).")


class NoteComment(AppModel, table=True):
    """A comment under a note."""

    __tablename__ = "notecomment"

    id: int | None = Field(default=None, primary_key=True, description="Comment id.")
    note_id: int = Field(foreign_key="notepost.id", index=True, description="Note.")
    author_id: int = Field(foreign_key="author.id", description="Who wrote it (the user's own: their author id).")
    body: str = Field(min_length=1, description="Text of the comment.")
    posted_at: NaiveDatetime = Field(description="When it was written.")


class Board(AppModel, table=True):
    """One of the user's collections (收藏专辑)."""

    id: int | None = Field(default=None, primary_key=True, description="Collection id.")
    name: str = Field(min_length=1, description="Name of the collection, unique (case aside).")
    private: bool = Field(default=False, description="True: only the user sees it.")
    created_at: NaiveDatetime = Field(description="When it was made.")


class Collect(AppModel, table=True):
    """A note collected into one of the user's collections (a note can be in several)."""

    id: int | None = Field(default=None, primary_key=True, description="Collect id.")
    note_id: int = Field(foreign_key="notepost.id", index=True, description="Note.")
    board_id: int = Field(foreign_key="board.id", index=True, description="Collection.")
    saved_at: NaiveDatetime = Field(description="When it was collected.")
