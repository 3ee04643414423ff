"""Per-app table namespaces: an app's tables in a SQLAlchemy registry of their own.

SQLModel keeps every `table=True` class in one global metadata, so two apps with a `message` table
could not be imported into one process. An app's `models.py` starts with `AppModel = namespace()` and
declares `class Message(AppModel, table=True)`: its table names then only need to be unique inside
the app. State dumps and seeds keep the plain table names.
"""

from __future__ import annotations

from sqlalchemy.orm import registry
from sqlmodel import SQLModel

__all__ = ["namespace"]


def namespace() -> type[SQLModel]:
    """A fresh SQLModel base class whose tables live in their own metadata (one per app)."""
    return type("AppModel", (SQLModel,), {"__module__": __name__}, registry=registry())
