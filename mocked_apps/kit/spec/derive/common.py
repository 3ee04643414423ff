"""What the derived families share: reading a world's projected rows, choosing inputs a person would type,
the golden steps that reach a record through the compiled UI, and verifier snippets over state dumps."""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta
from typing import Any

from contracts.world import World

from ..model import AppSpec, EntitySpec, FieldSpec, page_path, page_title
from ..sample import sample_seed

REASONS = ("Customer asked for it", "Duplicate request", "Schedule conflict", "Approved after review",
           "Details confirmed by phone", "Budget freeze this quarter", "Requested by the manager")


_SEEDS: dict[tuple[str, str, str], dict[str, list[dict]]] = {}


def rows_of(spec: AppSpec, world: World, entity: str) -> list[dict]:
    """The entity's rows as the world's projection seeds them (what the task's instance starts with)."""
    key = (spec.name, world.id, world.scenario.clock.isoformat())
    if key not in _SEEDS:
        if len(_SEEDS) > 256:
            _SEEDS.clear()
        _SEEDS[key] = sample_seed(spec, world.id, world.scenario.clock, world)
    return _SEEDS[key][entity]


def unique_titled(e: EntitySpec, rows: list[dict]) -> list[dict]:
    titles = [str(r[e.title]) for r in rows]
    return [r for r in rows if titles.count(str(r[e.title])) == 1 and str(r[e.title]).strip()]


def table_page(spec: AppSpec, e: EntitySpec) -> str | None:
    """Navigation text of the entity's table page (where search lives), or None when it has none."""
    page = next((p for p in spec.pages if p.archetype == "table" and p.entity == e.name), None)
    return page_title(spec, page) if page else None


def choose_input(f: FieldSpec, rng: random.Random, clock: datetime, refs: dict[str, list[dict]], spec: AppSpec,
                 rows: list[dict] = ()) -> tuple[Any, str]:
    """(stored value, what the person types or picks) for a field the task asks to fill. Free text is what other
    `rows` of the entity hold in that field (a company, a postcode, a note), so the value fits the field; a stock
    reason only when none holds one."""
    if f.type == "choice":
        value = rng.choice(f.choices)
        return value, value
    if f.type == "bool":
        return True, "yes"
    if f.type == "ref":
        target = spec.entity(f.ref)
        row = rng.choice(unique_titled(target, refs[f.ref]) or refs[f.ref])
        return row["id"], str(row[target.title])
    if f.type in ("int",):
        lo, hi = int(f.min if f.min is not None else 1), int(f.max if f.max is not None else 12)
        value = rng.randint(lo, max(lo, hi))
        return value, str(value)
    if f.type in ("money", "number"):
        lo, hi = f.min if f.min is not None else 20, f.max if f.max is not None else 400
        step = 5 if hi - lo >= 50 else (0.5 if hi - lo >= 5 else 0.1)  # a round figure inside the field's own range
        value = round(round(rng.uniform(lo, hi) / step) * step, 2) or step
        value = min(max(value, lo), hi)  # a grade point average of 0-4 is never asked as 5.00 (the form refuses it)
        return float(value), f"{value:.2f}"
    if f.type == "date":
        day = (clock + timedelta(days=rng.randint(2, 20))).date()
        return day.isoformat(), day.isoformat()
    if f.type == "datetime":
        when = datetime.combine((clock + timedelta(days=rng.randint(2, 20))).date(), datetime.min.time()).replace(hour=rng.randint(9, 17))
        return when.isoformat(), when.strftime("%Y-%m-%dT%H:%M")
    if f.type == "phone":
        value = f"(555) 0{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"
        return value, value
    if f.type == "email":
        value = f"{rng.choice(['sam', 'lee', 'ana', 'kim', 'ravi'])}.{rng.randint(10, 99)}@example.com"
        return value, value
    held = sorted({str(r[f.name]).strip() for r in rows if isinstance(r.get(f.name), str) and r[f.name].strip()})
    if held:
        value = rng.choice(held)
    else:
        value = rng.choice(REASONS) if f.type in ("text", "longtext") else f"{rng.randint(10, 99)} {rng.choice(['Elm', 'Oak', 'Pine'])} Street"
    return value, value


def fill_step(f: FieldSpec, shown: str) -> str:
    """One golden line that enters `shown` into the form field `f` by its label."""
    if f.type in ("choice", "ref"):
        return f"env.select({f.display!r}, {shown!r})"
    if f.type == "bool":
        return f"env.check({f.display!r})"
    return f"env.fill({f.display!r}, {shown!r})"


def open_record(spec: AppSpec, e: EntitySpec, title: str) -> list[str]:
    """Golden steps from the app's home to the record's detail page: its list, a search, the row's link."""
    return [f"env.click({table_page(spec, e)!r}, role='link')",
            f"env.fill(env.word('Search') + {' ' + e.display_plural.lower()!r}, {title!r})", "env.press('Enter')",
            f"env.click({title!r}, role='link')"]


def same(f: FieldSpec, a: str, b: str) -> str:
    """A verifier expression: stored value `a` equals expected `b` for this field's type."""
    if f.type in ("money", "number"):
        return f"({a} is not None and abs({a} - {b}) < 0.005)"
    if f.type in ("text", "longtext", "phone", "email", "address"):
        return f"(str({a} or '').strip() == {b})"
    if f.type == "datetime":
        return f"(str({a} or '')[:16].replace(' ', 'T') == {b}[:16])"
    return f"({a} == {b})"


def said(f: FieldSpec, value: Any) -> str:
    """How an instruction states a value."""
    if f.type == "bool":
        return "yes" if value else "no"
    if f.type == "money":
        return f"${value:,.2f}"
    if f.type == "date":
        return date.fromisoformat(value).strftime("%B %d, %Y").replace(" 0", " ")
    if f.type == "datetime":
        return datetime.fromisoformat(value).strftime("%B %d, %Y at %H:%M").replace(" 0", " ")
    return str(value)


def a(noun: str) -> str:
    """The noun with its indefinite article, as a person says it: "an appointment", "a user", "an hour"."""
    return f"{'an' if re.match(r'(?!uni|use|usu|ure|one|eu)[aeiou]|hour|honou?r', noun, re.I) else 'a'} {noun}"


__all__ = ["REASONS", "a", "choose_input", "fill_step", "open_record", "rows_of", "said", "same", "table_page", "unique_titled"]
