"""Declared ephemeral view state: what only records what the user looked at (e.g. `message.read`, set when a
thread is opened, as real mail apps do).

An app declares such fields in its manifest (`view_state=("message.read",)`); a GET route may then set
them with `gym.view(row, read=True)` and only them (`ViewStateError` otherwise: GET never writes
anything else). The footprint guard of every task ignores them, and the contract checker judges
"GET never writes" and the other state laws on dumps without them (`without_view_state`).
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["ViewStateError", "check_declared", "without_view_state"]


class ViewStateError(ValueError):
    """A route set a field as view state that its app's manifest does not declare."""


def check_declared(table: str, fields: Iterable[str], declared: Iterable[str]) -> None:
    """ViewStateError naming the first of `table.field` not declared as view state."""
    declared = set(declared)
    for field in fields:
        if f"{table}.{field}" not in declared:
            raise ViewStateError(f"{table}.{field} is not declared as view state (manifest view_state: {sorted(declared)})")


def without_view_state(dump: dict[str, list[dict[str, Any]]], declared: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """A state dump with the declared view-state fields left out of every row."""
    drop: dict[str, set[str]] = {}
    for entry in declared:
        table, _, field = entry.partition(".")
        drop.setdefault(table, set()).add(field)
    return {table: [{k: v for k, v in row.items() if k not in drop[table]} for row in rows] if table in drop else rows
            for table, rows in dump.items()}
