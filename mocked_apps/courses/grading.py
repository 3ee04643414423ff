"""The courses app's rules apart from HTTP: which attempt counts, what may be handed in, lateness, and a
course's weighted total. Families call these on the projection's rows, so a task's ground truth is the
app's own. Rows may be models or dicts."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

__all__ = ["KIND_LABELS", "accepts", "course_total", "is_late", "latest", "letter"]

KIND_LABELS = {"doc": "a Drive document", "table": "a Drive spreadsheet", "text": "a text entry"}


def _get(row: Any, key: str) -> Any:
    return row[key] if isinstance(row, dict) else getattr(row, key)


def _dt(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def accepts(assignment: Any) -> list[str]:
    return [k.strip() for k in _get(assignment, "accepts").split(",") if k.strip()]


def latest(submissions: Iterable[Any], assignment_id: int) -> Any | None:
    """The attempt that counts: the latest one."""
    mine = [s for s in submissions if _get(s, "assignment_id") == assignment_id]
    return max(mine, key=lambda s: _get(s, "attempt")) if mine else None


def course_total(groups: Iterable[Any], assignments: Iterable[Any], submissions: Iterable[Any]) -> tuple[float | None, dict[int, float | None]]:
    """(the weighted total in percent, rounded to 2 decimals, or None with nothing graded; group id -> its percent).

    A group's percent is points scored / points possible over its graded assignments; the total is the
    weighted mean of the groups that have any graded work, their weights rescaled to 100.
    """
    submissions = list(submissions)
    per_group: dict[int, float | None] = {}
    weights: dict[int, float] = {}
    for g in groups:
        scored = possible = 0.0
        for a in assignments:
            if _get(a, "group_id") != _get(g, "id"):
                continue
            s = latest(submissions, _get(a, "id"))
            if s is not None and _get(s, "score") is not None:
                scored, possible = scored + _get(s, "score"), possible + _get(a, "points")
        per_group[_get(g, "id")] = round(100 * scored / possible, 2) if possible else None
        weights[_get(g, "id")] = _get(g, "weight")
    counted = {gid: pct for gid, pct in per_group.items() if pct is not None and weights[gid] > 0}
    if not counted:
        return None, per_group
    total_weight = sum(weights[gid] for gid in counted)
    return round(sum(pct * weights[gid] for gid, pct in counted.items()) / total_weight, 2), per_group


def letter(percent: float | None) -> str:
    if percent is None:
        return "–"
    for cut, grade in ((93, "A"), (90, "A-"), (87, "B+"), (83, "B"), (80, "B-"), (77, "C+"), (73, "C"), (70, "C-"), (60, "D")):
        if percent >= cut:
            return grade
    return "F"


def is_late(assignment: Any, at: datetime) -> bool:
    return at > _dt(_get(assignment, "due_at"))

