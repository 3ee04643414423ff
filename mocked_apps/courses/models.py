"""The courses app's tables: the courses the signed-in user takes, their modules and module items,
assignment groups (with weights), assignments, the user's submissions (a Drive file or text, attempt by
attempt, graded or not), announcements, and the user's Drive files as the submission picker lists them.

Totals are not stored: a course's grade is the weighted mean of its groups' percentages over graded
work (`grading.course_total`), so it moves as grades come in.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NaiveDatetime
from sqlmodel import Field, String

from mocked_apps.kit.tables import namespace

AppModel = namespace()
"""This app's table namespace."""


class Course(AppModel, table=True):
    """A course the user is enrolled in."""

    id: int | None = Field(default=None, primary_key=True, description="Course id.")
    code: str = Field(description="Course code as shown, e.g. 'PM 210'.")
    name: str = Field(min_length=1, description="Course name, e.g. 'Project Management Fundamentals'.")
    term: str = Field(description="Term, e.g. 'Spring 2026'.")
    teacher: str = Field(description="Teacher's name.")
    teacher_email: str = Field(description="Teacher's email.")
    color: str = Field(default="#2563eb", description="Card colour, '#rrggbb'.")


class Module(AppModel, table=True):
    """A unit of a course: an ordered list of items."""

    id: int | None = Field(default=None, primary_key=True, description="Module id.")
    course_id: int = Field(foreign_key="course.id", index=True, description="Course.")
    position: int = Field(ge=1, description="Order within the course.")
    title: str = Field(min_length=1, description="Module title, e.g. 'Week 3: Risk'.")


class ModuleItem(AppModel, table=True):
    """One item of a module: a reading page or an assignment; the user marks pages done."""

    id: int | None = Field(default=None, primary_key=True, description="Module item id.")
    module_id: int = Field(foreign_key="module.id", index=True, description="Module.")
    position: int = Field(ge=1, description="Order within the module.")
    kind: Literal["page", "assignment"] = Field(sa_type=String, description="'page' (a reading) or 'assignment'.")
    title: str = Field(min_length=1, description="Item title as listed.")
    body: str = Field(default="", description="A page's text.")
    assignment_id: int | None = Field(default=None, description="For kind 'assignment': the assignment.")
    done: bool = Field(default=False, description="Marked done by the user (pages); assignments count as done once submitted.")


class AssignmentGroup(AppModel, table=True):
    """A weighted group of a course's assignments, e.g. 'Homework 30%'."""

    id: int | None = Field(default=None, primary_key=True, description="Group id.")
    course_id: int = Field(foreign_key="course.id", index=True, description="Course.")
    name: str = Field(description="Group name, e.g. 'Homework'.")
    weight: float = Field(ge=0, le=100, description="Percent of the course grade; a course's weights sum to 100.")


class Assignment(AppModel, table=True):
    """Work to hand in by a due date."""

    id: int | None = Field(default=None, primary_key=True, description="Assignment id.")
    course_id: int = Field(foreign_key="course.id", index=True, description="Course.")
    group_id: int = Field(foreign_key="assignmentgroup.id", description="Its weighted group.")
    title: str = Field(min_length=1, description="Assignment title.")
    description: str = Field(default="", description="What to hand in.")
    points: float = Field(gt=0, description="Points possible.")
    due_at: NaiveDatetime = Field(description="Due date and time; later submissions are marked late.")
    lock_at: NaiveDatetime = Field(description="After this, no submissions are accepted.")
    accepts: str = Field(description="What may be submitted, comma-separated: 'doc' (a Drive document), 'table' (a Drive spreadsheet), 'text'.")


class Submission(AppModel, table=True):
    """One attempt of the user at an assignment; the latest attempt is the one graded."""

    id: int | None = Field(default=None, primary_key=True, description="Submission id.")
    assignment_id: int = Field(foreign_key="assignment.id", index=True, description="Assignment.")
    attempt: int = Field(ge=1, description="1 for the first attempt, then 2, 3...")
    submitted_at: NaiveDatetime = Field(description="When it was handed in (virtual clock).")
    kind: Literal["file", "text"] = Field(sa_type=String, description="'file' (a Drive file) or 'text'.")
    drivefile_id: int | None = Field(default=None, description="For 'file': the Drive file handed in.")
    file_name: str = Field(default="", description="For 'file': the file's name at submission.")
    body: str = Field(default="", description="For 'text': the text handed in.")
    comment: str = Field(default="", description="The student's comment to the teacher, optional.")
    late: bool = Field(default=False, description="True when handed in after the due date.")
    score: float | None = Field(default=None, ge=0, description="Points awarded; null until graded.")
    feedback: str = Field(default="", description="The teacher's comment with the grade.")


class Announcement(AppModel, table=True):
    """A message from a course's teacher to the class."""

    id: int | None = Field(default=None, primary_key=True, description="Announcement id.")
    course_id: int = Field(foreign_key="course.id", index=True, description="Course.")
    title: str = Field(min_length=1, description="Headline.")
    body: str = Field(description="Text of the announcement.")
    posted_at: NaiveDatetime = Field(description="When it was posted.")
    read: bool = Field(default=False, description="Opened by the user (view state).")


class DriveFile(AppModel, table=True):
    """A file of the user's Drive, as the submission picker lists it (the same names as the Drive app)."""

    id: int | None = Field(default=None, primary_key=True, description="Drive file id.")
    name: str = Field(min_length=1, description="File name as in Drive.")
    folder: str = Field(default="", description="Folder path in Drive.")
    kind: Literal["doc", "table"] = Field(sa_type=String, description="'doc' (a document) or 'table' (a spreadsheet).")
