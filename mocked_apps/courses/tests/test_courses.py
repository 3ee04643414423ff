"""The courses app over real HTTP and a real browser: modules and readings marked done, handing in Drive
files and text (kinds checked, late flag, attempts, closed after the lock date), the weighted total, and
announcements as view state."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from mocked_apps.courses.grading import course_total, letter
from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.courses")
NOW = datetime(2026, 3, 2, 9, 0)  # the seed's clock


@pytest.fixture
def lms(server):
    with Client(server) as instance:
        yield instance


def _open(state, accepts: str) -> dict:
    """The first assignment taking exactly `accepts` (e.g. "table,doc") that is not yet due."""
    return next(a for a in state["assignment"] if a["accepts"] == accepts and _at(a["due_at"]) > NOW)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value.replace(" ", "T"))


def test_submissions_are_checked_flagged_late_and_kept_by_attempt(lms):
    state = lms.state()
    risk = _open(state, "table,doc")  # not due yet, takes a spreadsheet or a document
    sheet = next(f for f in state["drivefile"] if f["kind"] == "table")
    doc = next(f for f in state["drivefile"] if f["kind"] == "doc")
    before = lms.state()
    memo = _open(state, "doc,text")  # a document or a text entry
    assert "is a Drive spreadsheet; this assignment takes a Drive document or a text entry" in lms.get(
        lms.post(f"/assignments/{memo['id']}/submit", kind="file", drivefile=str(sheet["id"]))).text
    assert "does not take text entries" in lms.get(lms.post(f"/assignments/{risk['id']}/submit", kind="text", body="my risks")).text
    assert "Choose a file from your Drive." in lms.get(lms.post(f"/assignments/{risk['id']}/submit", kind="file", drivefile="")).text
    assert lms.state() == before
    assert lms.post(f"/assignments/{risk['id']}/submit", kind="file", drivefile=str(sheet["id"]), comment=" v1 ") == \
        f"/assignments/{risk['id']}?notice=Submitted%3A+attempt+1"
    assert lms.post(f"/assignments/{risk['id']}/submit", kind="file", drivefile=str(doc["id"])).endswith("attempt+2")
    mine = [s for s in lms.state()["submission"] if s["assignment_id"] == risk["id"]]
    assert [(s["attempt"], s["file_name"], s["late"], s["comment"]) for s in mine] == [(1, sheet["name"], False, "v1"), (2, doc["name"], False, "")]
    page = lms.get(f"/assignments/{risk['id']}").text
    assert "Attempt 2" in page and "Resubmit" in page
    # past due but not locked: accepted and late; past the lock date: refused
    handed_in = {s["assignment_id"] for s in state["submission"]}
    quiz = next(a for a in state["assignment"] if _at(a["lock_at"]) < NOW and "text" in a["accepts"].split(",")
                and a["id"] not in handed_in)  # takes text, never handed in, past its lock date
    assert "This assignment is closed" in lms.get(f"/assignments/{quiz['id']}").text
    before = lms.state()
    assert lms.post(f"/assignments/{quiz['id']}/submit", kind="text", body="answers").startswith(f"/assignments/{quiz['id']}?check=1")
    assert lms.state() == before
    late = next(a for a in state["assignment"] if _at(a["due_at"]) < NOW < _at(a["lock_at"]) and a["id"] in handed_in
                and "doc" in a["accepts"].split(","))  # past due, still open, handed in once already
    assert lms.post(f"/assignments/{late['id']}/submit", kind="file", drivefile=str(doc["id"])).endswith("Submitted+%28late%29%3A+attempt+2")
    assert lms.state()["submission"][-1]["late"] is True


def test_the_weighted_total_follows_groups_and_graded_work(lms):
    state = lms.state()
    for course in state["course"]:
        groups = [g for g in state["assignmentgroup"] if g["course_id"] == course["id"]]
        assert sum(g["weight"] for g in groups) == 100
        total, _ = course_total(groups, [a for a in state["assignment"] if a["course_id"] == course["id"]], state["submission"])
        page = lms.get(f"/courses/{course['id']}/grades").text
        assert (f"{total:.2f}%" if total is not None else "–") in page and f'<span class="letter">{letter(total)}</span>' in page
    # by hand: two groups 30 / 40 with 15/20 and 45/50 graded -> (75*30 + 90*40) / 70
    groups = [{"id": 1, "weight": 30.0}, {"id": 2, "weight": 40.0}, {"id": 3, "weight": 30.0}]
    works = [{"id": 1, "group_id": 1, "points": 20.0}, {"id": 2, "group_id": 2, "points": 50.0}, {"id": 3, "group_id": 3, "points": 10.0}]
    subs = [{"assignment_id": 1, "attempt": 1, "score": 10.0}, {"assignment_id": 1, "attempt": 2, "score": 15.0},
            {"assignment_id": 2, "attempt": 1, "score": 45.0}, {"assignment_id": 3, "attempt": 1, "score": None}]
    assert course_total(groups, works, subs) == (round((75 * 30 + 90 * 40) / 70, 2), {1: 75.0, 2: 90.0, 3: None})


def test_readings_are_marked_done_and_announcements_read(lms):
    state = lms.state()
    page = next(i for i in state["moduleitem"] if i["kind"] == "page" and not i["done"])
    module = next(m for m in state["module"] if m["id"] == page["module_id"])
    assert f"Mark done: {page['title']}" in lms.get(f"/courses/{module['course_id']}").text
    lms.post(f"/items/{page['id']}/done")
    assert next(i for i in lms.state()["moduleitem"] if i["id"] == page["id"])["done"] is True
    work = next(i for i in state["moduleitem"] if i["kind"] == "assignment")
    before = lms.state()
    assert "count+as+done" in lms.post(f"/items/{work['id']}/done") and lms.state() == before
    unread = next(a for a in state["announcement"] if not a["read"])
    assert "Midterm" in lms.get(f"/courses/{unread['course_id']}/announcements").text
    lms.get(f"/announcements/{unread['id']}")
    assert next(a for a in lms.state()["announcement"] if a["id"] == unread["id"])["read"] is True


def test_main_flow_in_a_real_browser_at_both_sizes(lms):
    state = lms.state()
    memo = _open(state, "doc,text")
    course = next(c for c in state["course"] if c["id"] == memo["course_id"])
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(lms.url("/"))
            page.get_by_role("link", name=f"{course['code']} {course['name']}").click()
            page.get_by_role("link", name="Assignments").click()
            page.get_by_role("link", name=memo["title"]).click()
            page.get_by_label("File from Drive").check()
            page.get_by_label("Drive file").select_option(index=1)
            page.get_by_role("button", name=re.compile("^(Submit assignment|Resubmit)$")).click()
            assert "Submitted: attempt" in page.inner_text("main"), form_factor
            assert page.get_by_role("navigation", name="Courses navigation").get_by_role("link", name="Grades").is_visible()
    assert pages.errors == []


def test_projection_keeps_the_worlds_documents_and_clock():
    from datetime import datetime

    from contracts.world import Document, Organisation, Person, Persona, Scenario, World
    from mocked_apps.courses.projection import exam_of, project

    persona = Persona(id="p", name="Kenji Watanabe", email="k@kw.example", role="consultant", company="KW", domain="kw.example")
    now = datetime(2026, 9, 14, 9, 0)
    doc = lambda i, name, kind: Document(id=f"d{i}", name=name, kind=kind, folder="Work", owner="u", modified=now)  # noqa: E731
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="Term", description="", clock=now), user="u",
                  organisations=(Organisation(id="o1", name="KW", kind="self", domain="kw.example"),),
                  people=(Person(id="u", name="Kenji Watanabe", email="k@kw.example", org="o1", role="consultant"),),
                  documents=(doc(1, "Risk log", "table"), doc(2, "Memo draft", "doc")))
    rows = project(world)
    assert [(f["name"], f["kind"]) for f in rows["drivefile"]] == [("Risk log", "table"), ("Memo draft", "doc")]
    assert {c["term"] for c in rows["course"]} == {"Fall 2026"}
    start, minutes, room = exam_of(world, 0)
    exam = next(a for a in rows["announcement"] if a["course_id"] == 1 and a["title"] == "Midterm exam date")
    assert f"{start:%A, %B} {start.day} at {start:%H:%M}, {minutes} minutes, in {room}" in exam["body"] and start > now
    assert all(s["submitted_at"] < now.isoformat() for s in rows["submission"]) and project(world) == rows
