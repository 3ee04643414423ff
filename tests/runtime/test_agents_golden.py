"""The golden action API and its sandboxed runner, over plain observations (no browser)."""

from __future__ import annotations

import pytest

from contracts.task import Task
from runtime.agents import AgentFailed, AgentOptions, make_agent
from runtime.golden import GOLDEN_API, GoldenFailed, GoldenRunner
from runtime.harness import Harness
from runtime.observation import Observation

AXTREE = """[1] link "Mail"
[2] link "Calendar"
navigation "Mail navigation"
  [3] link "Inbox" current
  [4] link "New message"
main
  [5] textbox "To"
  [6] textbox "Subject" value="Re: Invoice"
  [7] combobox "Folder" value="Archive"
  [8] checkbox "Urgent" checked
  [9] checkbox "Encrypt"
  [10] button "Send"
  text "Amount due: $1,240.00"
"""


def _obs(step: int = 0, **kw) -> Observation:
    return Observation(step=step, url="http://127.0.0.1/i/abc/compose", axtree=AXTREE, **kw)


def _drive(source: str, apps=("mail", "calendar"), results: dict[str, Observation] | None = None) -> list[str]:
    """Every action the golden code emits, feeding back `_obs()` (or `results[action]`) after each."""
    runner = GoldenRunner(source, apps=apps, timeout_s=20)
    actions, obs = [], _obs()
    try:
        while (action := runner.next_action(obs)) is not None:
            actions.append(action)
            obs = (results or {}).get(action, _obs(len(actions)))
            assert len(actions) < 50
    finally:
        runner.close()
    return actions


def test_calls_become_agent_actions_resolved_by_role_and_name():
    source = '''
def solve(env):
    env.open_app("calendar")
    env.open_app("Mail")
    env.fill("To", "ada@example.com")
    env.select("Folder", "Inbox")
    env.check("Urgent")          # already checked: no action
    env.check("Encrypt")
    env.uncheck("Urgent")
    env.click("Send", role="button")
    env.press("Enter")
    env.type("hi")
    env.scroll(300)
    env.back()
    total = [l for l in env.page_text().splitlines() if "Amount due" in l][0].split("$")[1].rstrip('"')
    env.answer(total + " at " + env.url())
'''
    assert _drive(source) == [
        "click(2)", "click(1)", "fill(5, 'ada@example.com')", "select(7, 'Inbox')", "click(9)", "click(8)",
        "click(10)", "press('Enter')", "type('hi')", "scroll(0, 300)", "back()",
        "answer('1,240.00 at http://127.0.0.1/i/abc/compose')",
    ]


def test_single_app_open_app_is_a_no_op_and_shell_returns_output():
    source = '''
def solve(env):
    env.open_app("notes")
    print("prints go to stderr, not into the protocol")
    env.answer(env.shell("ls"))
'''
    results = {"shell('ls')": _obs(1, shell_output="report.csv\n")}
    assert _drive(source, apps=("tests/fixtures/apps/notes",), results=results) == ["shell('ls')", "answer('report.csv\\n')"]


def test_failed_lookup_and_failed_action_raise_inside_solve():
    source = '''
def solve(env):
    try:
        env.click("Sned")
    except RemoteError as err:
        assert "nearest" in str(err) and "Send" in str(err), str(err)
        env.click("Send")
    env.click("Inbox")
'''
    results = {"click(10)": _obs(1, last_action_error="element [10] is disabled")}
    with pytest.raises(GoldenFailed, match=r"click\(10\) failed: element \[10\] is disabled"):
        _drive(source, results=results)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def solve(env):\n    env.clik('Send')\n", r"no method 'clik'; did you mean click\?"),
        ("def solve(env):\n    env.click(nme='Send')\n", "unexpected keyword argument 'nme'"),
        ("def solve(env):\n    x = 1\n    raise ValueError('bad golden')\n", r"(?s)golden>\", line 3.*ValueError: bad golden"),
        ("def solve(env):\n    import socket\n    socket.create_connection(('127.0.0.1', 9))\n", "forbidden|network|socket"),
        ("x = 1\n", "solve"),
    ],
)
def test_bad_golden_code_fails_with_a_reason(source, message):
    with pytest.raises(GoldenFailed, match=message):
        _drive(source)


def test_a_hanging_golden_is_killed_at_its_deadline():
    runner = GoldenRunner("def solve(env):\n    while True:\n        pass\n", timeout_s=1.5)
    with pytest.raises(GoldenFailed, match="timeout"):
        runner.next_action(_obs())
    runner.close()


def test_golden_agent_goes_through_the_harness():
    task = Task.model_validate_json(open("tests/fixtures/tasks/notes-pin-book-club.json").read())
    agent = make_agent("golden", AgentOptions())
    harness = Harness(task.instruction)
    obs = Observation(step=0, url="u", axtree='[1] link "Groceries"\n[2] link "Book club"')
    agent.reset(task)
    try:
        turn = harness.record(obs, agent.act(harness.prompt(obs), obs))
        assert turn.action == "click(2)"
        with pytest.raises(AgentFailed, match="Pin"):  # the next page has no Pin button
            agent.act(harness.prompt(obs), obs)
    finally:
        agent.close()


def test_every_api_method_is_documented():
    from runtime.golden import GoldenEnv

    assert {"open_app", "click", "fill", "select", "check", "press", "type", "scroll", "back", "answer", "shell", "page_text", "url"} <= set(GOLDEN_API)
    assert all(getattr(GoldenEnv, name).__doc__ for name in GOLDEN_API)
