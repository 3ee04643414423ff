"""The environment manager against a real notes server and a real Chromium: reset, observe, step, evaluate.

Every session test runs on the local backend and on the docker backend (app servers in containers of a
private dockerd started for the session)."""

from __future__ import annotations

import threading
import time

import pytest

from mocked_apps import registry
from runtime.axtree import find, parse_axtree
from runtime.manager import Deadlines, EnvError, EnvironmentManager, Lease, LeaseExpired, SessionSpec
from runtime.objectstore import ObjectStore
from tests.runtime.notes_tasks import NOTES, create_note_task, solve_create


@pytest.fixture(scope="module")
def gym_home(tmp_path_factory):
    """A private GYMFACTORY_HOME where the notes folder is also registered as 'notes' and 'memo'."""
    home = tmp_path_factory.mktemp("gymhome")
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(home))
    registry.register("notes", NOTES)
    registry.register("memo", NOTES)
    yield home
    mp.undo()


@pytest.fixture(scope="module", params=["local", "docker"])
def manager(request, gym_home, tmp_path_factory):
    """The same session tests on each backend: app servers as local processes, or in containers of a real dockerd."""
    if request.param == "docker":
        from runtime.backends.docker import DockerBackend

        backend = DockerBackend(docker_host=request.getfixturevalue("dockerd").url)
    else:
        backend = None  # the embedded default
    with EnvironmentManager(backend=backend, screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m


def test_attempt_end_to_end_success_then_reset_restores(manager):
    task = create_note_task("Trip")
    session = manager.request(SessionSpec.for_task(task))
    obs = session.reset(task)
    assert obs.step == 0 and obs.url.endswith("/") and "/i/" in obs.url
    assert '[2] link "All notes" current' in obs.axtree and 'heading "All notes" level=1' in obs.axtree
    assert manager.screenshots.get(obs.screenshot).startswith(b"\x89PNG")
    steps = solve_create(session, "Trip")
    assert [s.step for s in steps] == [1, 2, 3, 4] and steps[-1].done
    assert "/note/4" in steps[2].url and 'heading "Trip"' in steps[2].axtree  # waited for the POST -> redirect -> load
    outcome = session.evaluate()
    assert (outcome.status, outcome.reward, outcome.success) == ("success", 1.0, True)
    session.reset(task)  # the same session, a new attempt: the state is the seed again
    outcome = session.evaluate()
    assert (outcome.status, outcome.success, outcome.verdicts) == ("failure", False, {"created": False, "answered": False})
    back = session.step("back()")  # the page is reused, but the last attempt's history is out of reach
    assert back.last_action_error == "there is no previous page" and back.url == session.instances[0].url
    session.close()


def test_same_page_gets_same_ids_and_new_elements_next_ids(manager):
    task = create_note_task("Ids")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    first = session.reset(task)
    assert first.screenshot is None
    again = session.step("click(2)")  # "All notes": the same page, loaded again
    assert again.axtree == first.axtree
    ids = [n.id for n in parse_axtree(first.axtree) if n.id is not None]
    assert ids == list(range(1, len(ids) + 1))
    session._page.call(lambda p: p.evaluate("document.querySelector('h1').insertAdjacentHTML('afterend', '<button>Late</button>')"), 10)
    later = parse_axtree(session.observe().axtree)
    assert find(later, role="button", name="Late").id == len(ids) + 1
    assert [n.id for n in later if n.role == "link"] == [n.id for n in parse_axtree(first.axtree) if n.role == "link"]
    session.close()


WIDGETS = """<!doctype html><title>Widgets</title><main>
<h2>Settings</h2>
<label for="folder">Folder</label><select id="folder"><option>Inbox</option><option>Archive</option></select>
<label><input type="checkbox" id="star"> Starred</label>
<input id="subject" aria-label="Subject" placeholder="Subject"><input type="date" aria-label="Due">
<div style="height:3000px">tall</div><p id="end">End of page</p>
<div role="button" tabindex="0" onclick="this.textContent='Clicked'">Press me</div>
</main>"""


def test_widgets_select_check_type_press_scroll(manager):
    task = create_note_task("Widgets")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    session.reset(task)
    session._page.call(lambda p: p.set_content(WIDGETS), 10)
    nodes = parse_axtree(session.observe().axtree)
    folder, star, subject = find(nodes, "combobox", "Folder"), find(nodes, "checkbox", "Starred"), find(nodes, "textbox", "Subject")
    assert folder.attrs["value"] == "Inbox" and folder.attrs["options"] == "Inbox | Archive"
    assert "Starred" not in [n.name for n in nodes if n.role == "text"]  # label text only names the checkbox
    obs = session.step(f'select({folder.id}, "archive")')
    assert obs.last_action_error is None and find(parse_axtree(obs.axtree), "combobox", "Folder").attrs["value"] == "Archive"
    obs = session.step(f'select({folder.id}, "Spam")')
    assert "no option 'Spam'" in obs.last_action_error and "Inbox, Archive" in obs.last_action_error
    obs = session.step(f"click({star.id})")
    assert find(parse_axtree(obs.axtree), "checkbox", "Starred").attrs.get("checked") is True
    session.step(f"click({subject.id})")
    session.step('type("Hello")')
    obs = session.step('press("Control+A")')
    node = find(parse_axtree(obs.axtree), "textbox", "Subject")
    assert node.attrs["value"] == "Hello" and node.attrs.get("focused") is True
    due = find(nodes, "textbox", "Due")
    assert find(parse_axtree(session.step(f'fill({due.id}, "2026-03-14")').axtree), "textbox", "Due").attrs["value"] == "2026-03-14"
    assert "not a valid date value" in session.step(f'fill({due.id}, "tomorrow")').last_action_error
    obs = session.step(f'select({subject.id}, "x")')
    assert "not a drop-down" in obs.last_action_error
    session.step("scroll(0, 2500)")
    assert session._page.call(lambda p: p.evaluate("window.scrollY"), 10) > 1000
    press = find(nodes, "button", "Press me")
    obs = session.step(f"click({press.id})")
    assert find(parse_axtree(obs.axtree), "button", "Clicked").id == press.id
    session.close()


def test_invalid_actions_are_feedback_and_the_episode_goes_on(manager):
    task = create_note_task("Bad")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    session.reset(task)
    errors = {
        "click(99)": "no element [99]",
        "fill(1, 'x')": "not a text field",
        "teleport(3)": "unknown action",
        "I think I should click": "no action found",
        'press("NoSuchKey")': "Unknown key",
        "back()": "no previous page",
    }
    for i, (text, expected) in enumerate(errors.items(), start=1):
        obs = session.step(text)
        assert obs.step == i and not obs.done
        assert (obs.last_action_error is None) if expected is None else (expected in obs.last_action_error), (text, obs.last_action_error)
    steps = solve_create(session, "Bad")
    assert steps[-1].done and session.evaluate().success
    after = session.step("click(1)")
    assert "episode is over" in after.last_action_error
    session.close()


def test_shell_runs_in_the_workspace_without_network(manager):
    server = manager.backend.server(NOTES)
    task = create_note_task("Shell", files={"notes/todo.txt": "buy milk\n"})
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    session.reset(task)
    obs = session.step('shell("cat notes/todo.txt; pwd; echo $HOME; echo saved > out.txt")')
    assert obs.last_action_error is None
    assert obs.shell_output.splitlines() == ["buy milk", "/workspace", "/workspace"]  # the only folder it sees
    obs = session.step('shell("cat missing.txt")')
    assert "exit code 1" in obs.last_action_error and "No such file" in obs.last_action_error
    probe = f"python3 -c 'import socket; socket.create_connection((\\'127.0.0.1\\', {server.port}), timeout=2)' && echo reached"
    obs = session.step(f'shell("{probe}")')
    assert "reached" not in obs.shell_output and obs.last_action_error
    assert session.final().files["out.txt"] == "saved\n"
    session.close()


def test_mobile_taps_and_has_no_shell(manager):
    task = create_note_task("Mobile", form_factor="mobile")
    session = manager.request(SessionSpec.for_task(task))
    obs = session.reset(task)
    size = session._page.call(lambda p: p.evaluate("[innerWidth, 'ontouchstart' in window]"), 10)
    assert size == [390, True]
    assert "shell() is only available on desktop" in session.step('shell("ls")').last_action_error
    steps = solve_create(session, "Mobile")
    assert "/note/" in steps[2].url
    assert session.evaluate().success
    session.close()


@pytest.mark.parametrize("form_factor", ["desktop", "mobile"])
def test_multi_app_session_opens_on_the_launcher(manager, form_factor):
    task = create_note_task("Launch", apps=("notes", "memo"), form_factor=form_factor)
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    obs = session.reset(task)
    assert obs.url == "http://gym.launcher/"
    nodes = parse_axtree(obs.axtree)
    first = find(nodes, "link", "Notes (notes)")
    obs = session.step(f"click({first.id})")
    assert obs.url == session.instances[0].url
    dock = [n.name for n in parse_axtree(obs.axtree) if n.role == "link"][-2:] if form_factor == "desktop" else None
    if form_factor == "desktop":
        assert dock == ["Notes (notes)", "Notes (memo)"]
        obs = session.step(f"click({find(parse_axtree(obs.axtree), 'link', 'Notes (memo)').id})")
        assert obs.url == session.instances[1].url
    else:
        obs = session.step(f"click({find(parse_axtree(obs.axtree), 'link', 'Home').id})")
        assert obs.url == "http://gym.launcher/"
    session.close()


def test_sixteen_concurrent_sessions_never_see_each_others_data(manager):
    titles = [f"Note{i:02d}" for i in range(16)]
    states, urls, errors = {}, {}, []

    def run(title):
        try:
            task = create_note_task(title)
            session = manager.request(SessionSpec.for_task(task))
            session.reset(task)
            steps = solve_create(session, title)
            urls[title] = {s.url.split("/i/")[1].split("/")[0] for s in steps}
            states[title] = manager.backend.state(session.instances[0], 30)
            session.close()
        except Exception as err:  # surfaced by the assertion below
            errors.append(err)

    manager.deadlines = Deadlines(reset=120, step=120)  # this test is about isolation; a loaded CI box may be slow
    try:
        threads = [threading.Thread(target=run, args=(t,)) for t in titles]
        [t.start() for t in threads]
        [t.join(300) for t in threads]
    finally:
        manager.deadlines = Deadlines()
    assert not errors
    assert all(len(ids) == 1 for ids in urls.values()) and len(set().union(*urls.values())) == 16
    for title in titles:
        created = [n["title"] for n in states[title]["note"] if n["id"] > 3]
        assert created == [title]


def test_idle_lease_expires_and_gives_instances_back(manager):
    task = create_note_task("Lease")
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=0.5))
    session.reset(task)
    inst = session.instances[0]
    deadline = time.monotonic() + 10
    while not session.closed and time.monotonic() < deadline:
        time.sleep(0.1)
    assert session.closed and session not in manager.sessions()
    with pytest.raises(LeaseExpired):
        session.step("click(1)")
    # the instance went back: reset into the pool (initial dump), or deleted when that pool was already full
    slot = manager.backend._slots[inst.app]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with slot.lock:
            pooled = any(inst.instance_id in ids for ids in slot.ready.values())
        if pooled or inst.instance_id not in slot.keys:
            break
        time.sleep(0.1)
    if pooled:
        assert manager.backend.state(inst, 10) == inst.initial_state
    else:
        with pytest.raises(EnvError):
            manager.backend.state(inst, 10)


