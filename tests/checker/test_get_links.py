"""The links law: every same-origin GET link of every page reached is fetched once over plain HTTP, so a link that
fails for some records only, which the browser's sampled clicks never reach, fails the check with its URL."""

from __future__ import annotations

import httpx
import pytest

from mocked_apps.checker import check_app
from mocked_apps.checker.links import hrefs, links_law, sweep
from mocked_apps.kit import AdminClient, AppServer, Defect, Edit, derive_app
from mocked_apps.registry import resolve
from tests.conftest import FIXTURE_APPS

BROKEN_PRINT = Defect(
    name="broken_print",
    law="links",
    description="Broken notes: 'Print note' divides by the note's age in days, so it answers 500 for notes made today.",
    edits=(
        Edit(file="templates/note.html", find="</div>\n<div class=\"card\">",
             replace="<a href=\"{{ url('/note/%d/print' % note.id) }}\">Print note</a>\n</div>\n<div class=\"card\">"),
        Edit(file="templates/print.html",
             replace='{% extends "layout.html" %}\n{% block content %}\n<h1>{{ note.title }}</h1>\n'
                     "<p>{{ note.body }}</p><p class=\"muted\">kept {{ per_day }} times a day</p>\n{% endblock %}\n"),
        Edit(file="routes.py", find='@router.post("/note/{note_id}/pin")',
             replace='@router.get("/note/{note_id}/print")\ndef print_note(gym: GymDep, note_id: int):\n'
                     "    note = gym.get(Note, note_id)\n"
                     '    return gym.render("print.html", note=note, per_day=100 // (gym.now - note.created_at).days)\n\n\n'
                     '@router.post("/note/{note_id}/pin")'),
    ),
)
"""Notes 1 and 2 print; note 3, created the evening before the clock, is 0 days old. The crawl opens two pages
per pattern (notes 2 and 1), so the browser never sees note 3's Print link."""


def test_a_link_that_fails_for_one_record_only_fails_the_links_law_naming_its_url(browser, tmp_path):
    app = derive_app(FIXTURE_APPS / "notes", BROKEN_PRINT, tmp_path)
    report = check_app(str(app), browser=browser, controls_budget_s=20)
    first = report.first_failure
    assert first is not None and first.law == "links", report.failures
    assert "GET /note/3/print answers 500 (linked from /note/3)" in first.evidence
    assert first.cause.startswith("ZeroDivisionError"), first.cause  # the server's traceback names the crash
    # the browser's sampled laws alone pass this app: only the HTTP sweep reaches note 3's link
    for law in ("console", "dead_controls", "get_readonly", "determinism", "reset"):
        assert report.result(law).verdict == "pass", report.result(law)
    assert [r.law for r in report.failures] == ["links"]


def test_the_sweep_fetches_each_link_once_and_says_when_a_bound_stops_it(notes_server):
    admin = AdminClient(notes_server.url, notes_server.token)
    instance = admin.create()["instance_id"]
    base = f"{notes_server.url}/i/{instance}"
    try:
        with httpx.Client(timeout=30) as http:
            root = http.get(base + "/")
            links = hrefs(root.text, str(root.url))
            full = sweep(http, notes_server.url, base, {base + "/": links})
            short = sweep(http, notes_server.url, base, {base + "/": links}, max_fetches=2)
    finally:
        admin.delete(instance)
        admin.close()
    # /new, the three notes, and the nav's "All notes" (the start page, already loaded) not again
    assert sorted(u.removeprefix(base) for u in full.statuses) == ["/new", "/note/1", "/note/2", "/note/3"]
    assert set(full.statuses.values()) == {200} and not full.failures and not full.bounded
    verdict = links_law(full)
    assert verdict.ok and "4 distinct same-origin links fetched over HTTP" in verdict.evidence
    assert short.fetched == 2 and short.bounded == ("stopped at 2 fetches, 2 links not fetched",)
    assert links_law(short).ok and "stopped at 2 fetches" in links_law(short).evidence


@pytest.fixture(scope="module")
def notes_app_server():
    """The shipped notes app (not the tests' small fixture of the same name)."""
    with AppServer(resolve("notes")) as server:
        yield server


def test_every_link_of_a_shipped_app_answers(notes_app_server):
    """Every link of the shipped notes app, reached over HTTP from its root, answers below 400 within the bounds."""
    server = notes_app_server
    admin = AdminClient(server.url, server.token)
    instance = admin.create()["instance_id"]
    base = f"{server.url}/i/{instance}"
    try:
        with httpx.Client(timeout=30) as http:
            root = http.get(base + "/", follow_redirects=True)
            found = sweep(http, server.url, base, {base + "/": hrefs(root.text, str(root.url))})
    finally:
        admin.delete(instance)
        admin.close()
    assert found.fetched > 50 and not found.failures and not found.bounded, found.failures or found.bounded
