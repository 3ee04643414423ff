"""The clips app's tables: creators (the signed-in user, the world's people as contacts, public creators),
their videos with an upload's metadata (title, caption, tags, visibility), comments, and videos shared
to contacts. Counts a real service keeps for millions of viewers (likes, views, followers) are numbers
of the seed; the user's own like, save and follow are flags the user toggles.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""

Visibility = Literal["public", "friends", "private"]


class Creator(AppModel, table=True):
    """An account: the signed-in user (is_me), a contact from the world (is_contact), or a public creator."""

    id: int | None = Field(default=None, primary_key=True, description="Creator id.")
    name: str = Field(min_length=1, description="Display name, e.g. 'Elena Rossi'.")
    handle: str = Field(min_length=1, description="Unique handle without the '@', e.g. 'elena.rossi'.")
    bio: str = Field(default="", description="Profile line.")
    email: str = Field(default="", description="Email of a contact from the world; empty for public creators.")
    followers: int = Field(default=0, ge=0, description="Follower count, the user's own follow excluded.")
    is_me: bool = Field(default=False, description="True for the signed-in user's own account (exactly one).")
    is_contact: bool = Field(default=False, description="True for people the user can share videos to (the world's contacts).")
    following: bool = Field(default=False, description="True when the user follows this creator.")


class Video(AppModel, table=True):
    """A short video with its upload metadata."""

    id: int | None = Field(default=None, primary_key=True, description="Video id.")
    creator_id: int = Field(foreign_key="creator.id", index=True, description="Who posted it.")
    title: str = Field(min_length=1, description="Title as shown on the video.")
    caption: str = Field(default="", description="Longer description under the title.")
    tags: str = Field(default="", description="Hashtags without '#', lower case, comma-separated in the order typed, e.g. 'travel,lisbon'.")
    visibility: Visibility = Field(default="public", sa_type=String,
                                   description="'public' (everyone), 'friends' (mutual follows) or 'private' (only the user).")
    allow_comments: bool = Field(default=True, description="False: nobody can comment on it.")
    duration_s: int = Field(gt=0, description="Length in seconds.")
    sound: str = Field(default="", description="Soundtrack as shown, e.g. 'original sound - elena.rossi'.")
    cover_hue: int = Field(default=200, ge=0, lt=360, description="Colour of the drawn cover frame (hue 0-359).")
    likes: int = Field(default=0, ge=0, description="Likes by other people (the user's own like is `liked`).")
    views: int = Field(default=0, ge=0, description="View count.")
    liked: bool = Field(default=False, description="True when the user liked it.")
    saved: bool = Field(default=False, description="True when the user saved it to their favourites.")
    posted_at: NaiveDatetime = Field(description="When it was posted (virtual clock).")


class Comment(AppModel, table=True):
    """A comment under a video."""

    __tablename__ = "videocomment"

    id: int | None = Field(default=None, primary_key=True, description="Comment id.")
    video_id: int = Field(foreign_key="video.id", index=True, description="Video.")
    creator_id: int = Field(foreign_key="creator.id", description="Who wrote it (the user's own comments: their creator id).")
    body: str = Field(min_length=1, description="Text of the comment.")
    posted_at: NaiveDatetime = Field(description="When it was written.")


class Share(AppModel, table=True):
    """A video the user sent to a contact (appears in the inbox thread with that contact)."""

    id: int | None = Field(default=None, primary_key=True, description="Share id.")
    video_id: int = Field(foreign_key="video.id", index=True, description="Video shared.")
    contact_id: int = Field(foreign_key="creator.id", description="Contact it was sent to (a creator with is_contact).")
    message: str = Field(default="", description="Message sent with it.")
    sent_at: NaiveDatetime = Field(description="When it was sent.")
