"""Probes on state the golden run did not leave: fields of the rows it inserted, and fuzzed amounts and statuses.

`inserted`: each field the golden run wrote into a new row, and the task names, blanked alone (a payment's
memo). Such a probe counts against the task only when it also keeps full reward: an optional criterion may
check the field alone. Fields the app fills itself are never blanked: ids and references (`*_id`), the
consequences the app declares (timestamps), values the row copies from a record it references (a payment's
payee name), values its column already holds (a kind, a status) and text the app derives from another field
or already holds (a guest's name from its directory).

`fuzz`: the untouched state with the amounts the golden run moves as consequences (balances) scaled up and
down, and the golden final with a status it sets changed to another value of its column. Few, drawn from the
task id, inside the footprint (the guard fails any other change).
"""

from __future__ import annotations

import random
import re
from typing import Any, Iterator

from contracts.footprint import Change, row_key
from contracts.scoring import Final
from contracts.task import Task
from factory.verifiers.footprint import AppRules
from factory.verifiers.probe_kit import DATETIME, Probe, make_probe, referenced, rows_by_key, task_text, with_rows

__all__ = ["fuzz", "inserted"]

_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\w)")
_FUZZ_STATUSES = 2


def inserted(task: Task, golden: Final, changes: list[Change], rules: dict[str, AppRules]) -> Iterator[Probe]:
    """Each field the golden run wrote into a new row, and the task names, blanked alone (with its echoes in other new rows)."""
    named, numbers = task_text(task), _named_numbers(task)
    new_rows = [(c.app, c.table, c.key) for c in changes if c.kind == "added"]
    for change in changes:
        rule, app, table = rules[change.app], change.app, change.table
        if change.kind != "added" or rule.follows(table):
            continue
        row = rows_by_key(golden.state, app, table)[change.key]
        column = rows_by_key(golden.initial_state, app, table).values()
        copied = _copied(golden.initial_state.get(app, {}), row)
        for field, value in sorted(row.items()):
            if field == "id" or field.endswith("_id") or rule.follows(table, field) or f"{table}.{field}" in rule.view_state:
                continue
            if not _names(value, named, numbers) or value in copied or any(other.get(field) == value for other in column):
                continue
            if _derived(field, value, row, golden.initial_state.get(app, {})):
                continue
            blank = "" if isinstance(value, str) else value * 2
            state = _echoed(golden, new_rows, value, blank)
            yield Probe(kind="partial", name=f"blanked {app}.{table}[{change.key}].{field} of the new row ({value!r} -> {blank!r})",
                        final=golden.model_copy(update={"state": state}), full_reward_only=True, crash_counts=False)


def _derived(field: str, value: Any, row: dict, tables: dict) -> bool:
    """Whether the app can fill this text itself: it is part of another field of the row (a guest's name 'John' beside
    'john.doe@...'), or a whole value the app already holds (its directory's names): the agent need not type it."""
    if not isinstance(value, str):
        return False
    text = value.strip().lower()
    if any(f != field and isinstance(v, str) and text in v.lower() for f, v in row.items()):
        return True
    return any(isinstance(v, str) and v.strip().lower() == text for rows in tables.values() for r in rows for v in r.values())


def _names(value: Any, text: str, numbers: set[float]) -> bool:
    """Whether the task names this value: a text it contains (not a date: the clock probe's), or an amount it states."""
    if isinstance(value, str):
        return len(value.strip()) >= 3 and not DATETIME.match(value) and value.strip().lower() in text
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return float(value) in numbers and (not float(value).is_integer() or abs(value) >= 10)  # small counts match too much


def _named_numbers(task: Task) -> set[float]:
    """The amounts a task states: in its instruction ('$1,250.00') and its answer context (less ids)."""
    found = {float(whole.replace(",", "") + (frac or "")) for whole, frac in _NUMBER_IN_TEXT.findall(task.instruction)}

    def walk(value: Any, key: str = "") -> Iterator[float]:
        if isinstance(value, dict):
            for k, v in value.items():
                yield from walk(v, str(k))
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from walk(v, key)
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and not key.endswith("id"):
            yield float(value)

    return found | set(walk(task.answer_context))


