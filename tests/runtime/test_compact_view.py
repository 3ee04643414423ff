"""The compact view: fewer prompt tokens for the same elements, a page much as before shown as its changes, and a
system message whose start every task shares."""

from __future__ import annotations

import pytest

from runtime.axtree import compact_tree, page_changes, parse_axtree
from runtime.harness import Harness, seen_elements, system_prompt
from runtime.observation import Observation

LIST = """[1] link "PawCare Vet Clinic"
text "JK Johanna Knapp"
navigation "PawCare Vet Clinic navigation"
  [2] link "Home"
  [3] link "Appointments" current
main
  heading "Appointments" level=1
  search "Search"
    [4] searchbox "Search appointments"
    [5] combobox "Filter by species" value="Any species" options="Any species | Dog | Cat"
    [6] button "Search"
  text "3 appointments"
  [7] link "Kelly"
  text "Rabbit"
  text "Ajna Kain"
  text "Jun 23, 2026"
  [8] link "Carly"
  text "Cat"
  text "Emely Uhl"
  dialog "Delete Carly?"
    [9] button "Delete"
"""


def _ids(tree: str) -> set[int]:
    return {n.id for n in parse_axtree(tree) if n.id is not None}


def test_compact_tree_keeps_every_element_and_its_text_in_fewer_characters():
    compact = compact_tree(LIST)
    lines = compact.splitlines()
    assert {int(line[1:line.index("]")]) for line in lines if line.startswith("[")} == _ids(LIST)
    assert "[3] link Appointments (current)" in lines and "[4] searchbox Search appointments" in lines
    assert '[5] combobox Filter by species (value="Any species", options="Any species | Dog | Cat")' in lines
    assert "Rabbit | Ajna Kain | Jun 23, 2026" in lines  # a row's text on one line, after its link
    assert "heading Appointments" in lines and "dialog Delete Carly?" in lines  # a dialog is kept, its level is not
    assert not any(line.startswith(("main", "navigation", "search ", " ")) for line in lines)
    assert len(compact) < 0.75 * len(LIST)


def test_long_text_is_cut_only_on_a_long_page():
    body = "Hi Dirk, please find attached invoice T-98093 for software services, due on 21-03-2026."
    short = f'[1] link "Invoice"\ntext "{body}"'
    assert body in compact_tree(short)  # a record's own page stays whole
    long = "\n".join(f'[{i}] link "Invoice {i}"\ntext "{body}"' for i in range(1, 40))
    cut = compact_tree(long)
    assert body not in cut and "Hi Dirk, please find attached invoice T-…" in cut
    assert _ids(long) == {int(line[1:line.index("]")]) for line in cut.splitlines() if line.startswith("[")}


def test_page_changes_list_changed_and_gone_elements_or_give_up_on_a_new_page():
    before = compact_tree(LIST)
    typed = compact_tree(LIST.replace('[4] searchbox "Search appointments"', '[4] searchbox "Search appointments" value="Kelly" focused'))
    assert page_changes(before, typed) == '[4] searchbox Search appointments (value="Kelly", focused)'
    closed = compact_tree(LIST.replace('  dialog "Delete Carly?"\n    [9] button "Delete"\n', ""))
    assert page_changes(before, closed) == "gone: [9] button Delete"
    assert page_changes(before, before) == ""
    other = compact_tree('[1] link "PawCare Vet Clinic"\nheading "Kelly" level=1\n[2] button "Confirm appointment"')
    assert page_changes(before, other) is None


def _obs(step: int, tree: str, url: str = "http://127.0.0.1/i/x/appointment") -> Observation:
    return Observation(step=step, url=url, axtree=tree)


def test_a_page_much_as_before_is_shown_as_its_changes_and_the_model_still_sees_every_element():
    h = Harness("Confirm the appointment of Kelly")
    pages = [LIST, LIST.replace('[4] searchbox "Search appointments"', '[4] searchbox "Search appointments" value="Kelly" focused'),
             LIST.replace('  dialog "Delete Carly?"\n    [9] button "Delete"\n', "")]
    prompts = []
    for step, (tree, action) in enumerate(zip(pages, ["fill(4, 'Kelly')", "press('Enter')", "click(7)"])):
        prompts.append(h.prompt(_obs(step, tree)))
        h.record(_obs(step, tree), action)
    assert "Accessibility tree:" in prompts[0].messages[-1].text()
    assert "except:\n[4] searchbox Search appointments (value=\"Kelly\", focused)" in prompts[1].messages[-1].text()
    assert "gone: [9] button Delete" in prompts[2].messages[-1].text()
    for prompt, tree in zip(prompts, pages):  # what the model sees of the page is the page, element for element
        expected = {int(line[1:line.index("]")]): line for line in compact_tree(tree).splitlines() if line.startswith("[")}
        assert seen_elements(prompt) == expected
    full = Harness.replay("Confirm the appointment of Kelly", h.turns, view="full")._prompt(2, h.turns[2].observation, "window")
    pages_in = lambda p: sum(len(m.text()) for m in p.messages if m.role == "user")  # noqa: E731
    assert pages_in(prompts[2]) < pages_in(full) / 2


def test_the_first_step_of_a_new_window_shows_the_whole_page():
    h = Harness("x", window=4, overlap=1)
    for step in range(5):
        h.record(_obs(step, LIST), "press('Tab')")
    prompt = h._prompt(4, h.turns[4].observation, "window")  # window 1: step 3 carried over, then step 4
    users = [m.text() for m in prompt.messages if m.role == "user"]
    assert "Accessibility tree:" in users[0] and "unchanged" in users[1]


@pytest.mark.parametrize("form_factor", ["desktop", "mobile"])
def test_every_task_s_compact_system_message_starts_the_same(form_factor):
    a, b = system_prompt("Confirm Kelly", form_factor), system_prompt("Reorder my lunch", form_factor)
    shared = a[: a.index("Task: ")]
    assert b.startswith(shared) and len(shared) > 0.9 * len(a) - len("Task: Confirm Kelly")
    assert system_prompt("Confirm Kelly", form_factor, "full").index("Task: ") < 200  # the full view keeps its old layout
