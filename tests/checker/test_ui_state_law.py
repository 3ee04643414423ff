"""The ui_state law: a table that only controls changing no displayed data write (a saved sort order) is UI state
in the state dump, and fails the check naming the table; a settings save, which changes what its form shows,
and the apps that ship pass."""

from __future__ import annotations

from mocked_apps.checker import check_app
from mocked_apps.checker.uistate import Write, changed_tables, text_nodes, ui_state_law, view_only
from mocked_apps.kit import Defect, Edit, derive_app
from tests.conftest import FIXTURE_APPS

_INDEX_ROUTE = """    notes = gym.db.exec(select(Note).order_by(Note.pinned.desc(), Note.id)).all()
"""
BROKEN_SORT = Defect(
    name="broken_sort",
    law="ui_state",
    description="Broken notes: the list's sort order is saved by a POST into a preference table of the app.",
    edits=(
        Edit(file="models.py", find="class Note(SQLModel, table=True):",
             replace="class Preference(SQLModel, table=True):\n    key: str = Field(primary_key=True)\n    value: str = \"\"\n\n\n"
                     "class Note(SQLModel, table=True):"),
        Edit(file="routes.py", find="from .models import Note\n", replace="from .models import Note, Preference\n"),
        Edit(file="routes.py", find=_INDEX_ROUTE,
             replace="    pref = gym.db.get(Preference, 'sort')\n    by_title = pref is not None and pref.value == 'title'\n"
                     "    notes = gym.db.exec(select(Note).order_by(Note.title if by_title else Note.id)).all()\n"),
        Edit(file="routes.py", find='@router.get("/new")',
             replace='@router.post("/sort")\ndef sort(gym: GymDep, by: str = Form("created")):\n'
                     "    pref = gym.db.get(Preference, 'sort') or Preference(key='sort')\n    pref.value = by\n    gym.db.add(pref)\n"
                     '    return gym.done("/")\n\n\n@router.get("/new")'),
        Edit(file="templates/index.html", find="<h1>All notes</h1>\n",
             replace="<h1>All notes</h1>\n<form method=\"post\" action=\"{{ url('/sort') }}\"><select name=\"by\" aria-label=\"Sort by\">"
                     "<option value=\"created\">Oldest first</option><option value=\"title\">Title</option></select>"
                     "<button type=\"submit\">Sort</button></form>\n"),
    ),
)
"""Sorting by title shows the same three notes in another order; the choice lands in the `preference` table."""

SHOWN_SORT = Defect(
    name="shown_sort",
    law="ui_state",
    description="Broken notes: the saved sort order is also shown above the list, so the click changes the page's text.",
    edits=BROKEN_SORT.edits[:4] + (
        Edit(file="routes.py", find='    return gym.render("index.html", notes=notes)',
             replace='    return gym.render("index.html", notes=notes, by_title=by_title)'),
        Edit(file="templates/index.html", find="<h1>All notes</h1>\n",
             replace="<h1>All notes</h1>\n<p>Sorted by {{ 'title' if by_title else 'date created' }}</p>\n"
                     "<form method=\"post\" action=\"{{ url('/sort') }}\"><input type=\"hidden\" name=\"by\" "
                     "value=\"{{ 'created' if by_title else 'title' }}\"><button type=\"submit\">"
                     "{{ 'Sort by date' if by_title else 'Sort by title' }}</button></form>\n"),
    ),
)
"""Issue 41: the preference is shown ("Sorted by title", the toggle's new label), so the text of the page changes
with the order; the rows are the same three notes, and only the page whose rows moved changed."""


def test_a_sort_preference_saved_in_a_table_fails_ui_state_naming_the_table(browser, tmp_path):
    app = derive_app(FIXTURE_APPS / "notes", BROKEN_SORT, tmp_path)
    report = check_app(str(app), browser=browser, controls_budget_s=20)
    first = report.first_failure
    assert first is not None and first.law == "ui_state", report.failures
    assert first.evidence.startswith("table preference is UI state: written only by desktop: button 'Sort' on /"), first.evidence
    assert "note" not in first.evidence.split(":")[0].split()  # the notes' own table is data: pin and delete change the pages
    assert [r.law for r in report.failures] == ["ui_state"]


