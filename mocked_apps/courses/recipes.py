"""Courses' recipes: how the app shows a world's records, golden steps and verifier predicates other
families call (course cards, section tabs, the submission form, the tables)."""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["mark_done", "new_submissions_source", "open_announcement", "open_app", "open_assignment", "open_course", "submit_file",
           "submit_text"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_course(code: str, name: str) -> str:
    """From anywhere in the app: the course's modules, through its dashboard card."""
    return "\n".join(['env.click(env.word("Dashboard"), role="link")', f'env.click({code + " " + name!r}, role="link")'])


def open_assignment(code: str, name: str, title: str) -> str:
    return "\n".join([open_course(code, name), 'env.click("Assignments", role="link")', f'env.click({title!r}, role="link")'])


def open_announcement(code: str, name: str, title: str) -> str:
    return "\n".join([open_course(code, name), 'env.click("Announcements", role="link")', f'env.click({title!r}, role="link")'])


def submit_file(file_name: str, resubmit: bool = False) -> str:
    """On an assignment's page: hand in a Drive file."""
    return "\n".join(['env.check("File from Drive", True)', f'env.select("Drive file", {file_name!r})',
                      f'env.click({"Resubmit" if resubmit else "Submit assignment"!r}, role="button")'])


def submit_text(text: str, resubmit: bool = False) -> str:
    """On an assignment's page: hand in a text entry."""
    return "\n".join(['env.check("Text entry", True)', f'env.fill("Text entry", {text!r})',
                      f'env.click({"Resubmit" if resubmit else "Submit assignment"!r}, role="button")'])


def mark_done(title: str) -> str:
    """On a course's modules page: mark a reading done."""
    return f'env.click({"Mark done: " + title!r}, role="button")'


def new_submissions_source(fn: str) -> str:
    """`fn(final)`: the submissions handed in during the attempt."""
    return f'''
def {fn}(final):
    old = {{s["id"] for s in final.initial_state["courses"]["submission"]}}
    return [s for s in final.state["courses"]["submission"] if s["id"] not in old]
'''
