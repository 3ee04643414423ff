"""Derived lookup families: find a value by a record's title, or count records in a state, and answer it.

The verifier reads the answer text: it must give the value and no other candidate of its type
(an answer listing every amount, date or name is no answer)."""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from ..model import AppSpec, EntitySpec
from ..display import fmt as shown_value
from .common import open_record, rows_of, table_page, unique_titled

_ANSWERABLE = ("money", "date", "choice", "int", "phone", "email", "number")

_VERIFY = '''
import re
from datetime import date

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def _amounts(text):
    return {round(float(m.replace(",", "")), 2) for m in re.findall(r"\\$?\\b(\\d[\\d,]*(?:\\.\\d+)?)", text or "")}


def _dates(text):
    text = (text or "").lower()
    found = {(int(y), int(m), int(d)) for y, m, d in re.findall(r"(\\d{4})-(\\d{1,2})-(\\d{1,2})", text)}
    for name, d, y in re.findall(r"([a-z]{3,9})\\.? (\\d{1,2}),? (\\d{4})", text):
        if name[:3] in _MONTHS:
            found.add((int(y), _MONTHS.index(name[:3]) + 1, int(d)))
    return found


def verify(final):
    is_date, is_number, expected, others = IS_DATE, IS_NUMBER, EXPECTED, OTHERS
    text = final.answer or ""
    if is_date:
        got = _dates(text)
        d = date.fromisoformat(expected)
        target = (d.year, d.month, d.day)
        return {"right_value": target in got, "no_other_value": got <= {target}}
    if is_number:
        got = _amounts(text)
        return {"right_value": round(float(expected), 2) in got, "no_other_value": got <= {round(float(expected), 2)}}
    low = text.lower()
    return {"right_value": expected.lower() in low, "no_other_value": not any(o.lower() in low for o in others)}
'''


class LookupValue(Family):
    """Answer a field of one record, or how many records are in a state."""

    def __init__(self, spec: AppSpec, entity: EntitySpec):
        self.spec, self.entity = spec, entity
        self.name = f"{spec.name}.{entity.name}.lookup"
        self.apps = (spec.name,)
        self.description = f"Find a {entity.display.lower()}'s detail, or count them by state, and answer ({spec.title})."
        self.difficulty = "easy"
        self.capabilities = ("navigate", "search", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        e = self.entity
        rows = rows_of(self.spec, world, e.name)
        if e.states and rng.random() < 0.3:
            state = rng.choice(e.states)
            count = sum(1 for r in rows if r[e.state_field] == state)
            instruction = say(rng, world, "How many {plural} in {app} are {state}? Answer with the number.",
                              "Count the {state} {plural} in {app} and tell me how many there are.",
                              app=self.spec.title, plural=e.display_plural.lower(), state=state.replace("_", " "))
            ctx = {"kind": "number", "expected": str(float(count)), "others": [], "shown": str(count), "state": state, "title": None,
                   "tab": None}  # expected is text for every kind: one dataset column across families
        else:
            tabs = dict(e.tabs) or {"Overview": tuple(f.name for f in e.fields[:4]), "All details": tuple(f.name for f in e.fields)}
            fields = [f for f in e.fields if f.type in _ANSWERABLE and f.name != e.title and any(f.name in v for v in tabs.values())]
            cands = unique_titled(e, rows)
            if not fields or not cands:
                return None
            f = rng.choice(fields)
            row = rng.choice([r for r in cands if r[f.name] not in (None, "")] or cands)
            if row[f.name] in (None, ""):
                return None
            kind = "date" if f.type == "date" else "number" if f.type in ("money", "int", "number") else "text"
            others = sorted({str(r[f.name]) for r in rows if str(r[f.name]) and str(r[f.name]).lower() not in str(row[f.name]).lower()})
            tab = next(name for name, names in tabs.items() if f.name in names)
            instruction = say(rng, world, "What is the {field} of the {label} \"{title}\" in {app}? Answer with it.",
                              "Look up \"{title}\" in {app} and tell me its {field}.",
                              app=self.spec.title, field=f.display.lower(), label=e.display.lower(), title=row[e.title])
            expected = str(row[f.name]) if kind != "number" else str(float(row[f.name]))
            ctx = {"kind": kind, "expected": expected, "others": others if kind == "text" else [],
                   "shown": shown_value(f, row[f.name]), "title": str(row[e.title]), "tab": tab if tab != next(iter(tabs)) else None,
                   "state": None}
        return self._req(instruction, ctx, [
            Criterion(id="right_value", description=f"The answer gives {ctx['shown']}."),
            Criterion(id="no_other_value", description="The answer names no other candidate value.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        ctx, e = req.answer_context, self.entity
        if ctx["title"] is None:
            steps = [f"env.click({table_page(self.spec, e)!r}, role='link')",
                     f"env.click({ctx['state'].replace('_', ' ').capitalize()!r}, role='tab')"]
        else:
            steps = open_record(self.spec, e, ctx["title"])
            if ctx["tab"]:
                steps.append(f"env.click({ctx['tab']!r}, role='tab')")
        steps.append(f"env.answer({ctx['shown']!r})")
        return solve_source(*steps)

    def verifier(self, req: Requirements) -> str:
        ctx = req.answer_context
        # the kind as booleans, not as words: a literal the verifier shares with the answer context reads to the
        # review as a hidden answer, and "number" or "date" is in the instruction of every lookup
        kind = ctx["kind"]
        return _VERIFY.replace("IS_DATE, IS_NUMBER, EXPECTED, OTHERS",
                               f"{kind == 'date'!r}, {kind == 'number'!r}, {ctx['expected']!r}, {ctx['others']!r}")


def lookup_families(spec: AppSpec) -> list[Family]:
    return [LookupValue(spec, e) for e in spec.entities if table_page(spec, e)]


__all__ = ["LookupValue", "lookup_families"]
