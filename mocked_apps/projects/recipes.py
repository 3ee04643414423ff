"""Projects' recipes: the golden steps and verifier predicates other families call instead of re-typing
the task manager's labels, row ids or tables.

Golden steps return unindented lines of the golden action API (join them with
`contracts.family.solve_source`); predicates return verifier source defining one function.
"""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["add_task", "comment", "edit_task", "new_tasks_source", "open_app", "open_project", "open_task", "tasks_source"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_project(name: str) -> str:
    """Open a project's board from the sidebar."""
    return f"env.click({name!r}, role='link')"


def open_task(title: str) -> str:
    """On a board: open a card by its title."""
    return f"env.click({title!r}, role='link')"


def _fields(assignee: str | None, due: str | None, priority: str | None, labels: tuple[str, ...], status: str | None) -> list[str]:
    steps = []
    if status:
        steps.append(f'env.select("Status", {status!r})')
    if assignee:
        steps.append(f'env.select("Assignee", {assignee!r})')
    if due:
        steps.append(f'env.fill("Due date", {due!r})')
    if priority:
        steps.append(f'env.select("Priority", {priority.capitalize()!r})')
    return steps + [f"env.check({label!r}, True)" for label in labels]


def add_task(column: str, title: str, assignee: str | None = None, due: str | None = None, priority: str | None = None,
             labels: tuple[str, ...] = ()) -> str:
    """On a board: add a task to `column` with a title, an assignee (name), a due day (ISO), a priority and labels (names)."""
    return "\n".join([f'env.click("Add task to {column}", role="link")', f'env.fill("Title", {title!r})',
                      *_fields(assignee, due, priority, labels, None), 'env.click("Create task", role="button")'])


def edit_task(status: str | None = None, assignee: str | None = None, due: str | None = None, priority: str | None = None,
              labels: tuple[str, ...] = ()) -> str:
    """On a task's page: change the given fields (labels are ticked, never unticked) and save."""
    return "\n".join([*_fields(assignee, due, priority, labels, status), 'env.click("Save changes", role="button")'])


def comment(body: str) -> str:
    """On a task's page: post a comment."""
    return f'env.fill("Comment", {body!r})\nenv.click("Comment", role="button")'


def tasks_source(fn: str) -> str:
    """`fn(state)`: the tasks of a projects state dump, each with `column` (its column's name), `done` and `labels` (sorted names)."""
    return f'''
def {fn}(state):
    cols = {{c["id"]: c for c in state["boardcolumn"]}}
    names = {{l["id"]: l["name"] for l in state["label"]}}
    out = []
    for t in state["taskcard"]:
        labels = sorted(names[r["label_id"]] for r in state["tasklabel"] if r["task_id"] == t["id"] and r["label_id"] in names)
        col = cols.get(t["column_id"], {{}})
        out.append(dict(t, column=col.get("name"), done=bool(col.get("done")), labels=labels))
    return out
'''


def new_tasks_source(fn: str, project_id: int, title: str) -> str:
    """`fn(final)`: tasks created during the attempt in project `project_id` titled `title` (any case and spacing), as `tasks_source` gives them."""
    return tasks_source(f"{fn}_all") + f'''

def {fn}(final):
    old = {{t["id"] for t in final.initial_state["projects"]["taskcard"]}}
    want = " ".join({title!r}.lower().split())
    return [t for t in {fn}_all(final.state["projects"]) if t["id"] not in old and t["project_id"] == {project_id!r}
            and " ".join(t["title"].lower().split()) == want]
'''
