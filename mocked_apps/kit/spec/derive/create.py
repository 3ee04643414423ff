"""Derived creation families: add a record with every required field through the create form or wizard.

The verifier finds the one new row (ids absent from the initial state) and checks each field; the
golden opens the 'New ...' form from the entity's list and fills it by label, step by step."""

from __future__ import annotations

import random

from faker import Faker

from contracts.family import Family, Requirements, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from ..model import AppSpec, EntitySpec
from ..sample import sample_text
from .common import a, choose_input, fill_step, rows_of, said, same, table_page


def _title_value(spec: AppSpec, e: EntitySpec, rng: random.Random, taken: set[str]) -> str:
    f = e.field(e.title)
    fake = Faker("en_US")
    fake.seed_instance(rng.randint(0, 2**31))
    for _ in range(30):
        value = sample_text(spec, e, f, fake) if not isinstance(f.sample, list) else f"{rng.choice(f.sample)} {rng.randint(2, 99)}"
        if value not in taken:
            return value
    return f"{value} {rng.randint(100, 999)}"


class CreateRecord(Family):
    """Create one record of an entity with given field values."""

    def __init__(self, spec: AppSpec, entity: EntitySpec):
        self.spec, self.entity = spec, entity
        self.name = f"{spec.name}.{entity.name}.create"
        self.apps = (spec.name,)
        self.description = f"Add a {entity.display.lower()} with its details ({spec.title})."
        self.difficulty = "medium" if len(entity.steps) > 1 or len(entity.create) > 4 else "easy"
        types = {entity.field(n).type for n in entity.create}
        self.capabilities = ("navigate", "form_fill") + (("select_option",) if types & {"choice", "ref"} else ()) \
            + (("date_time",) if types & {"date", "datetime"} else ()) + (("confirm",) if len(entity.steps) > 1 else ())

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        e = self.entity
        rows = rows_of(self.spec, world, e.name)
        refs = {f.ref: rows_of(self.spec, world, f.ref) for f in e.fields if f.type == "ref"}
        values = []
        for name in e.create:
            f = e.field(name)
            if name == e.title and f.type in ("text", "longtext"):
                value = _title_value(self.spec, e, rng, {str(r[e.title]) for r in rows})
                shown = value
            else:
                value, shown = choose_input(f, rng, world.scenario.clock, refs, self.spec, rows)
            values.append({"field": name, "value": value, "shown": shown, "said": said(f, value) if f.type != "ref" else shown})
        title = next(v for v in values if v["field"] == e.title)["said"] if e.title in e.create else None
        quoted = lambda v: e.field(v["field"]).type in ("text", "longtext") and v["field"] != e.title  # noqa: E731 - free text, in quotes
        details = "; ".join(f"{e.field(v['field']).display.lower()}: " + (f'"{v["said"]}"' if quoted(v) else v["said"]) for v in values)
        instruction = say(rng, world, "Add a new {label} in {app}. {Details}.", "Create {a_label} in {app} with these details: {details}.",
                          "Open {app} and add {a_label} ({details}).", app=self.spec.title, label=e.display.lower(),
                          a_label=a(e.display.lower()), details=details, Details=details[0].upper() + details[1:])
        criteria = [Criterion(id="one_new", description=f"Exactly one new {e.display.lower()} was added.")]
        criteria += [Criterion(id=f"field_{v['field']}", description=f"Its {e.field(v['field']).display.lower()} is {v['said']}.")
                     for v in values]
        return self._req(instruction, {"values": values, "title": title}, criteria)

    def golden(self, req: Requirements) -> str:
        e = self.entity
        by_field = {v["field"]: v for v in req.answer_context["values"]}
        steps = [f"env.click({table_page(self.spec, e)!r}, role='link')", f"env.click(env.word('New') + {' ' + e.display.lower()!r}, role='link')"]
        groups = [list(s) for s in e.steps] or [list(e.create)]
        for k, group in enumerate(groups):
            steps += [fill_step(e.field(n), by_field[n]["shown"]) for n in group]
            steps.append("env.click(env.word('Next'), role='button')" if k < len(groups) - 1
                         else f"env.click(env.word('Create') + {' ' + e.display.lower()!r}, role='button')")
        return solve_source(*steps)

    def verifier(self, req: Requirements) -> str:
        e, app = self.entity, self.spec.name
        lines = ["def verify(final):",
                 f"    old = {{r['id'] for r in final.initial_state[{app!r}][{e.name!r}]}}",
                 f"    new = [r for r in final.state[{app!r}][{e.name!r}] if r['id'] not in old]",
                 "    row = new[0] if len(new) == 1 else None",
                 "    out = {'one_new': row is not None}"]
        for v in req.answer_context["values"]:
            f = e.field(v["field"])
            lines.append(f"    out['field_{f.name}'] = row is not None and {same(f, 'row[' + repr(f.name) + ']', repr(v['value']))}")
        lines.append("    return out")
        return "\n".join(lines) + "\n"


def create_families(spec: AppSpec) -> list[Family]:
    return [CreateRecord(spec, e) for e in spec.entities if e.create and table_page(spec, e)]


__all__ = ["CreateRecord", "create_families"]
