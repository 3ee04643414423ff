"""Derived lookup families: find a value by a record's title, or count records in a state, and answer it.

The verifier reads the answer text with the kit's answer matcher (`mocked_apps.kit.answers`): it must
give the value, in any form a person writes it, and no other candidate of its type (an answer listing
every amount, date or name is no answer)."""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from ...answer_family import task_today
from ...answers import VERIFIER_SOURCE
from ..model import AppSpec, EntitySpec
from ..display import fmt as shown_value
from .common import open_record, rows_of, table_page, unique_titled

_ANSWERABLE = ("money", "date", "choice", "int", "phone", "email", "number")

_VERIFY = VERIFIER_SOURCE + '''
from datetime import date

TODAY = TODAY_VALUE  # the task's clock: a date answer is read against it


def verify(final):
    is_date, is_count, is_number, expected, others = IS_DATE, IS_COUNT, IS_NUMBER, EXPECTED, OTHERS
    if is_date:
        said = answer_matches(final.answer, "date", expected, today=TODAY)
    elif is_count:
        said = answer_matches(final.answer, "count", expected)
    elif is_number:
        said = answer_matches(final.answer, "amount", expected)
    else:
        said = answer_matches(final.answer, "text", expected, others=others)
    return {"right_value": said["right"], "no_other_value": said["only"]}
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
            instruction = say(rng, world, "Tell me how many {plural} in {app} are {state}; answer with the number.",
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
            instruction = say(rng, world, "Tell me the {field} of the {label} \"{title}\" in {app}.",
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
        # review as a hidden answer, and "number" or "date" is in the instruction of every lookup (the kinds the
        # verifier asks the kit's matcher for are the matcher's words, which the review leaves out)
        kind = ctx["kind"]
        count = kind == "number" and ctx["title"] is None
        today = f"date.fromisoformat({task_today(req)!r})" if kind == "date" else "None"
        return _VERIFY.replace("IS_DATE, IS_COUNT, IS_NUMBER, EXPECTED, OTHERS",
                               f"{kind == 'date'!r}, {count!r}, {kind == 'number'!r}, {ctx['expected']!r}, {ctx['others']!r}"
                               ).replace("TODAY_VALUE", today)


def lookup_families(spec: AppSpec) -> list[Family]:
    return [LookupValue(spec, e) for e in spec.entities if table_page(spec, e)]


__all__ = ["LookupValue", "lookup_families"]