def test_observation_shows_the_page_a_submit_leads_to(manager):
    task = create_note_task("Enter")
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    for attempt in range(3):  # a submit is scheduled after the key event: the observation must still be the new page
        session.reset(task)
        assert 'heading "New note"' in session.step("click(3)").axtree
        session.step(f'fill(4, "Enter {attempt}")')
        obs = session.step('press("Enter")')
        assert "/note/4" in obs.url and f'heading "Enter {attempt}" level=1' in obs.axtree
        obs = session.step("click(4)")  # Pin: POST -> 303 -> the same URL again
        assert '[4] button "Unpin"' in obs.axtree
    session.close()


def test_bench_runtime_at_toy_scale(tmp_path):
    import json

    from typer.testing import CliRunner

    from gymfactory.cli import build

    out = tmp_path / "bench.json"
    args = ["bench", "runtime", "--resets", "2", "--steps", "2", "--concurrency", "2", "--steps-per-session", "2",
            "--episode-steps", "4", "--out", str(out)]
    result = CliRunner().invoke(build(), args)
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    assert numbers["reset_p50_ms"] > 0 and numbers["reset_cold_p50_ms"] > 0 and numbers["episode_cpu_ms"] > 0
    assert numbers["step_click_p50_ms"] > 0 and numbers["steps_per_s"]["2"] > 0
    assert numbers["prefill"]["text"]["last_k"] >= numbers["prefill"]["text"]["window"] > 0
