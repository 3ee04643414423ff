"""Coding-agent sessions through the REAL openai and anthropic SDK clients against a scripted loopback LLM: the model
writes the app as a spec (app.yaml), the factory compiles it and the real contract checker judges it; a spec the checker
rejects is fixed on its feedback (with an extension page the spec cannot express) and registered, or the session is
rejected at the round limit; malformed tool calls come back as tool results; the accepted app's task families are
derived from its spec, and tasks synthesized from them pass validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from factory.apps import AnthropicChat, OpenAIChat, SynthesisConfig, read_log, synthesize_app
from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, validate_tasks
from mocked_apps.registry import part, registered
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore
from tests.support.scripted_llm import Reply, Request, ScriptedLLM, ToolCall

from .conftest import CHECK, RawArgsLLM, spec
from .specs import SUMMARY_ROUTES, SUMMARY_TEMPLATE, contacts_spec

CONFIG = SynthesisConfig(rounds=3, **CHECK)


def _write(path: str, content: str) -> ToolCall:
    return ToolCall("write_file", {"path": path, "content": content})


def _bad_spec(name: str) -> Reply:
    """A spec that compiles but whose fee is text, so its computed 'fee * 1.2' fails on every detail page."""
    return Reply(text="Wrote the spec.", tool_calls=(_write("app.yaml", contacts_spec(name, fee_type="text", extension=False)),
                                                     ToolCall("finish", {"summary": "done"})), input_tokens=1200, output_tokens=300)


@pytest.fixture(scope="module")
def openai_session(gym_home, tmp_path_factory, browser):
    """One openai session: malformed calls, then a spec the checker rejects, then its fix with an extension: accepted."""
    workdir = tmp_path_factory.mktemp("synth")

    def fix(req: Request) -> Reply:
        told = str(req.messages[-1].get("content"))
        assert "FAIL" in told and "500" in told  # the checker's words (a page that answers 500) reached the model
        return Reply(text="Fee is money; added a summary page.", tool_calls=(
            _write("ext/routes.py", SUMMARY_ROUTES), _write("ext/templates/summary.html", SUMMARY_TEMPLATE),
            _write("app.yaml", contacts_spec("contacts_book")), ToolCall("finish", {})), input_tokens=2000, output_tokens=400)

    script = [
        Reply(text="Let me look around.", tool_calls=(
            ToolCall("write_file", {"__raw__": '{"path": "app.yaml", "content": '}),   # bad JSON
            ToolCall("delete_everything", {}),                                          # unknown tool
            _write("../escape.txt", "out"),                                             # escapes the workspace
            _write("app.yaml", "name: contacts_book\ntitle: C\n"),                       # a spec that does not compile
            ToolCall("list_files", {}),
        ), input_tokens=800, output_tokens=200),
        _bad_spec("contacts_book"),
        fix,
    ]
    with RawArgsLLM(script) as llm:
        chat = OpenAIChat("coder-test", base_url=llm.openai_base_url, api_key="test")
        result = synthesize_app(spec(), chat, workdir, CONFIG, browser=browser)
        yield result, llm.requests, workdir


def test_openai_session_fixes_a_spec_the_checker_rejects_and_registers_it(openai_session, gym_home):
    result, requests, workdir = openai_session
    assert result.status == "accepted", (result.reason, result.report and result.report.failures)
    assert result.rounds == 2 and result.turns == 3 and result.checker_runs == 2
    assert result.report.ok
    assert result.usage == {"input_tokens": 800 + 1200 + 2000, "output_tokens": 200 + 300 + 400}
    # the spec is registered under the temporary GYMFACTORY_HOME, with its extension beside it
    assert registered()["contacts_book"] == str(gym_home / "apps" / "contacts_book" / "app.yaml") == result.spec
    assert (gym_home / "apps" / "contacts_book" / "ext" / "routes.py").read_text() == SUMMARY_ROUTES
    assert "type: money" in Path(result.spec).read_text()
    assert not (workdir.parent / "escape.txt").exists() and not (workdir / "contacts_book" / "escape.txt").exists()
    assert [r.api for r in requests] == ["openai"] * 3
    assert {t["function"]["name"] for t in requests[0].body["tools"]} >= {"write_file", "run_checker", "finish"}
    assert "app.yaml" in requests[0].text() and "extension" in requests[0].body["messages"][0]["content"]
    events = read_log(Path(result.log))
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["start", "prompt", "model"] and kinds[-2:] == ["registered", "end"]
    checks = [e for e in events if e["kind"] == "checker"]
    # the first checker run fails a law, the second passes every law
    assert [all(law["verdict"] == "pass" for law in c["report"]["laws"]) for c in checks] == [False, True]
    assert checks[-1]["families"] == list(result.families)


def test_malformed_calls_and_a_spec_that_does_not_compile_come_back_as_tool_results(openai_session):
    result, requests, _ = openai_session
    texts = [m["content"] for m in requests[1].messages if m["role"] == "tool"]
    assert len(texts) == 5
    assert "not valid JSON" in texts[0]
    assert "unknown tool 'delete_everything'" in texts[1]
    assert "escapes the workspace" in texts[2]
    assert "does NOT compile" in texts[3] and "category: Field required" in texts[3]  # the compiler names the place
    assert texts[4].splitlines() == ["app.yaml"]
    finish = [m for m in requests[2].messages if m["role"] == "tool"][-1]["content"]
    assert "FAIL" in finish and "500" in finish and "Round 1 of 3" in finish
    tools = [e for e in read_log(Path(result.log)) if e["kind"] == "tool"]
    assert [t["ok"] for t in tools[:5]] == [False, False, False, True, True]


def test_a_session_that_never_passes_is_rejected_at_the_round_limit(gym_home, tmp_path, browser):
    name = "contacts_dead"
    with ScriptedLLM([_bad_spec(name), _bad_spec(name)]) as llm:
        chat = OpenAIChat("coder-test", base_url=llm.openai_base_url, api_key="test")
        result = synthesize_app(spec(name), chat, tmp_path, SynthesisConfig(rounds=2, **CHECK), browser=browser)
        assert llm.pending() == 0 and llm.exhausted == 0
    assert result.status == "rejected" and "round limit 2" in result.reason
    assert result.rounds == 2 and result.app_dir is None and result.spec is None
    assert result.checker_runs == 1  # the second attempt changed nothing: the verdict was reused
    assert result.report.first_failure.law in ("console", "dead_controls") and "500" in result.report.first_failure.evidence
    assert name not in registered()


def test_the_same_loop_through_the_anthropic_sdk(gym_home, tmp_path, browser):
    name = "contacts_anthropic"

    def write(req: Request) -> Reply:
        results = [b for m in req.messages if m["role"] == "user" and isinstance(m["content"], list) for b in m["content"]]
        assert any(b.get("is_error") for b in results) and any("name: contacts_anthropic" in str(b.get("content")) for b in results)
        return Reply(tool_calls=(_write("app.yaml", contacts_spec(name, extension=False)), ToolCall("finish", {})),
                     input_tokens=900, output_tokens=250)

    script = [Reply(text="Reading.", tool_calls=(ToolCall("read_file", {"path": "app.yaml"}), ToolCall("shell", {"cmd": "ls"}))), write]
    with ScriptedLLM(script) as llm:
        chat = AnthropicChat("claude-test", base_url=llm.anthropic_base_url, api_key="test")
        result = synthesize_app(spec(name), chat, tmp_path, CONFIG, browser=browser)
        requests = llm.requests
    assert result.status == "accepted", (result.reason, result.report and result.report.failures)
    assert [r.api for r in requests] == ["anthropic", "anthropic"]
    assert {t["name"] for t in requests[0].body["tools"]} >= {"read_file", "write_file", "finish"}
    assert "SPEC first" in requests[0].body["system"]
    assert result.usage == {"input_tokens": 10 + 900, "output_tokens": 5 + 250}
    assert registered()[name].endswith(f"apps/{name}/app.yaml")


def test_the_accepted_app_serves_tasks_of_the_families_derived_from_its_spec(openai_session, tmp_path):
    result, _, _ = openai_session
    assert result.accepted
    derived = {f.name for f in part("contacts_book", "families").FAMILIES}  # no GYMFACTORY_CATALOGUE needed: one's own spec
    assert derived == set(result.families) >= {"contacts_book.contact.move", "contacts_book.contact.create"}
    tasks = synthesize(SynthConfig(n=2, families=("contacts_book.contact.move", "contacts_book.contact.create"),
                                   personas=("rosa",), scenarios=("month_end",), seed=3))
    assert sorted(t.meta.family for t in tasks) == ["contacts_book.contact.create", "contacts_book.contact.move"]
    assert all(t.seed["contacts_book"]["_identity"][0]["name"] == "Rosa Delgado" for t in tasks)
    with EnvironmentManager(screenshots=ObjectStore(tmp_path / "shots")) as manager:
        outcomes = validate_tasks(tasks, manager, ValidationConfig(verifier_timeout_s=5.0, golden_timeout_s=90.0))
    assert all(o.accepted for o in outcomes), [(o.task_id, o.reason, o.detail[:300]) for o in outcomes]
    assert all(o.probes > 0 for o in outcomes)  # the probes (doing nothing, the wrong record, ...) scored no success