def _copied(tables: dict, row: dict) -> set:
    """The values of the records a row references (`payee_id` -> the payee): the app copies them, nobody types them."""
    values: set = set()
    for field, value in row.items():
        ref_table = referenced(field, tables)
        target = {row_key(r): r for r in tables[ref_table]}.get(str(value)) if ref_table and value is not None else None
        if target:
            values |= {v for f, v in target.items() if f != "id" and isinstance(v, (str, int, float))}
    return values


def _echoed(golden: Final, new_rows: list[tuple[str, str, str]], value: Any, blank: Any) -> dict:
    """The golden state with `value` replaced by `blank` in every new row that holds it (a memo and the posted line's reference)."""
    state = {a: dict(t) for a, t in golden.state.items()}
    swaps = {value: blank} if isinstance(value, str) else {value: blank, -value: -blank}
    for app, table in sorted({(a, t) for a, t, _ in new_rows}):
        keys = {k for a, t, k in new_rows if (a, t) == (app, table)}
        state[app][table] = [{f: swaps.get(v, v) if type(v) is type(value) else v for f, v in r.items()} if row_key(r) in keys else r
                             for r in state[app][table]]
    return state


def fuzz(task: Task, golden: Final, changes: list[Change], rules: dict[str, AppRules]) -> Iterator[Probe]:
    """Failing finals an agent could reach inside the footprint: the amounts the golden run moves as consequences (balances)
    scaled up and down in the untouched state, and a status the golden run sets changed to another value of its column.
    Few, and drawn from the task id (the same probes in every run)."""
    rng = random.Random(f"gymfactory.fuzz:{task.id}")
    moved = [(c, f) for c in changes if c.kind == "changed" for f in c.fields if rules[c.app].follows(c.table, f)]
    amounts = [(c, f) for c, f in moved if _is_amount(rows_by_key(golden.initial_state, c.app, c.table)[c.key].get(f))]
    if amounts:
        what = ", ".join(f"{c.app}.{c.table}[{c.key}].{f}" for c, f in amounts)
        for factor in (round(rng.uniform(3.0, 12.0), 2), round(rng.uniform(0.05, 0.5), 2)):
            state = {a: dict(t) for a, t in golden.initial_state.items()}
            for c, f in amounts:
                rows = rows_by_key(state, c.app, c.table)
                value = rows[c.key][f]
                rows[c.key] = {**rows[c.key], f: round(value * factor) if isinstance(value, int) else round(value * factor, 2)}
                state[c.app][c.table] = list(rows.values())
            yield make_probe("fuzz", f"the untouched state with {what} scaled by {factor}", golden, state, lenient=True, answer=None)
    flips = 0
    for change in changes:
        rule, app, table = rules[change.app], change.app, change.table
        if change.kind != "changed" or rule.follows(table):
            continue  # a new row's status is the app's to move on (an order 'placed' becomes 'delivered' without the agent)
        before, after = rows_by_key(golden.initial_state, app, table), rows_by_key(golden.state, app, table)
        row = after[change.key]
        for field in change.fields:
            if flips == _FUZZ_STATUSES or not (field == "status" or field.endswith("_status")) or rule.follows(table, field):
                continue
            others = sorted({r.get(field) for r in [*before.values(), *after.values()] if isinstance(r.get(field), str)}
                            - {row[field], before[change.key].get(field)})
            if not others:
                continue
            other, flips = rng.choice(others), flips + 1
            rows = [{**r, field: other} if k == change.key else r for k, r in after.items()]
            yield make_probe("fuzz", f"{app}.{table}[{change.key}].{field} set to {other!r} instead of {row[field]!r}", golden,
                         with_rows(golden, app, table, rows), lenient=True)


def _is_amount(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0
