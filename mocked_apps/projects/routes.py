"""Pages and form posts of the task manager: home, a project's board (filter by assignee and label),
a task (edit status, assignee, due day, priority, labels; comment; complete; delete), a new task,
and my tasks by due day.

Forms are validated in the POST; an error re-renders the form with the values typed and a message per
field (status 422) and writes nothing.
"""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, Request
from sqlmodel import select

from mocked_apps.kit import GymDep

from .board import cards, due_state, labels_of, project_tasks
from .models import BoardColumn, Comment, Label, Member, Project, Task, TaskLabel

router = APIRouter()
PRIORITIES = ("low", "medium", "high")


def _me(gym) -> Member | None:
    return gym.db.exec(select(Member).where(Member.is_me == True)).first()  # noqa: E712


def _columns(gym, project_id: int) -> list[BoardColumn]:
    return list(gym.db.exec(select(BoardColumn).where(BoardColumn.project_id == project_id).order_by(BoardColumn.position)).all())


def _common(gym) -> dict:
    """What every page's layout needs: the sidebar's projects."""
    return {"projects": gym.db.exec(select(Project).where(Project.archived == False).order_by(Project.id)).all()}  # noqa: E712


def _form_values(form) -> dict:
    return {"title": str(form.get("title", "")).strip(), "description": str(form.get("description", "")).strip(),
            "column": str(form.get("column", "")), "assignee": str(form.get("assignee", "")), "due": str(form.get("due", "")).strip(),
            "priority": str(form.get("priority", "medium")), "labels": [str(v) for v in form.getlist("labels")]}


def _errors(gym, project_id: int, values: dict) -> dict[str, str]:
    errors = {}
    if not values["title"]:
        errors["title"] = "Give the task a title."
    elif len(values["title"]) > 140:
        errors["title"] = "Keep the title under 140 characters."
    if values["column"] not in {str(c.id) for c in _columns(gym, project_id)}:
        errors["column"] = "Choose a column of this project."
    if values["assignee"] and not (values["assignee"].isdigit() and gym.db.get(Member, int(values["assignee"]))):
        errors["assignee"] = "Choose a member of the team."
    if values["due"]:
        try:
            date.fromisoformat(values["due"])
        except ValueError:
            errors["due"] = "Enter the due date as YYYY-MM-DD."
    if values["priority"] not in PRIORITIES:
        errors["priority"] = "Choose low, medium or high."
    known = {str(label.id) for label in gym.db.exec(select(Label)).all()}
    if any(v not in known for v in values["labels"]):
        errors["labels"] = "Choose labels from the list."
    return errors


def _apply(gym, task: Task, values: dict) -> None:
    """Write validated form values onto `task`, its done time and its labels."""
    column = gym.db.get(BoardColumn, int(values["column"]))
    if column.id != task.column_id:
        task.position = len([t for t in project_tasks(gym.db, task.project_id) if t.column_id == column.id]) + 1
    task.title, task.description, task.column_id = values["title"], values["description"], column.id
    task.assignee_id = int(values["assignee"]) if values["assignee"] else None
    task.due = values["due"] or None
    task.priority = values["priority"]
    task.completed_at = (task.completed_at or gym.now) if column.done else None
    gym.db.add(task)
    gym.db.flush()
    chosen = {int(v) for v in values["labels"]}
    kept = set()
    for row in gym.db.exec(select(TaskLabel).where(TaskLabel.task_id == task.id)).all():  # untouched labels keep their rows
        if row.label_id in chosen:
            kept.add(row.label_id)
        else:
            gym.db.delete(row)
    for label in sorted(chosen - kept):
        gym.db.add(TaskLabel(task_id=task.id, label_id=label))


@router.get("/")
def home(gym: GymDep):
    today = gym.now.date()
    projects = _common(gym)["projects"]
    stats = {}
    for p in projects:
        pcards = cards(gym.db, project_tasks(gym.db, p.id), today)
        stats[p.id] = {"open": sum(not c.done for c in pcards), "overdue": sum(c.due == "overdue" for c in pcards), "done": sum(c.done for c in pcards)}
    me = _me(gym)
    mine = [c for c in cards(gym.db, list(gym.db.exec(select(Task).where(Task.assignee_id == (me.id if me else -1)).order_by(Task.due, Task.id)).all()), today)
            if not c.done and c.due in ("overdue", "today", "soon")]
    names = {p.id: p.name for p in projects}
    return gym.render("home.html", **_common(gym), stats=stats, mine=mine, names=names)


@router.get("/projects/{project_id}")
def board(gym: GymDep, project_id: int, assignee: str = "", label: str = ""):
    project = gym.get(Project, project_id)
    pcards = cards(gym.db, project_tasks(gym.db, project.id), gym.now.date())
    if assignee:
        pcards = [c for c in pcards if str(c.task.assignee_id or "none") == assignee]
    if label:
        pcards = [c for c in pcards if any(str(x.id) == label for x in c.labels)]
    columns = _columns(gym, project.id)
    return gym.render("board.html", **_common(gym), project=project, columns=columns, by_column={c.id: [x for x in pcards if x.column.id == c.id] for c in columns},
                      members=gym.db.exec(select(Member).order_by(Member.id)).all(), labels=gym.db.exec(select(Label).order_by(Label.id)).all(),
                      assignee=assignee, label=label, current=project.id)


def _form_page(gym, project: Project, values: dict, errors: dict, task: Task | None = None, status: int = 200):
    response = gym.render("task_form.html", **_common(gym), project=project, columns=_columns(gym, project.id), values=values, errors=errors, task=task,
                          members=gym.db.exec(select(Member).order_by(Member.id)).all(), labels=gym.db.exec(select(Label).order_by(Label.id)).all(),
                          priorities=PRIORITIES, current=project.id)
    response.status_code = status
    return response


