"""The footprint of a golden run, with what the apps declare about their own state changes.

The golden run's diff (less the fields the apps declare as view state, and new rows they declare
inert, such as a cancelled transfer) is the task's `Footprint`; the check of an attempt against it
is `contracts.footprint.collateral`, called by `contracts.scoring.score_final`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from contracts.footprint import State, diff
from contracts.task import Footprint, TableChanges
from mocked_apps.kit import load_manifest
from mocked_apps.registry import resolve


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
