"""Derived transition families: pick a record by what tells it apart, drive it through the state machine to the
target state with the inputs the move requires (one record, or a chain of two).

The verifier is written from the state machine (the target row by its title in the initial state,
its state and each input after); the golden from the compiled UI's accessible names."""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from ..model import AppSpec, EntitySpec, TransitionSpec
from .common import choose_input, fill_step, open_record, rows_of, said, same, table_page, unique_titled


def _plan(spec: AppSpec, e: EntitySpec, world: World, rng: random.Random, exclude: set[int]) -> dict | None:
    rows = unique_titled(e, rows_of(spec, world, e.name))
    moves = [(t, [r for r in rows if r[e.state_field] in t.source and r["id"] not in exclude and _guard_holds(t, r)])
             for t in e.transitions]
    moves = [(t, cands) for t, cands in moves if cands]
    if not moves:
        return None
    t, cands = rng.choice(moves)
    row = rng.choice(cands)
    refs = {f.ref: rows_of(spec, world, f.ref) for f in e.fields if f.type == "ref"}
    inputs = []
    for name in t.inputs:
        f = e.field(name)
        value, shown = choose_input(f, rng, world.scenario.clock, refs, spec, rows)
        inputs.append({"field": name, "value": value, "shown": shown})
    return {"transition": t.name, "row_id": row["id"], "title": str(row[e.title]), "to": t.to, "inputs": inputs}


def _guard_holds(t: TransitionSpec, row: dict) -> bool:
    """Whether the app offers the move on this row: its guard holds (the detail page disables the button otherwise, so a
    task asking for it could never be done). A guard that cannot be evaluated on the sample row counts as not holding."""
    try:
        return t.allows(row)
    except Exception:  # noqa: BLE001 - a formula error on this row: do not ask for the move
        return False


def _describe(spec: AppSpec, e: EntitySpec, plan: dict) -> str:
    t = next(t for t in e.transitions if t.name == plan["transition"])
    label = e.transition_label(t)
    text = f"find the {e.display.lower()} \"{plan['title']}\" and {label[0].lower() + label[1:]}"
    if plan["inputs"]:
        text += ", with " + " and ".join(f"{e.field(i['field']).display.lower()} \"{said(e.field(i['field']), i['value'])}\""
                                       for i in plan["inputs"])
    return text


def _golden_steps(spec: AppSpec, e: EntitySpec, plan: dict) -> list[str]:
    t: TransitionSpec = next(t for t in e.transitions if t.name == plan["transition"])
    label = e.transition_label(t)
    steps = open_record(spec, e, plan["title"])
    if t.inputs or t.confirm:
        steps.append(f"env.click({label!r}, role='link')")
    steps += [fill_step(e.field(i["field"]), i["shown"]) for i in plan["inputs"]]
    steps.append(f"env.click({label!r}, role='button')")
    return steps


def _verifier(spec: AppSpec, e: EntitySpec, plans: list[dict]) -> str:
    lines = ["def verify(final):",
             f"    before = final.initial_state[{spec.name!r}][{e.name!r}]",
             f"    after = {{r['id']: r for r in final.state[{spec.name!r}][{e.name!r}]}}",
             "    out = {}"]
    for k, plan in enumerate(plans, 1):
        lines += [f"    ids = [r['id'] for r in before if str(r[{e.title!r}]) == {plan['title']!r}]",
                  "    row = after.get(ids[0]) if len(ids) == 1 else None",
                  f"    out['moved_{k}'] = row is not None and row[{e.state_field!r}] == {plan['to']!r}"]
        for i in plan["inputs"]:
            f = e.field(i["field"])
            lines.append(f"    out['{i['field']}_{k}'] = row is not None and {same(f, 'row[' + repr(f.name) + ']', repr(i['value']))}")
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def _criteria(e: EntitySpec, plans: list[dict]) -> list[Criterion]:
    out = []
    for k, plan in enumerate(plans, 1):
        out.append(Criterion(id=f"moved_{k}", description=f"The {e.display.lower()} \"{plan['title']}\" is now {plan['to'].replace('_', ' ')}."))
        for i in plan["inputs"]:
            out.append(Criterion(id=f"{i['field']}_{k}", description=f"Its {e.field(i['field']).display.lower()} is \"{i['value']}\"."))
    return out


class MoveRecord(Family):
    """Move one record of an entity to another state through the compiled UI."""

    def __init__(self, spec: AppSpec, entity: EntitySpec, count: int = 1):
        self.spec, self.entity, self.count = spec, entity, count
        self.name = f"{spec.name}.{entity.name}.{'move' if count == 1 else 'move_two'}"
        self.apps = (spec.name,)
        self.description = f"{'Move' if count == 1 else 'Move two'} {entity.display_plural.lower()} through their states ({spec.title})."
        self.difficulty = "easy" if count == 1 and not any(t.inputs for t in entity.transitions) else "medium"
        self.capabilities = ("navigate", "search", "disambiguate") + (("form_fill",) if any(t.inputs for t in entity.transitions) else ()) \
            + (("confirm",) if any(t.confirm for t in entity.transitions) else ()) + (("multi_item",) if count > 1 else ())

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        plans: list[dict] = []
        for _ in range(self.count):
            plan = _plan(self.spec, self.entity, world, rng, {p["row_id"] for p in plans})
            if plan is None:
                return None
            plans.append(plan)
        what = "; then ".join(_describe(self.spec, self.entity, p) for p in plans)
        instruction = say(rng, world, "Open {app}, {what}.", "Go to {app}: {what}.",
                          app=self.spec.title, what=what)
        return self._req(instruction, {"plans": plans}, _criteria(self.entity, plans))

    def golden(self, req: Requirements) -> str:
        steps: list[str] = []
        for plan in req.answer_context["plans"]:
            steps += _golden_steps(self.spec, self.entity, plan)
        return solve_source(*steps)

    def verifier(self, req: Requirements) -> str:
        return _verifier(self.spec, self.entity, req.answer_context["plans"])


def move_families(spec: AppSpec) -> list[Family]:
    out: list[Family] = []
    for e in spec.entities:
        if e.transitions and table_page(spec, e):
            out.append(MoveRecord(spec, e))
            if e.rows >= 8:
                out.append(MoveRecord(spec, e, count=2))
    return out


__all__ = ["MoveRecord", "move_families"]
