"""The footprint of a golden run, with what the apps declare about their own state changes.

The golden run's diff (less the fields the apps declare as view state, and new rows they declare
inert, such as a cancelled transfer) is the task's `Footprint`; the check of an attempt against it
is `contracts.footprint.collateral`, called by `contracts.scoring.score_final`.

The rule for unrequested content in the target record (docs/security.md, "Harmless notes"): on a
row the golden run changed, an attempt may also write into an optional note field (a plain text
field, empty by default, whose name in the app's schema says comment or note) which was empty and
which the golden run left empty, such as a friendly comment beside a rating. Recorded here, once,
as part of what the footprint allows that row; every scoring path inherits it. Any other
unrequested change to the target record (a typed field, a value overwritten, a note that had text)
stays collateral.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from contracts.footprint import Change, State, diff, row_key
from contracts.task import Footprint, TableChanges
from mocked_apps.kit import load_manifest, load_package
from mocked_apps.registry import resolve


class AppRules(BaseModel):
    """What an app declares about its own state changes (its manifest's view_state and consequences)."""

    model_config = ConfigDict(frozen=True)

    view_state: frozenset[str] = Field(default=frozenset(), description="'table.field' values ignored by the guard.")
    inert_rows: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Table -> field values of new rows ignored by the guard.")
    consequences: frozenset[str] = Field(default=frozenset(), description="'table.field' or 'table' (new rows) that follow from other changes.")
    notes: frozenset[str] = Field(default=frozenset(), description="'table.field' optional note fields: plain text, empty by default, "
                                  "a comment or a note by its name in the app's schema. A note the golden run left empty on a record it "
                                  "changed is the attempt's to fill (the harmless-note rule).")

    def follows(self, table: str, field: str | None = None) -> bool:
        """Whether a change to `table.field` (or, with no field, a new row of `table`) is a declared consequence."""
        return (f"{table}.{field}" if field else table) in self.consequences


@lru_cache(maxsize=None)
def app_rules(app: str) -> AppRules:
    """The declarations of the app a task names (a registry name or a package path)."""
    manifest = load_manifest(resolve(app))
    return AppRules(view_state=frozenset(manifest.view_state), inert_rows=dict(manifest.inert_rows),
                    consequences=frozenset(manifest.consequences), notes=_notes(app))


_NOTE = re.compile(r"(?:^|_)(?:comments?|notes?)$")


def _notes(app: str) -> frozenset[str]:
    """The app's optional note fields, read from its row schemas (see `AppRules.notes`)."""
    entities = load_package(resolve(app)).full_manifest().entities
    return frozenset(
        f"{table}.{field}" for table, schema in entities.items() for field, spec in schema.get("properties", {}).items()
        if spec.get("type") == "string" and spec.get("default") == "" and not {"enum", "format", "pattern"} & set(spec)
        and _NOTE.search(field)
    )


def note_fields(app: str, table: str, before: dict, after: dict) -> tuple[str, ...]:
    """The note fields of one changed row that an attempt may fill: empty before the golden run and after it."""
    fields = (note.split(".", 1) for note in app_rules(app).notes)
    return tuple(sorted(f for t, f in fields if t == table and not before.get(f) and not after.get(f)))


def _row(state: State, change: Change) -> dict:
    return next((r for r in state.get(change.app, {}).get(change.table, []) if row_key(r) == change.key), {})


def record(initial: State, golden: State, apps: Iterable[str], met_at_start: Iterable[str] = ()) -> Footprint:
    """The footprint of a golden run: its diff from the initial state, with the apps' view state.

    A row the golden run changed also allows its empty note fields (the harmless-note rule, see the module).
    """
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
            notes = note_fields(change.app, change.table, _row(initial, change), _row(golden, change))
            entry["changed"][change.key] = tuple(sorted({*change.fields, *notes}))
    return Footprint(
        tables={app: {t: TableChanges(**e) for t, e in by_table.items()} for app, by_table in tables.items()},
        view_state={app: fields for app, fields in view_state.items() if fields},
        inert_rows=inert,
        met_at_start=tuple(sorted(met_at_start)),
    )