@router.get("/projects/{project_id}/new")
def new_task(gym: GymDep, project_id: int, column: str = ""):
    project = gym.get(Project, project_id)
    first = _columns(gym, project.id)[0]
    values = {"title": "", "description": "", "column": column or str(first.id), "assignee": "", "due": "", "priority": "medium", "labels": []}
    return _form_page(gym, project, values, {})


@router.post("/projects/{project_id}/tasks")
async def create_task(gym: GymDep, project_id: int, request: Request):
    project = gym.get(Project, project_id)
    values = _form_values(await request.form())
    errors = _errors(gym, project.id, values)
    if errors:
        return _form_page(gym, project, values, errors, status=422)
    task = Task(project_id=project.id, column_id=int(values["column"]), title=values["title"], created_at=gym.now, position=0)
    task.column_id = -1  # so that _apply places it at the end of its column
    _apply(gym, task, values)
    gym.advance()
    return gym.done(f"/tasks/{task.id}", notice=f"Task created in {project.name}")


@router.get("/tasks/{task_id}")
def task_page(gym: GymDep, task_id: int):
    task = gym.get(Task, task_id)
    project = gym.get(Project, task.project_id)
    values = {"title": task.title, "description": task.description, "column": str(task.column_id), "assignee": str(task.assignee_id or ""),
              "due": task.due or "", "priority": task.priority, "labels": [str(x.id) for x in labels_of(gym.db, task.id)]}
    return _task_view(gym, task, project, values, {})


def _task_view(gym, task: Task, project: Project, values: dict, errors: dict, status: int = 200):
    column = gym.get(BoardColumn, task.column_id)
    comments = gym.db.exec(select(Comment).where(Comment.task_id == task.id).order_by(Comment.created_at, Comment.id)).all()
    response = gym.render("task.html", **_common(gym), project=project, task=task, column=column, values=values, errors=errors,
                          columns=_columns(gym, project.id), members=gym.db.exec(select(Member).order_by(Member.id)).all(),
                          labels=gym.db.exec(select(Label).order_by(Label.id)).all(), priorities=PRIORITIES, comments=comments,
                          authors={m.id: m for m in gym.db.exec(select(Member)).all()}, due=due_state(task.due, column.done, gym.now.date()),
                          current=project.id)
    response.status_code = status
    return response


@router.post("/tasks/{task_id}")
async def save_task(gym: GymDep, task_id: int, request: Request):
    task = gym.get(Task, task_id)
    project = gym.get(Project, task.project_id)
    values = _form_values(await request.form())
    errors = _errors(gym, project.id, values)
    if errors:
        return _task_view(gym, task, project, values, errors, status=422)
    _apply(gym, task, values)
    gym.advance()
    return gym.done(f"/tasks/{task.id}", notice="Changes saved")


@router.post("/tasks/{task_id}/complete")
def complete(gym: GymDep, task_id: int):
    task = gym.get(Task, task_id)
    done = next((c for c in _columns(gym, task.project_id) if c.done), None)
    if done is None or task.column_id == done.id:
        return gym.done(f"/tasks/{task.id}", notice="This task is already done.")
    task.column_id, task.completed_at = done.id, gym.now
    task.position = len([t for t in project_tasks(gym.db, task.project_id) if t.column_id == done.id]) + 1
    gym.db.add(task)
    gym.advance()
    return gym.done(f"/tasks/{task.id}", notice="Task completed")


@router.post("/tasks/{task_id}/comments")
async def add_comment(gym: GymDep, task_id: int, request: Request):
    task = gym.get(Task, task_id)
    body = str((await request.form()).get("body", "")).strip()
    if not body or len(body) > 2000:
        project = gym.get(Project, task.project_id)
        values = {"title": task.title, "description": task.description, "column": str(task.column_id), "assignee": str(task.assignee_id or ""),
                  "due": task.due or "", "priority": task.priority, "labels": [str(x.id) for x in labels_of(gym.db, task.id)]}
        return _task_view(gym, task, project, values, {"body": "Write a comment (up to 2,000 characters)."}, status=422)
    me = _me(gym)
    gym.db.add(Comment(task_id=task.id, author_id=me.id if me else 0, body=body, created_at=gym.now))
    gym.advance()
    return gym.done(f"/tasks/{task.id}", notice="Comment added")


@router.post("/tasks/{task_id}/delete")
def delete_task(gym: GymDep, task_id: int):
    task = gym.get(Task, task_id)
    for row in [*gym.db.exec(select(TaskLabel).where(TaskLabel.task_id == task.id)).all(), *gym.db.exec(select(Comment).where(Comment.task_id == task.id)).all()]:
        gym.db.delete(row)
    gym.db.flush()  # the labels and comments go before the task their foreign keys name
    gym.db.delete(task)
    return gym.done(f"/projects/{task.project_id}", notice=f"Task deleted: {task.title}")


@router.get("/my-tasks")
def my_tasks(gym: GymDep):
    me = _me(gym)
    today = gym.now.date()
    mine = [c for c in cards(gym.db, list(gym.db.exec(select(Task).where(Task.assignee_id == (me.id if me else -1))).all()), today) if not c.done]
    mine.sort(key=lambda c: (c.task.due or "9999", c.task.id))
    groups = {"overdue": "Overdue", "today": "Today", "soon": "Next 7 days", "later": "Later", "none": "No due date"}
    names = {p.id: p.name for p in gym.db.exec(select(Project)).all()}
    return gym.render("my_tasks.html", **_common(gym), groups=[(label, [c for c in mine if c.due == key]) for key, label in groups.items()], names=names)
