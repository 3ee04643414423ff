"""What the signed-in user may see, read from the instance: their own account, the videos visible to them,
and the rows a video card shows (its creator, comment count)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, func, select

from .models import Comment, Creator, Video

__all__ = ["Card", "cards", "me", "visible"]


def me(db: Session) -> Creator:
    return db.exec(select(Creator).where(Creator.is_me == True)).one()  # noqa: E712


def visible(video: Video, creator: Creator) -> bool:
    """Public videos; 'friends' ones of contacts the user follows; everything of the user's own."""
    if creator.is_me or video.visibility == "public":
        return True
    return video.visibility == "friends" and creator.is_contact and creator.following


@dataclass(frozen=True)
class Card:
    """A video as a feed, grid or search result shows it."""

    video: Video
    creator: Creator
    comments: int


def cards(db: Session, videos) -> list[Card]:
    """Cards of the visible ones among `videos`, in the order given."""
    creators = {c.id: c for c in db.exec(select(Creator)).all()}
    counts = dict(db.exec(select(Comment.video_id, func.count(Comment.id)).group_by(Comment.video_id)).all())
    return [Card(v, creators[v.creator_id], counts.get(v.id, 0)) for v in videos if visible(v, creators[v.creator_id])]
