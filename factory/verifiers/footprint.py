"""The footprint guard: the golden run's state diff, and what an attempt changed outside it.

A row is identified by its `id` field, or by its whole content when its table has none. The
golden run's diff (less the fields the apps declare as view state, and new rows they declare
inert, such as a cancelled transfer) is the task's `Footprint`;
an attempt may change only the rows and fields the golden run changed, delete only the rows it
deleted, and add at most as many rows to a table as it added. Anything else is collateral
damage, and scoring (`factory.verifiers.scoring.score_final`) fails the attempt for it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from factory.tasks.schema import Footprint, TableChanges
from mocked_apps.kit import load_manifest
from mocked_apps.registry import resolve

State = dict[str, dict[str, list[dict[str, Any]]]]


class AppRules(BaseModel):
    """What an app declares about its own state changes (its manifest's view_state and consequences)."""

    model_config = ConfigDict(frozen=True)

    view_state: frozenset[str] = Field(default=frozenset(), description="'table.field' values ignored by the guard.")
    inert_rows: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Table -> field values of new rows ignored by the guard.")
    consequences: frozenset[str] = Field(default=frozenset(), description="'table.field' or 'table' (new rows) that follow from other changes.")

    def follows(self, table: str, field: str | None = None) -> bool:
        """Whether a change to `table.field` (or, with no field, a new row of `table`) is a declared consequence."""
        return (f"{table}.{field}" if field else table) in self.consequences


@lru_cache(maxsize=None)
def app_rules(app: str) -> AppRules:
    """The declarations of the app a task names (a registry name or a package path)."""
    manifest = load_manifest(resolve(app))
    return AppRules(view_state=frozenset(manifest.view_state), inert_rows=dict(manifest.inert_rows),
                    consequences=frozenset(manifest.consequences))


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
                else:
                    fields = tuple(f for f in sorted(set(a) | set(b)) if a.get(f) != b.get(f) and f"{table}.{f}" not in ignored)
                    if fields:
                        changes.append(Change(app=app, table=table, key=key, kind="changed", fields=fields))
    return changes


def record(initial: State, golden: State, apps: Iterable[str], met_at_start: Iterable[str] = ()) -> Footprint:
    """The footprint of a golden run: its diff from the initial state, with the apps' view state."""
    apps = list(apps)
    view_state = {app: tuple(sorted(app_rules(app).view_state)) for app in apps}
    inert = {app: app_rules(app).inert_rows for app in apps if app_rules(app).inert_rows}
    tables: dict[str, dict[str, dict]] = {}
    for change in diff(initial, golden, view_state, inert):
        entry = tables.setdefault(change.app, {}).setdefault(change.table, {"changed": {}, "added": 0, "deleted": []})
        if change.kind == "added":
            entry["added"] += 1
        elif change.kind == "deleted":
            entry["deleted"].append(change.key)
        else:
            entry["changed"][change.key] = change.fields
    return Footprint(
        tables={app: {t: TableChanges(**e) for t, e in by_table.items()} for app, by_table in tables.items()},
        view_state={app: fields for app, fields in view_state.items() if fields},
        inert_rows=inert,
        met_at_start=tuple(sorted(met_at_start)),
    )


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
