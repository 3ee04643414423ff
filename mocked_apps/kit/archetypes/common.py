"""What every archetype shares: the compiled app's context, value formatting, form parsing and validation, rendering.

An archetype is a function `mount(app: Compiled, page: PageSpec, router)` adding a real interaction
pattern's GET pages and POST actions to an app's router. GETs only read; every change is a POST
that ends in `gym.done` (commit, then 303 to a GET page).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlmodel import SQLModel, select

from mocked_apps.kit.context import Gym
from mocked_apps.kit.filters import money
from mocked_apps.kit.spec.display import fmt
from mocked_apps.kit.spec.formula import evaluate
from mocked_apps.kit.spec.model import AppSpec, EntitySpec, FieldSpec, PageSpec, page_path, page_title


@dataclass
class Compiled:
    """A spec with its tables: what archetype routes close over."""

    spec: AppSpec
    tables: dict[str, type[SQLModel]]
    nav: list[tuple[str, str]] = field(default_factory=list)
    looks: dict[int, AppSpec] = field(default_factory=dict)  # variant seed -> the spec in that variant's theme and nav

    def model(self, entity: str) -> type[SQLModel]:
        return self.tables[entity]

    def list_path(self, entity: str) -> str:
        """The page that lists an entity (its table page, or the first page over it)."""
        pages = [p for p in self.spec.pages if p.entity == entity]
        table = [p for p in pages if p.archetype == "table"]
        return page_path((table or pages)[0]) if pages else "/"


def build_nav(spec: AppSpec) -> list[tuple[str, str]]:
    return [(page_title(spec, p), page_path(p)) for p in spec.pages]


def ref_titles(app: Compiled, gym: Gym, e: EntitySpec) -> dict[str, dict[int, str]]:
    """For each ref field of `e`: id -> title of the referenced rows."""
    out = {}
    for f in e.fields:
        if f.type == "ref":
            target = app.spec.entity(f.ref)
            model = app.model(f.ref)
            out[f.name] = {r.id: str(getattr(r, target.title)) for r in gym.db.exec(select(model)).all()}
    return out


def computed(e: EntitySpec, row: SQLModel) -> list[tuple[str, str]]:
    """(label, shown value) of each computed field of a row; money-like when any money field is involved."""
    data = row.model_dump()
    out = []
    for label, formula in e.computed.items():
        value = evaluate(formula, data)
        moneyish = any(f.type == "money" and f.name in formula for f in e.fields)
        out.append((label, money(value) if moneyish else (f"{value:g}" if isinstance(value, float) else str(value))))
    return out


def input_type(f: FieldSpec) -> str:
    return {"int": "number", "number": "number", "money": "number", "date": "date", "datetime": "datetime-local",
            "phone": "tel", "email": "email", "longtext": "textarea", "choice": "select", "ref": "select",
            "bool": "checkbox"}.get(f.type, "text")


def form_value(f: FieldSpec, value: Any) -> str:
    """A stored value as a form input's value."""
    if value is None:
        return ""
    if f.type == "datetime" and not isinstance(value, str):
        return value.strftime("%Y-%m-%dT%H:%M")
    if f.type == "date" and not isinstance(value, str):
        return value.isoformat()
    if f.type == "bool":
        return "on" if value else ""
    if f.type == "money":
        return f"{value:.2f}"
    return str(value)


def parse(f: FieldSpec, raw: str) -> tuple[Any, str | None]:
    """Typed value of a form input, or the error a person sees next to it."""
    raw = (raw or "").strip()
    if f.type == "bool":
        return raw in ("on", "true", "1", "yes"), None
    if not raw:
        return (None if f.type in ("int", "number", "money", "date", "datetime", "ref") else ""), (
            f"Enter the {f.display.lower()}." if f.required else None)
    try:
        if f.type == "int" or f.type == "ref":
            value: Any = int(raw)
        elif f.type in ("number", "money"):
            value = round(float(raw.replace(",", "").lstrip("$")), 2)
        elif f.type == "date":
            value = date.fromisoformat(raw)
        elif f.type == "datetime":
            value = datetime.fromisoformat(raw)
        else:
            value = raw
    except ValueError:
        return None, f"{f.display} is not a valid {f.type}."
    if f.type in ("int", "number", "money"):
        if f.min is not None and value < f.min:
            return value, f"{f.display} must be at least {f.min:g}."
        if f.max is not None and value > f.max:
            return value, f"{f.display} must be at most {f.max:g}."
    if f.type == "choice" and value not in f.choices:
        return value, f"Choose one of the offered {f.display.lower()} values."
    if f.type == "email" and "@" not in value:
        return value, "Enter an email address like name@example.com."
    return value, None


def options(app: Compiled, gym: Gym, f: FieldSpec) -> list[tuple[str, str]]:
    """(value, label) of a select: a choice field's choices, or a ref field's rows by title."""
    if f.type == "choice":
        return [(c, c) for c in f.choices]
    target = app.spec.entity(f.ref)
    rows = gym.db.exec(select(app.model(f.ref)).order_by(app.model(f.ref).id)).all()
    return [(str(r.id), str(getattr(r, target.title))) for r in rows]


def render(app: Compiled, gym: Gym, template: str, title: str, **values: Any):
    """Render an archetype template inside the compiled app's layout (nav, theme, signed-in user), in the instance's
    appearance variant: its theme and navigation over the spec's, its date format."""
    variant = gym.variant
    spec, show = app.spec, fmt
    if variant is not None:
        spec = app.looks.get(variant.seed)
        if spec is None:
            spec = app.looks[variant.seed] = app.spec.model_copy(update={"theme": variant.theme(app.spec.theme), "nav": variant.nav})
        show = functools.partial(fmt, dates=variant.date_format)
    return gym.render(template, spec=spec, nav=app.nav, page_heading=title, fmt=show, input_type=input_type,
                      form_value=form_value, **values)


__all__ = ["Compiled", "build_nav", "computed", "fmt", "form_value", "input_type", "options", "parse", "ref_titles", "render"]
