"""The task manager over real HTTP and a real browser: boards and filters, my tasks by due day, creating
and editing tasks (validation writes nothing), labels, completing, comments, deleting; the projection
keeps the world's team, invoices and meetings."""

from __future__ import annotations

import re
from html import escape

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.projects")
OPS = 1
"""The Operations project of the default seed: columns 1-4 (To do, In progress, Review, Done)."""


@pytest.fixture
def app(server):
    with Client(server) as instance:
        yield instance


def _at(value) -> str:
    """A dumped datetime as 'YYYY-MM-DDTHH:MM:SS' (the dump writes '2026-03-02 09:00:00.000000')."""
    return str(value).replace(" ", "T")[:19] if value else value


def _task(state, task_id):
    return next(t for t in state["taskcard"] if t["id"] == task_id)


def test_board_filters_and_my_tasks(app):
    state = app.state()
    ann = next(m for m in state["member"] if m["name"] == "Ann Matthews")
    board = app.get(f"/projects/{OPS}").text
    ops = [t for t in state["taskcard"] if t["project_id"] == OPS]
    assert all(f'aria-label="{escape(t["title"])}"' in board for t in ops)
    only_ann = app.get(f"/projects/{OPS}", assignee=str(ann["id"])).text
    assert all((f'aria-label="{escape(t["title"])}"' in only_ann) == (t["assignee_id"] == ann["id"]) for t in ops)
    urgent = app.get(f"/projects/{OPS}", label="1").text  # label 1: Urgent
    tagged = {r["task_id"] for r in state["tasklabel"] if r["label_id"] == 1}
    assert all((f'aria-label="{escape(t["title"])}"' in urgent) == (t["id"] in tagged) for t in ops)
    # overdue is read against the instance clock (2026-03-02): Feb 25's open invoice is overdue, done tasks never are
    assert re.search(r'<span class="due overdue">Feb 25, 2026</span>', board)
    mine = app.get("/my-tasks").text
    assert mine.index("Next 7 days") < mine.index("Prepare agenda: Month-end close review (Mar 3)")
    assert "Prepare agenda: Weekly team stand-up (Feb 20)" not in mine  # done
    assert "1 overdue" in app.get("/").text


def test_create_and_edit_tasks_with_validation(app):
    before = app.state()
    bad = app.http.post(f"/projects/{OPS}/tasks", data={"title": " ", "column": "99", "assignee": "77", "due": "2026-02-30", "priority": "urgent"})
    assert bad.status_code == 422
    for message in ("Give the task a title.", "Choose a column of this project.", "Choose a member of the team.", "Enter the due date as YYYY-MM-DD.",
                    "Choose low, medium or high."):
        assert message in bad.text
    assert app.state() == before
    where = app.post(f"/projects/{OPS}/tasks", title="Renew the company domain", column="1", assignee="2", due="2026-03-12", priority="high",
                     labels=["1", "6"])
    state = app.state()
    task = state["taskcard"][-1]
    assert where == f"/tasks/{task['id']}?notice=Task+created+in+Operations"
    assert (task["title"], task["column_id"], task["assignee_id"], task["due"], task["priority"], task["completed_at"]) == (
        "Renew the company domain", 1, 2, "2026-03-12", "high", None)
    assert task["position"] == sum(t["column_id"] == 1 for t in before["taskcard"]) + 1 and _at(task["created_at"]) == "2026-03-02T09:00:00"
    labels = [r for r in state["tasklabel"] if r["task_id"] == task["id"]]
    assert sorted(r["label_id"] for r in labels) == [1, 6]
    # to Done: completed now; untouched labels keep their rows; back out of Done: open again
    app.post(f"/tasks/{task['id']}", title="Renew the company domain", column="4", assignee="2", due="2026-03-12", priority="high", labels=["1", "6", "2"])
    done = app.state()
    assert _at(_task(done, task["id"])["completed_at"]) == "2026-03-02T09:01:00"
    assert {r["id"] for r in labels} <= {r["id"] for r in done["tasklabel"]}
    app.post(f"/tasks/{task['id']}", title="Renew the company domain", column="2", assignee="", due="", priority="low")
    reopened = _task(app.state(), task["id"])
    assert (reopened["completed_at"], reopened["assignee_id"], reopened["due"]) == (None, None, None)
    assert not [r for r in app.state()["tasklabel"] if r["task_id"] == task["id"]]


def test_comments_complete_and_delete(app):
    state = app.state()
    task = next(t for t in state["taskcard"] if t["title"].startswith("Pay invoice POS-39200"))
    empty = app.http.post(f"/tasks/{task['id']}/comments", data={"body": "   "})
    assert empty.status_code == 422 and "Write a comment" in empty.text and app.state() == state
    app.post(f"/tasks/{task['id']}/comments", body="Paid it this morning.")
    comment = app.state()["taskcomment"][-1]
    assert (comment["task_id"], comment["author_id"], comment["body"]) == (task["id"], 1, "Paid it this morning.")
    assert "Paid it this morning." in app.get(f"/tasks/{task['id']}").text
    assert app.post(f"/tasks/{task['id']}/complete") == f"/tasks/{task['id']}?notice=Task+completed"
    assert _task(app.state(), task["id"])["column_id"] == 4
    assert "already+done" in app.post(f"/tasks/{task['id']}/complete")
    assert app.post(f"/tasks/{task['id']}/delete").startswith(f"/projects/{OPS}?notice=Task+deleted")
    after = app.state()
    assert task["id"] not in {t["id"] for t in after["taskcard"]}
    assert not [r for r in after["tasklabel"] + after["taskcomment"] if r["task_id"] == task["id"]]


