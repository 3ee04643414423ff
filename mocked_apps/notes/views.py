"""What the pages read: the user's account, note cards (a note with its author), and which collections a note is in."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from .models import Author, Collect, Note

__all__ = ["Card", "cards", "me"]


def me(db: Session) -> Author:
    return db.exec(select(Author).where(Author.is_me == True)).one()  # noqa: E712


@dataclass(frozen=True)
class Card:
    """A note as the Explore feed, a profile or search shows it."""

    note: Note
    author: Author
    collected: bool


def cards(db: Session, notes) -> list[Card]:
    authors = {a.id: a for a in db.exec(select(Author)).all()}
    collected = {c.note_id for c in db.exec(select(Collect)).all()}
    return [Card(n, authors[n.author_id], n.id in collected) for n in notes]