def test_a_sort_preference_shown_on_the_page_fails_ui_state_too(browser, tmp_path):
    """One rule (docs/apps.md rule 9): a view preference is never in the tables, even when the page says which one is on."""
    app = derive_app(FIXTURE_APPS / "notes", SHOWN_SORT, tmp_path)
    report = check_app(str(app), browser=browser, controls_budget_s=20)
    assert [r.law for r in report.failures] == ["ui_state"], report.failures
    evidence = report.result("ui_state").evidence
    assert evidence.startswith("table preference is UI state: written only by desktop: button 'Sort by title' on /"), evidence


def test_the_notes_fixture_passes_ui_state_with_its_writes_named(browser):
    report = check_app(str(FIXTURE_APPS / "notes"), browser=browser, controls_budget_s=20)
    law = report.result("ui_state")
    assert law.verdict == "pass" and "state-changing clicks wrote note;" in law.evidence, law


def test_a_shipped_app_passes_every_law_ui_state_and_links_included(browser):
    report = check_app("bank", browser=browser, controls_budget_s=30)
    assert report.ok, report.fail_line()
    assert "state-changing clicks wrote" in report.result("ui_state").evidence
    assert "links fetched over HTTP" in report.result("links").evidence


def test_reordered_text_is_a_view_change_and_a_changed_form_value_or_word_is_not():
    page = "<ul><li>Book club</li><li>Groceries</li></ul><select><option selected>Date</option><option>Title</option></select>"
    sorted_page = "<ul><li>Groceries</li><li>Book club</li></ul><select><option>Date</option><option selected>Title</option></select>"
    assert text_nodes(page) == ["Book club", "Groceries", "Date", "Title"]
    assert view_only({"/": page}, {"/": sorted_page})
    assert not view_only({"/": page}, {"/": page.replace("<option selected>Date", "<option>Date")})  # a settings save: same text, same order
    assert not view_only({"/": page}, {"/": sorted_page.replace("Groceries", "Groceries (pinned)")})
    # a word changed on a page whose rows stayed in place, while rows moved on another: data (issue 41 lets text change
    # only beside rows that moved, as "Sorted by title" does)
    assert not view_only({"/": "<p>x</p>", "/a": page}, {"/": "<p>y</p>", "/a": sorted_page})


def test_the_same_rows_in_another_order_under_a_new_caption_are_a_view_change_and_a_changed_row_is_not():
    page = ("<p>Sorted by date</p><button>Sort by title</button><table><tr><td>Book club</td><td>Oct 1</td></tr>"
            "<tr><td>Groceries</td><td>Oct 2</td></tr></table>")
    sorted_page = ("<p>Sorted by title</p><button>Sort by date</button><table><tr><td>Groceries</td><td>Oct 2</td></tr>"
                   "<tr><td>Book club</td><td>Oct 1</td></tr></table>")
    assert view_only({"/": page}, {"/": sorted_page})
    assert not view_only({"/": page}, {"/": sorted_page.replace("<td>Groceries", "<td>Groceries (pinned)")})  # a row changed
    assert not view_only({"/": page, "/n": "<p>Hi</p>"}, {"/": sorted_page, "/n": "<p>Hello</p>"})  # text elsewhere changed too
    assert not view_only({"/": page}, {"/": page.replace("Sorted by date", "3 notes")})  # rows in place: data


def test_a_table_with_one_data_writer_is_data_and_view_state_fields_are_no_write():
    writes = [Write(control="desktop: button 'Sort' on /", tables=frozenset({"pref", "note"}), view_only=True),
              Write(control="desktop: button 'Pin' on /note/1", tables=frozenset({"note"}), view_only=False)]
    verdict = ui_state_law(writes)
    assert not verdict.ok and verdict.evidence.startswith("table pref is UI state: written only by desktop: button 'Sort' on /")
    assert "table note" not in verdict.evidence
    assert ui_state_law(writes[1:]).ok and ui_state_law([]).evidence == "no click wrote a table"
    before = {"message": [{"id": 1, "read": False, "subject": "Hi"}]}
    after = {"message": [{"id": 1, "read": True, "subject": "Hi"}]}
    assert changed_tables(before, after, ("message.read",)) == frozenset()
    assert changed_tables(before, after) == {"message"}