def test_main_flow_in_a_real_browser_at_both_sizes(app):
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(app.url("/"))
            page.get_by_role("link", name="Operations", exact=True).click()
            page.get_by_role("link", name="Add task to To do").click()
            page.get_by_label("Title").fill(f"Order toner ({form_factor})")
            page.get_by_label("Assignee").select_option(label="Ann Matthews")
            page.get_by_label("Due date").fill("2026-03-09")
            page.get_by_label("Urgent").check()
            page.get_by_role("button", name="Create task").click()
            assert "Task created in Operations" in page.inner_text("main"), form_factor
            page.get_by_label("Comment", exact=True).fill("Two cartridges, please.")
            page.get_by_role("button", name="Comment", exact=True).click()
            page.get_by_role("button", name="✓ Mark complete").click()
            assert "Completed" in page.inner_text("main"), form_factor
    assert pages.errors == []
    made = [t for t in app.state()["taskcard"] if t["title"].startswith("Order toner")]
    assert [(t["assignee_id"], t["due"], t["column_id"]) for t in made] == [(3, "2026-03-09", 4)] * 2


def test_projection_keeps_the_worlds_team_invoices_and_meetings():
    """The team is the persona's organisation; an invoice is a task due on its due day (done once paid); a meeting the
    persona runs is an agenda task on its day (done once past); a client gets a project with a follow-up of its meeting."""
    from datetime import date, datetime

    from contracts.world import Invoice, LineItem, Meeting, Organisation, Person, Persona, Scenario, World
    from mocked_apps.projects.projection import project

    persona = Persona(id="p", name="Rosa Delgado", email="r@db.example", role="owner", company="Delgado Bakery", domain="db.example")
    orgs = (Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),
            Organisation(id="o2", name="Flour Mill", kind="vendor", domain="mill.example", category="flour"),
            Organisation(id="o3", name="Harbour Cafe", kind="client", domain="cafe.example"))
    people = (Person(id="u", name="Rosa Delgado", email="r@db.example", org="o1", role="owner"),
              Person(id="b", name="Ben Ortiz", email="ben@db.example", org="o1", role="bookkeeper"),
              Person(id="s", name="Sam Lee", email="sam@db.example", org="o1", role="head baker"),
              Person(id="v", name="Vera Mill", email="vera@mill.example", org="o2", role="accounts"),
              Person(id="c", name="Cleo Hart", email="cleo@cafe.example", org="o3", role="owner"))
    def invoice(number, due, paid):
        return Invoice(id=number, number=number, vendor="o2", contact="v", issued=date(2026, 3, 20), due=due, description="Flour",
                       items=(LineItem(description="Flour 25 kg", quantity=2, unit_price=30.0),), amount=60.0, paid=paid)
    meetings = (Meeting(id="m1", title="Weekly bake plan", start=datetime(2026, 4, 1, 8), end=datetime(2026, 4, 1, 9), location="Kitchen",
                        organizer="u", attendees=("s",)),
                Meeting(id="m2", title="Menu tasting", start=datetime(2026, 4, 8, 10), end=datetime(2026, 4, 8, 11), location="Cafe",
                        organizer="c", attendees=("u", "b")))
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=datetime(2026, 4, 6, 9)),
                  user="u", organisations=orgs, people=people, invoices=(invoice("FM-1", date(2026, 4, 1), True), invoice("FM-2", date(2026, 4, 3), False)),
                  meetings=meetings)
    rows = project(world)
    assert [(m["name"], m["is_me"]) for m in rows["member"]] == [("Rosa Delgado", True), ("Ben Ortiz", False), ("Sam Lee", False)]
    cols = {c["id"]: c for c in rows["boardcolumn"]}
    tasks = {t["title"]: t for t in rows["taskcard"]}
    paid, late = tasks["Pay invoice FM-1 (Flour Mill)"], tasks["Pay invoice FM-2 (Flour Mill)"]
    assert (paid["due"], cols[paid["column_id"]]["done"]) == ("2026-04-01", True)
    assert (late["due"], cols[late["column_id"]]["name"], late["assignee_id"], late["priority"]) == ("2026-04-03", "In progress", 2, "high")
    agenda = tasks["Prepare agenda: Weekly bake plan (Apr 1)"]
    assert (agenda["due"], cols[agenda["column_id"]]["done"], agenda["assignee_id"]) == ("2026-04-01", True, 1)
    assert [p["name"] for p in rows["project"]] == ["Operations", "Team", "Harbour Cafe account"]
    follow = tasks["Follow up: Menu tasting"]
    assert (follow["project_id"], follow["due"], cols[follow["column_id"]]["name"], follow["assignee_id"]) == (3, "2026-04-09", "To do", 1)
    assert project(world) == rows
