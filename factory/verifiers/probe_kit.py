"""What the probe modules share: the probe itself and the small state edits every kind of probe makes."""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.footprint import row_key
from contracts.scoring import Final
from contracts.task import Task

__all__ = ["DATETIME", "Probe", "ProbeKind", "another_value", "make_probe", "referenced", "rows_by_key", "task_text", "with_rows"]

ProbeKind = Literal["partial", "collateral", "wrong_target", "answer_spam", "clock", "fuzz"]
DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$")
"""A date or timestamp as the apps' state dumps write them."""


class Probe(BaseModel):
    """One negative final and how it was made."""

    model_config = ConfigDict(frozen=True)

    kind: ProbeKind
    name: str = Field(description="What the probe did, e.g. 'reverted mail.thread[4] (starred)'.")
    final: Final
    full_reward_only: bool = Field(default=False, description="Success counts against the task only with full reward: the probe "
                                   "blanks a detail that an optional criterion may check alone (a new row's memo).")
    crash_counts: bool = Field(default=True, description="Whether a verifier crash on this final rejects the task; not for "
                               "finals the app may never produce (a blanked field, a scaled balance).")


def with_rows(golden: Final, app: str, table: str, rows: list[dict]) -> dict:
    """The golden state with one table's rows replaced (rows kept in key order, like a dump)."""
    state = {a: dict(tables) for a, tables in golden.state.items()}
    state[app][table] = sorted(rows, key=lambda r: r["id"]) if all(isinstance(r.get("id"), int) for r in rows) else rows
    return state


def make_probe(kind: ProbeKind, name: str, golden: Final, state: dict | None = None, lenient: bool = False, **answer: Any) -> Probe:
    """A probe; `lenient` for finals the app may never produce (a crash on them is not held against the task)."""
    final = golden.model_copy(update={"state": state if state is not None else golden.state, **answer})
    return Probe(kind=kind, name=name, final=final, crash_counts=not lenient)


def rows_by_key(state: dict, app: str, table: str) -> dict[str, dict]:
    """One table's rows by key."""
    return {row_key(r): r for r in state.get(app, {}).get(table, [])}


def another_value(value: Any) -> Any:
    """Another value of the same kind (a flipped bool, one more, a suffixed text)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + " (edited)"
    return "edited" if value is None else None


def referenced(field: str, tables: dict) -> str | None:
    """The table a foreign-key-like field points to: 'thread_id' -> 'thread', 'from_account_id' -> 'account'."""
    if not field.endswith("_id"):
        return None
    stem = field[:-3]
    for candidate in (stem, stem.split("_")[-1]):
        if candidate in tables and tables[candidate] and "id" in tables[candidate][0]:
            return candidate
    return None


def task_text(task: Task) -> str:
    """What the task says, lower-cased: its instruction and answer context."""
    return (task.instruction + "\n" + json.dumps(task.answer_context, default=str)).lower()
