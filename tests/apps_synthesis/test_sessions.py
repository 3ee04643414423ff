"""Coding-agent sessions through the REAL openai and anthropic SDK clients against a scripted loopback LLM: the app is
written with tool calls, judged by the real contract checker, fixed on its feedback and registered — or rejected at the
round limit; malformed tool calls come back as tool results; the accepted app then serves a validated task."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from factory.apps import AnthropicChat, OpenAIChat, SynthesisConfig, read_log, synthesize_app
from contracts.family import Family, Requirements
from contracts.task import Criterion, Task
from factory.verifiers.validate import ValidationConfig, validate_task
from factory.worlds.builder import build_world
from contracts.world import World
from mocked_apps.registry import registered
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore
from tests.support.scripted_llm import Reply, Request, ScriptedLLM, ToolCall

from .conftest import CHECK, RawArgsLLM, spec

CONFIG = SynthesisConfig(rounds=3, **CHECK)
DEAD = '<button type="button" class="secondary">Archive</button>'


def _detail(workdir: Path, name: str) -> Path:
    return workdir / name / name / "templates" / "detail.html"


def _write(path: str, content: str) -> ToolCall:
    return ToolCall("write_file", {"path": path, "content": content})


def _with_dead_button(workdir: Path, name: str):
    """A reply that adds a button doing nothing to the detail page, then finishes."""
    def reply(_req: Request) -> Reply:
        html = _detail(workdir, name).read_text()
        if DEAD not in html:  # the second attempt "tries again" with the same, still broken page
            html = html.replace("</div>\n<div class=\"card\">", f"{DEAD}</div>\n<div class=\"card\">", 1)
        assert html.count(DEAD) == 1
        return Reply(text="Added an Archive button.", tool_calls=(_write("templates/detail.html", html), ToolCall("finish", {"summary": "done"})),
                     input_tokens=1200, output_tokens=300)
    return reply


@pytest.fixture(scope="module")
def openai_session(gym_home, tmp_path_factory, browser):
    """One openai session: malformed calls, then a dead button (fails), then the fix (passes, accepted)."""
    workdir = tmp_path_factory.mktemp("synth")

    def fix(req: Request) -> Reply:
        assert "dead_controls: FAIL" in req.text() or any("dead_controls: FAIL" in str(m.get("content")) for m in req.messages)
        html = _detail(workdir, "contacts_book").read_text().replace(DEAD, "")
        html = html.replace("<div class=\"card\"><dl>", "<div class=\"card\"><h2>Details</h2><dl>")
        return Reply(text="Removed the dead button.", tool_calls=(_write("templates/detail.html", html), ToolCall("finish", {})),
                     input_tokens=2000, output_tokens=400)

    script = [
        Reply(text="Let me look around.", tool_calls=(
            ToolCall("write_file", {"__raw__": '{"path": "routes.py", "content": '}),   # bad JSON
            ToolCall("delete_everything", {}),                                          # unknown tool
            _write("../escape.txt", "out"),                                             # escapes the workspace
            ToolCall("read_file", {"path": "templates/nope.html"}),                     # tool error
            ToolCall("list_files", {}),
        ), input_tokens=800, output_tokens=200),
        _with_dead_button(workdir, "contacts_book"),
        fix,
    ]
    with RawArgsLLM(script) as llm:
        chat = OpenAIChat("coder-test", base_url=llm.openai_base_url, api_key="test")
        result = synthesize_app(spec(), chat, workdir, CONFIG, browser=browser)
        yield result, llm.requests, workdir


def test_openai_session_fails_on_a_dead_button_then_passes_and_is_registered(openai_session, gym_home):
    result, requests, workdir = openai_session
    assert result.status == "accepted", (result.reason, result.report and result.report.failures)
    assert result.rounds == 2 and result.turns == 3 and result.checker_runs == 2
    assert result.report.ok
    assert result.usage == {"input_tokens": 800 + 1200 + 2000, "output_tokens": 200 + 300 + 400}
    # registered under the temporary GYMFACTORY_HOME, as a copy of the workspace
    assert registered()["contacts_book"] == str(gym_home / "apps" / "contacts_book")
    copied = (gym_home / "apps" / "contacts_book" / "templates" / "detail.html").read_text()
    assert "<h2>Details</h2>" in copied and DEAD not in copied
    assert not (workdir.parent / "escape.txt").exists() and not (workdir / "contacts_book" / "escape.txt").exists()
    # every request went to the real openai route with the tools declared
    assert [r.api for r in requests] == ["openai"] * 3
    assert {t["function"]["name"] for t in requests[0].body["tools"]} >= {"write_file", "run_checker", "run_tests", "finish"}
    # the log records prompts, turns, tool calls and results, checker reports law by law, and the end
    events = read_log(Path(result.log))
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["start", "prompt", "model"] and kinds[-2:] == ["registered", "end"]
    checks = [e for e in events if e["kind"] == "checker"]
    assert [c["report"]["laws"][-1]["verdict"] for c in checks] == ["fail", "pass"]
    assert "Archive" in checks[0]["report"]["laws"][-1]["evidence"]
    assert sum(e["usage"]["input_tokens"] for e in events if e["kind"] == "model") == 4000


def test_malformed_tool_calls_come_back_as_tool_results_and_the_loop_goes_on(openai_session):
    result, requests, _ = openai_session
    tool_msgs = [m for m in requests[1].messages if m["role"] == "tool"]
    assert len(tool_msgs) == 5
    texts = [m["content"] for m in tool_msgs]
    assert "not valid JSON" in texts[0]
    assert "unknown tool 'delete_everything'" in texts[1]
    assert "escapes the workspace" in texts[2]
    assert "no file 'templates/nope.html'" in texts[3]
    assert "routes.py" in texts[4] and "seed.json" in texts[4]
    # the checker's failure came back as the finish call's result, law by law
    finish = [m for m in requests[2].messages if m["role"] == "tool"][-1]["content"]
    assert "dead_controls: FAIL" in finish and "Archive" in finish and "Round 1 of 3" in finish
    tools = [e for e in read_log(Path(result.log)) if e["kind"] == "tool"]
    assert [t["ok"] for t in tools[:5]] == [False, False, False, False, True]


def test_a_session_that_never_passes_is_rejected_at_the_round_limit(gym_home, tmp_path, browser):
    name = "contacts_dead"
    script = [_with_dead_button(tmp_path, name), _with_dead_button(tmp_path, name)]
    with ScriptedLLM(script) as llm:
        chat = OpenAIChat("coder-test", base_url=llm.openai_base_url, api_key="test")
        result = synthesize_app(spec(name), chat, tmp_path, SynthesisConfig(rounds=2, **CHECK), browser=browser)
        assert llm.pending() == 0 and llm.exhausted == 0
    assert result.status == "rejected" and "round limit 2" in result.reason
    assert result.rounds == 2 and result.app_dir is None
    assert result.checker_runs == 1  # the second attempt changed nothing: the verdict was reused
    assert result.report.first_failure.law == "dead_controls" and "Archive" in result.report.first_failure.evidence
    assert name not in registered()
    assert [e["round"] for e in read_log(Path(result.log)) if e["kind"] == "checker"] == [1, 2]


def test_the_same_loop_through_the_anthropic_sdk(gym_home, tmp_path, browser):
    name = "contacts_anthropic"

    def write(req: Request) -> Reply:
        results = [b for m in req.messages if m["role"] == "user" and isinstance(m["content"], list) for b in m["content"]]
        assert any(b.get("is_error") for b in results) and any("MANIFEST" in str(b.get("content")) for b in results)
        index = (tmp_path / name / name / "templates" / "index.html").read_text()
        return Reply(tool_calls=(_write("templates/index.html", index.replace("<h1>All contacts</h1>", "<h1>All contacts</h1>\n<p class=\"muted\">People Northwind works with.</p>")),
                                 ToolCall("finish", {})), input_tokens=900, output_tokens=250)

    script = [Reply(text="Reading.", tool_calls=(ToolCall("read_file", {"path": "manifest.py"}), ToolCall("shell", {"cmd": "ls"}))), write]
    with ScriptedLLM(script) as llm:
        chat = AnthropicChat("claude-test", base_url=llm.anthropic_base_url, api_key="test")
        result = synthesize_app(spec(name), chat, tmp_path, CONFIG, browser=browser)
        requests = llm.requests
    assert result.status == "accepted", (result.reason, result.report and result.report.failures)
    assert [r.api for r in requests] == ["anthropic", "anthropic"]
    assert {t["name"] for t in requests[0].body["tools"]} >= {"read_file", "write_file", "finish"}
    assert "senior engineer" in requests[0].body["system"]
    assert result.usage == {"input_tokens": 10 + 900, "output_tokens": 5 + 250}
    assert registered()[name].endswith(f"apps/{name}")
    assert "People Northwind works with." in (Path(registered()[name]) / "templates" / "index.html").read_text()


# ---- the accepted app serves tasks ---------------------------------------------------------------

class AddContact(Family):
    """Add the one person of the world who is missing from the synthesized contacts app."""

    name = "contacts_book.add_contact"
    apps = ("contacts_book",)
    description = "Add a missing person to the contacts book."
    difficulty = "easy"

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        person = world.people[-1]
        return self._req(f"Add {person.name} <{person.email}> to my contacts.", {"name": person.name, "email": person.email}, [
            Criterion(id="added", description=f"A contact {person.name} with email {person.email} exists."),
            Criterion(id="one_new", description="Exactly one contact was added.", weight=0.5),
        ])

    golden_template = '''
def solve(env):
    env.click("New contact", role="link")
    env.fill("Full name", {{ name|py }})
    env.fill("Email", {{ email|py }})
    env.click("Save contact", role="button")
'''

    verifier_template = '''
def verify(final):
    rows = final.state["contacts_book"]["contact"]
    before = final.initial_state["contacts_book"]["contact"]
    added = any(r["full_name"] == {{ name|py }} and r["email"] == {{ email|py }} for r in rows)
    return {"added": added, "one_new": len(rows) == len(before) + 1}
'''


def test_the_accepted_app_is_seeded_from_a_world_and_serves_a_validated_task(openai_session, tmp_path):
    result, _, _ = openai_session
    assert result.accepted
    world = build_world("alex", "month_end", 0)
    rows = [{"id": i + 1, "full_name": p.name, "email": p.email, "company": world.org(p.org).name, "favourite": False}
            for i, p in enumerate(world.people[:-1])]
    family = AddContact()
    req = family.requirements(world, random.Random(0))
    task = Task(id="contacts_book.add_contact.0", apps=family.apps, world=world.id, clock="2026-03-02T09:00:00",
                seed={"contacts_book": {"contact": rows}}, instruction=req.instruction, answer_context=req.answer_context,
                criteria=req.criteria, verifier=family.verifier(req), golden=family.golden(req),
                meta={"family": family.name, "difficulty": family.difficulty, "provenance": "template"})
    with EnvironmentManager(screenshots=ObjectStore(tmp_path / "shots")) as manager:
        outcome = validate_task(task, manager, ValidationConfig(verifier_timeout_s=5.0, golden_timeout_s=60.0))
    assert outcome.accepted, (outcome.reason, outcome.detail)
    assert outcome.verdicts["run1.initial"] == {"added": False, "one_new": False}
    assert outcome.verdicts["run1.golden"] == {"added": True, "one_new": True}
    assert len(outcome.golden_actions) == 4
    assert json.dumps(task.seed).count("@") == len(world.people) - 1
