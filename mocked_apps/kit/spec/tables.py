"""A spec's tables as SQLModel classes in a registry of their own (the app's table namespace).

Each compiled app gets its own SQLAlchemy registry and metadata, so two compiled apps may both have
an `order` table and still live in one process. Archetypes add the few tables they own (a cart,
comments, settings) only when a page uses them.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any, Optional

from pydantic import NaiveDatetime
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

from .model import AppSpec, EntitySpec, FieldSpec

_PY = {"int": int, "number": float, "money": float, "date": Date, "datetime": NaiveDatetime, "bool": bool, "ref": int}


def _column(f: FieldSpec) -> tuple[Any, Any]:
    py = _PY.get(f.type, str)
    if py is str:
        return str, Field(default="", description=f.display)
    if f.type == "ref":
        return Optional[int], Field(default=None, foreign_key=f"{f.ref}.id", description=f"{f.display} ({f.ref} id)")
    if f.type == "bool":
        return bool, Field(default=False, description=f.display)
    return Optional[py], Field(default=None, description=f.display)


def _table(base: type, class_name: str, table: str, columns: dict[str, tuple[Any, Any]], doc: str) -> type[SQLModel]:
    ns: dict[str, Any] = {"__annotations__": {}, "__tablename__": table, "__doc__": doc, "__module__": __name__}
    for name, (annotation, default) in columns.items():
        ns["__annotations__"][name] = annotation
        ns[name] = default
    return type(class_name, (base,), ns, table=True)


def _class_name(spec: AppSpec, table: str) -> str:
    return "".join(p.capitalize() for p in f"{spec.name}_{table}".split("_"))


def build_tables(spec: AppSpec) -> dict[str, type[SQLModel]]:
    """Table name -> SQLModel class for every entity and every archetype-owned table the pages need."""
    base = type(f"{_class_name(spec, 'base')}", (SQLModel,), {"__module__": __name__}, registry=registry())
    archetypes = {p.archetype for p in spec.pages}
    feeds = {p.entity for p in spec.pages if p.archetype == "feed"}
    out: dict[str, type[SQLModel]] = {}
    for e in _ordered(spec):
        columns: dict[str, tuple[Any, Any]] = {"id": (Optional[int], Field(default=None, primary_key=True))}
        for f in e.fields:
            columns[f.name] = _column(f)
        if e.states:
            columns[e.state_field] = (str, Field(default=e.states[0], description=f"State: {', '.join(e.states)}"))
        if e.name in feeds:
            columns["liked"] = (bool, Field(default=False, description="Liked by the signed-in user"))
        out[e.name] = _table(base, _class_name(spec, e.name), e.name, columns, f"{e.display}: {spec.title}")
    pk = (Optional[int], Field(default=None, primary_key=True))
    if "catalogue" in archetypes:
        product = next(p.entity for p in spec.pages if p.archetype == "catalogue")
        out["cart_line"] = _table(base, _class_name(spec, "cart_line"), "cart_line", {
            "id": pk, "item_id": (int, Field(foreign_key=f"{product}.id")), "quantity": (int, Field(default=1))},
            "One line of the shopping cart")
        out["purchase"] = _table(base, _class_name(spec, "purchase"), "purchase", {
            "id": pk, "placed_at": (NaiveDatetime, Field()), "total": (float, Field(default=0.0)),
            "delivery": (str, Field(default="")), "items": (str, Field(default="", description="item id x quantity, ..."))},
            "A placed order (checkout)")
    if feeds:
        out["comment"] = _table(base, _class_name(spec, "comment"), "comment", {
            "id": pk, "post_id": (int, Field(foreign_key=f"{sorted(feeds)[0]}.id")), "body": (str, Field(default="")),
            "posted_at": (NaiveDatetime, Field())}, "A comment by the signed-in user")
        out["follow"] = _table(base, _class_name(spec, "follow"), "follow", {
            "id": pk, "who": (str, Field(default=""))}, "Someone the signed-in user follows")
    if "chat" in archetypes:
        thread = next(p.entity for p in spec.pages if p.archetype == "chat")
        out["chat_message"] = _table(base, _class_name(spec, "chat_message"), "chat_message", {
            "id": pk, "thread_id": (int, Field(foreign_key=f"{thread}.id")), "body": (str, Field(default="")),
            "mine": (bool, Field(default=False)), "sent_at": (NaiveDatetime, Field())}, "A message in a thread")
    if "media" in archetypes:
        track = next(p.entity for p in spec.pages if p.archetype == "media")
        out["queue_item"] = _table(base, _class_name(spec, "queue_item"), "queue_item", {
            "id": pk, "item_id": (int, Field(foreign_key=f"{track}.id"))}, "A track in the play queue")
    if "settings" in archetypes or spec.settings:
        out["setting"] = _table(base, _class_name(spec, "setting"), "setting", {
            "key": (str, Field(primary_key=True)), "value": (str, Field(default=""))}, "One saved setting")
    return out


def _ordered(spec: AppSpec) -> list[EntitySpec]:
    """Entities with the ones they reference first (foreign keys need their target table)."""
    done: list[EntitySpec] = []
    pending = list(spec.entities)
    while pending:
        for e in pending:
            if all(f.ref in {d.name for d in done} or f.ref == e.name for f in e.fields if f.ref):
                done.append(e)
                pending.remove(e)
                break
        else:
            done.extend(pending)
            break
    return done


__all__ = ["build_tables"]
