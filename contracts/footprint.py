"""State diffs and the footprint guard's check: what an attempt changed outside the golden run's footprint.

A row is identified by its `id` field, or by its whole content when its table has none. An attempt
may change only the rows and fields the golden run changed, delete only the rows it deleted, and add
at most as many rows to a table as it added; fields the apps declare as view state and new rows they
declare inert (a cancelled transfer) do not count; there is no exemption for view preferences, which apps keep
in the URL, never in a table (docs/apps.md rule 9, the checker's ui_state law). Anything else is collateral damage, and
`contracts.scoring.score_final` fails the attempt for it. Recording a footprint from a golden run
(which reads the apps' manifests) is `factory.verifiers.footprint.record`.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from .task import Footprint, TableChanges

__all__ = ["Change", "State", "collateral", "diff", "row_key"]

State = dict[str, dict[str, list[dict[str, Any]]]]
"""App -> table -> rows: a state dump of every app of a task."""


class Change(BaseModel):
    """One row-level difference between two state dumps."""

    model_config = ConfigDict(frozen=True)

    app: str
    table: str
    key: str
    kind: Literal["changed", "added", "deleted"]
    fields: tuple[str, ...] = Field(default=(), description="For 'changed': the fields that differ.")

    def __str__(self) -> str:
        where = f"{self.app}.{self.table}[{self.key}]"
        return f"{where} {self.kind}" + (f" ({', '.join(self.fields)})" if self.fields else "")


def row_key(row: dict[str, Any]) -> str:
    """A row's identity within its table."""
    return str(row["id"]) if "id" in row else json.dumps(row, sort_keys=True, default=str)


def diff(before: State, after: State, view_state: dict[str, Iterable[str]] | None = None,
         inert_rows: dict[str, dict[str, dict[str, Any]]] | None = None) -> list[Change]:
    """Every row added, deleted or changed from `before` to `after`; view-state fields and inert new rows do not count."""
    view_state = {app: set(fields) for app, fields in (view_state or {}).items()}
    inert_rows = inert_rows or {}
    changes: list[Change] = []
    for app in sorted(set(before) | set(after)):
        ignored = view_state.get(app, set())
        tables_a, tables_b = before.get(app, {}), after.get(app, {})
        for table in sorted(set(tables_a) | set(tables_b)):
            if tables_a.get(table) == tables_b.get(table):
                continue  # most tables are untouched: one comparison in C, not one per field
            rows_a = {row_key(r): r for r in tables_a.get(table, [])}
            rows_b = {row_key(r): r for r in tables_b.get(table, [])}
            for key in sorted(set(rows_a) | set(rows_b)):
                a, b = rows_a.get(key), rows_b.get(key)
                if a is None:
                    inert = inert_rows.get(app, {}).get(table)
                    if not (inert and all(b.get(f) == v for f, v in inert.items())):
                        changes.append(Change(app=app, table=table, key=key, kind="added"))
                elif b is None:
                    changes.append(Change(app=app, table=table, key=key, kind="deleted"))
                elif a != b:
                    fields = tuple(f for f in sorted(set(a) | set(b)) if a.get(f) != b.get(f) and f"{table}.{f}" not in ignored)
                    if fields:
                        changes.append(Change(app=app, table=table, key=key, kind="changed", fields=fields))
    return changes


def collateral(footprint: Footprint, initial: State, final: State) -> tuple[str, ...]:
    """The changes of an attempt that lie outside the footprint, in words (empty: none)."""
    outside: list[str] = []
    added: dict[tuple[str, str], int] = {}
    for change in diff(initial, final, footprint.view_state, footprint.inert_rows):
        allowed = footprint.tables.get(change.app, {}).get(change.table, TableChanges())
        if change.kind == "added":
            added[(change.app, change.table)] = added.get((change.app, change.table), 0) + 1
            if added[(change.app, change.table)] == allowed.added + 1:
                outside.append(f"{change.app}.{change.table}: more rows added than the task needs ({allowed.added})")
        elif change.kind == "deleted":
            if change.key not in allowed.deleted:
                outside.append(str(change))
        else:
            extra = set(change.fields) - set(allowed.changed.get(change.key, ()))
            if extra:
                outside.append(str(change.model_copy(update={"fields": tuple(sorted(extra))})))
    return tuple(outside)
