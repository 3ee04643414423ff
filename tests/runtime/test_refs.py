"""Elements named by their label (runtime.refs): the resolver on tree text, and named demonstrations replayed on a real
app in Chromium, where a name that stands for nothing is feedback and never a success."""

from __future__ import annotations

import pytest

from contracts.taskfiles import load_tasks
from rl.demos import collect_demos, named
from runtime.actions import Click, Fill, Select, format_action, parse_action
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.refs import RefError, by_name, resolve
from runtime.store import TrajectoryStore

TREE = """[1] link "ArtKey Museum Desk"
[2] link "Members"
[3] link "Book a group"
heading "New member" level=1
[4] link "Title"
[5] textbox "Title" value="x"
[6] combobox "Tier" value="Individual"
[7] textbox "Renewal date"
[8] link "Book a group"
[9] button "Create member"
[10] link "Members of staff"
"""


def test_a_named_element_resolves_to_its_id_preferring_the_kind_the_action_works_on():
    assert resolve(parse_action("click('Members')"), TREE) == Click(element=2)  # the exact name before 'Members of staff'
    assert resolve(parse_action("click('members')"), TREE) == Click(element=2)  # case is not the agent's problem
    assert resolve(parse_action("fill('Title', 'Dr')"), TREE) == Fill(element=5, text="Dr")  # the text field, not the link
    assert resolve(parse_action("click('Title')"), TREE) == Click(element=4)
    assert resolve(parse_action("select('tier', 'Joint')"), TREE) == Select(element=6, value="Joint")
    assert resolve(parse_action("fill('Renewal', '2026-03-03')"), TREE) == Fill(element=7, text="2026-03-03")  # a prefix
    assert resolve(parse_action("click('Create')"), TREE) == Click(element=9)
    assert resolve(parse_action("click(8)"), TREE) == Click(element=8)  # ids are untouched


def test_a_name_that_stands_for_nothing_is_an_error_with_the_nearest_names():
    with pytest.raises(RefError, match=r"no element named 'Membrs'.*nearest: 'Members'"):
        resolve(parse_action("click('Membrs')"), TREE)
    with pytest.raises(RefError, match="no element named ''"):
        resolve(parse_action("click('')"), TREE)
    with pytest.raises(RefError):
        resolve(parse_action("click('New member')"), TREE)  # a heading: no element to act on


def test_by_name_writes_a_name_only_where_it_leads_back_to_the_same_element():
    assert format_action(by_name(Click(element=2), TREE)) == "click('Members')"
    assert format_action(by_name(Fill(element=5, text="Dr"), TREE)) == "fill('Title', 'Dr')"
    assert by_name(Click(element=8), TREE) == Click(element=8)  # the second 'Book a group': its name leads to [3]
    assert by_name(Click(element=5), TREE) == Click(element=5)  # clicking 'Title' would hit the link [4]
    assert by_name(Click(element=99), TREE) == Click(element=99)
    assert by_name(Click(x=3, y=4), TREE) == Click(x=3, y=4)
    for element in range(1, 11):
        action = by_name(Click(element=element), TREE)
        assert resolve(action, TREE) == Click(element=element)
    assert parse_action(format_action(Click(element="Book a group"))) == Click(element="Book a group")


@pytest.fixture(scope="module")
def golden_demo(tmp_path_factory):
    """A real golden demonstration on the mail app (Chromium), recorded through the rollout path."""
    [task] = load_tasks("mocked_apps/mail/tasks/send-expense-note.json")
    store = TrajectoryStore(tmp_path_factory.mktemp("store") / "t.db")
    with EnvironmentManager() as manager:
        [demo], _ = collect_demos([task], manager, store)
        yield demo, manager
    store.close()


def _replay(manager, task, outputs):
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=120))
    try:
        session.reset(task)
        observations = [session.step(out) for out in outputs]
        return observations, session.evaluate()
    finally:
        session.close()


def test_a_demonstration_written_with_names_does_on_the_real_app_what_its_ids_did(golden_demo):
    demo, manager = golden_demo
    written = [t.output for t in named(demo).turns]
    assert sum("'" in o.split("(", 1)[1][:1] for o in written if o.startswith(("click(", "fill(", "select("))) >= 3, written
    assert written != [t.output for t in demo.turns]
    observations, outcome = _replay(manager, demo.task, written)
    assert [o.last_action_error for o in observations] == [None] * len(written)
    assert outcome.success, outcome


def test_a_name_of_nothing_is_feedback_and_the_task_is_not_done(golden_demo):
    demo, manager = golden_demo
    written = [t.output for t in named(demo).turns]
    first = next(i for i, o in enumerate(written) if o.startswith("click('"))
    wrong = written[:first] + ["click('Nothing by this name')"] + written[first + 1 :]
    observations, outcome = _replay(manager, demo.task, wrong)
    assert "there is no element named 'Nothing by this name'" in observations[first].last_action_error
    assert not outcome.success
