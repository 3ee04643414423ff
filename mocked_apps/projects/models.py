"""The task manager's tables: team members (the world's colleagues), projects with their board columns,
labels, tasks (a column, an assignee, a due day, a priority, labels) and comments."""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Member(AppModel, table=True):
    """A person of the team who can be assigned tasks."""

    id: int | None = Field(default=None, primary_key=True, description="Member id.")
    name: str = Field(min_length=1, description="Full name.")
    email: str = Field(description="Email address.")
    role: str = Field(default="", description="Job title.")
    is_me: bool = Field(default=False, description="True for the signed-in user.")


class Project(AppModel, table=True):
    """A project and its board."""

    id: int | None = Field(default=None, primary_key=True, description="Project id.")
    name: str = Field(min_length=1, description="Project name as shown.")
    description: str = Field(default="", description="What it is for.")
    colour: str = Field(default="#4c6ef5", description="Colour of its icon, '#rrggbb'.")
    owner_id: int = Field(description="Member who owns it.")
    archived: bool = Field(default=False, description="Archived projects are hidden from the sidebar.")


class BoardColumn(AppModel, table=True):
    """A column (section) of a project's board, in board order."""

    __tablename__ = "boardcolumn"

    id: int | None = Field(default=None, primary_key=True, description="Column id.")
    project_id: int = Field(foreign_key="project.id", index=True, description="Project.")
    name: str = Field(min_length=1, description="e.g. 'To do', 'In progress', 'Review', 'Done'.")
    position: int = Field(description="Left-to-right order, from 1.")
    done: bool = Field(default=False, description="True for the column whose tasks are finished.")


class Label(AppModel, table=True):
    """A label tasks can carry (shared by every project)."""

    id: int | None = Field(default=None, primary_key=True, description="Label id.")
    name: str = Field(min_length=1, description="e.g. 'Urgent', 'Design'.")
    colour: str = Field(description="Chip colour '#rrggbb'.")


class Task(AppModel, table=True):
    """A task card."""

    __tablename__ = "taskcard"

    id: int | None = Field(default=None, primary_key=True, description="Task id.")
    project_id: int = Field(foreign_key="project.id", index=True, description="Project.")
    column_id: int = Field(foreign_key="boardcolumn.id", description="Column it is in (its status).")
    title: str = Field(min_length=1, description="What to do.")
    description: str = Field(default="", description="Details.")
    assignee_id: int | None = Field(default=None, description="Member it is assigned to; null: unassigned.")
    due: str | None = Field(default=None, description="Due day 'YYYY-MM-DD'; null: no due date.")
    priority: Literal["low", "medium", "high"] = Field(default="medium", sa_type=String, description="'low', 'medium' or 'high'.")
    position: int = Field(default=0, description="Order within its column.")
    created_at: NaiveDatetime = Field(description="When it was created.")
    completed_at: NaiveDatetime | None = Field(default=None, description="When it entered the done column; null while open.")


class TaskLabel(AppModel, table=True):
    """A label on a task."""

    __tablename__ = "tasklabel"

    id: int | None = Field(default=None, primary_key=True, description="Row id.")
    task_id: int = Field(foreign_key="taskcard.id", index=True, description="Task.")
    label_id: int = Field(foreign_key="label.id", description="Label.")


class Comment(AppModel, table=True):
    """A comment on a task."""

    __tablename__ = "taskcomment"

    id: int | None = Field(default=None, primary_key=True, description="Comment id.")
    task_id: int = Field(foreign_key="taskcard.id", index=True, description="Task.")
    author_id: int = Field(description="Member who wrote it.")
    body: str = Field(min_length=1, description="Text.")
    created_at: NaiveDatetime = Field(description="When it was posted.")
