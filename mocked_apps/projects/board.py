"""Reading the board from an instance: a project's columns with their cards, each card with its labels,
assignee and how its due day stands against the instance clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, select

from .models import BoardColumn, Label, Member, Task, TaskLabel

__all__ = ["Card", "cards", "due_state", "labels_of"]


def due_state(due: str | None, done: bool, today: date) -> str:
    """'done', 'overdue', 'today', 'soon' (within 7 days), 'later' or 'none'."""
    if done:
        return "done"
    if not due:
        return "none"
    days = (date.fromisoformat(due) - today).days
    return "overdue" if days < 0 else "today" if days == 0 else "soon" if days <= 7 else "later"


@dataclass(frozen=True)
class Card:
    task: Task
    column: BoardColumn
    assignee: Member | None
    labels: tuple[Label, ...]
    due: str

    @property
    def done(self) -> bool:
        return self.column.done


def labels_of(db: Session, task_id: int) -> tuple[Label, ...]:
    ids = [r.label_id for r in db.exec(select(TaskLabel).where(TaskLabel.task_id == task_id).order_by(TaskLabel.label_id)).all()]
    return tuple(db.get(Label, i) for i in ids if db.get(Label, i) is not None)


def cards(db: Session, tasks: list[Task], today: date) -> list[Card]:
    out = []
    for t in tasks:
        column = db.get(BoardColumn, t.column_id)
        out.append(Card(t, column, db.get(Member, t.assignee_id) if t.assignee_id else None, labels_of(db, t.id), due_state(t.due, column.done, today)))
    return out


def project_tasks(db: Session, project_id: int) -> list[Task]:
    return list(db.exec(select(Task).where(Task.project_id == project_id).order_by(Task.position, Task.id)).all())
