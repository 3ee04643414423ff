"""Briefs, the draft spec and the workspace tools: with no model and no API key (the template provider) the brief's draft
spec compiles, passes the real contract checker and is registered with derived families; writing the spec answers
whether it compiles; the tools refuse paths that leave the workspace; the CLI refuses to run without a provider."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from factory.apps import SpecError, SynthesisConfig, Workspace, load_spec, read_log
from factory.apps.run import run_one
from mocked_apps.checker import LAWS
from mocked_apps.registry import registered

from .conftest import CHECK, SPEC, spec


def test_specs_load_from_json_and_yaml_and_bad_ones_say_why(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(SPEC))
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(SPEC))
    assert load_spec(tmp_path / "a.json") == load_spec(tmp_path / "a.yaml") == spec()
    assert spec().main.label_field.name == "full_name"
    (tmp_path / "bad.json").write_text(json.dumps({**SPEC, "name": "Bad Name"}))
    with pytest.raises(SpecError, match="name"):
        load_spec(tmp_path / "bad.json")
    dup = {**SPEC, "entities": [{"name": "x", "fields": [{"name": "id", "type": "str"}]}]}
    (tmp_path / "dup.json").write_text(json.dumps(dup))
    with pytest.raises(SpecError, match="not 'id'"):
        load_spec(tmp_path / "dup.json")
    from factory.apps.run import collect_specs

    (tmp_path / "mail.json").write_text(json.dumps({**SPEC, "name": "mail"}))
    with pytest.raises(SpecError, match="shipped"):
        collect_specs([tmp_path / "mail.json"], None, 1, "template")


def test_the_template_provider_compiles_the_draft_spec_checks_and_registers_it(gym_home, tmp_path, browser, monkeypatch):
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    result = run_one(spec("contacts_draft"), "template", tmp_path, SynthesisConfig(**CHECK), browser=browser)
    assert result.status == "accepted", (result.reason, result.report and result.report.failures)
    assert result.rounds == 1 and result.turns == 0 and result.checker_runs == 1
    assert [r.law for r in result.report.laws] == list(LAWS) and all(r.verdict == "pass" for r in result.report.laws)
    assert registered()["contacts_draft"] == result.spec and result.spec.endswith("apps/contacts_draft/app.yaml")
    assert set(result.families) >= {"contacts_draft.contact.create", "contacts_draft.contact.lookup"}
    assert [e["kind"] for e in read_log(Path(result.log))] == ["start", "checker", "registered", "end"]
    ws = Workspace(Path(result.workspace), shots=tmp_path / "shots", browser=browser)
    shot = ws.call("screenshot", {"path": "/contact/2", "form_factor": "mobile"})
    assert shot.ok and "HTTP 200" in shot.text, shot.text
    png = next((tmp_path / "shots").glob("*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not list(Path(result.workspace).rglob("*.png"))


def test_writing_the_spec_answers_whether_it_compiles(tmp_path):
    root = tmp_path / "contacts_book"
    root.mkdir()
    ws = Workspace(root)
    from factory.apps import draft_spec
    from mocked_apps.kit.spec.write import dump_spec

    good = dump_spec(draft_spec(spec()))
    assert "the spec compiles" in ws.call("write_file", {"path": "app.yaml", "content": good}).text
    for content, says in [
        (good.replace("title: full_name", "title: nickname"), "entities.contact.title"),
        (good.replace("name: contacts_book", "name: other_book"), "keep that name"),
        (good + "extension: ext\n", "no ext/routes.py"),
        (good.replace("sample: company", "sample: lottery_numbers"), "lottery_numbers"),
        ("name: [", "cannot read it as YAML"),
    ]:
        text = ws.call("write_file", {"path": "app.yaml", "content": content}).text
        assert "does NOT compile" in text and says in text, (says, text)
        assert ws.run_checker().first_failure.law == "starts" and ws.checker_runs == 0  # no browser for a broken spec
    assert ws.families() == ()


def test_workspace_tools_stay_inside_and_report_errors_as_results(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("outside")
    (root / "link").symlink_to(tmp_path)
    ws = Workspace(root)
    assert ws.call("write_file", {"path": "templates/x.html", "content": "<p>hi</p>"}).ok
    assert (root / "templates" / "x.html").read_text() == "<p>hi</p>"
    assert ws.call("read_file", '{"path": "templates/x.html"}').text == "<p>hi</p>"
    for bad, says in [
        ({"path": "../secret.txt"}, "escapes the workspace"),
        ({"path": "link/secret.txt"}, "escapes the workspace"),
        ({"path": "/etc/passwd"}, "absolute"),
        ({"path": "missing.py"}, "no file"),
        ('{"path": ', "not valid JSON"),
        ('["path"]', "JSON object"),
        ({}, "missing argument 'path'"),
    ]:
        result = ws.call("read_file", bad)
        assert not result.ok and says in result.text, (bad, result.text)
    assert not ws.call("write_file", {"path": "../evil.py", "content": "x"}).ok
    assert not (tmp_path / "evil.py").exists()
    unknown = ws.call("rm_rf", {})
    assert not unknown.ok and "run_checker" in unknown.text
    assert ws.call("list_files", {}).text.splitlines() == ["templates/x.html"]
    assert "starts: FAIL — the spec does not compile: there is no app.yaml" in ws.call("run_checker", {}).text


def _root_cli():
    from factory.apps.cli import register
    from gymfactory.cli import build

    root = build()
    names = [c.name for g in root.registered_groups if g.name == "apps" for c in g.typer_instance.registered_commands]
    if "synthesize" not in names:  # until gymfactory/cli.py lists factory.apps.cli
        register(root)
    return root


def test_cli_without_a_provider_says_what_to_set_and_exits_non_zero(tmp_path, monkeypatch):
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / "spec.json").write_text(json.dumps(SPEC))
    runner = CliRunner()
    result = runner.invoke(_root_cli(), ["apps", "synthesize", "--spec", str(tmp_path / "spec.json"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "ANTHROPIC_API_KEY" in result.output and "OPENAI_API_KEY" in result.output
    assert not (tmp_path / "out").exists()
    if not any(os.access(os.path.join(d, "claude"), os.X_OK) for d in os.environ.get("PATH", "").split(os.pathsep)):
        result = runner.invoke(_root_cli(), ["apps", "synthesize", "--spec", str(tmp_path / "spec.json"), "--provider", "claude",
                                             "--out", str(tmp_path / "out")])
        assert result.exit_code == 2 and "not on PATH" in result.output, result.output
    result = runner.invoke(_root_cli(), ["apps", "synthesize", "--category", "crm", "--provider", "template"])
    assert result.exit_code == 2 and "--spec FILE" in result.output, result.output


def test_a_provider_writes_specs_for_a_category_and_a_bad_answer_is_retried(monkeypatch):
    from factory.apps.run import collect_specs
    from tests.support.scripted_llm import ScriptedLLM

    good = json.dumps({**SPEC, "name": "crm_lite"})
    with ScriptedLLM(["not json at all", f"```json\n{good}\n```", good]) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.openai_base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        specs = collect_specs([], "crm", 2, "openai")
        assert "That answer was invalid" in llm.requests[1].text()
        assert "names already taken: crm_lite" in llm.requests[2].text()
    assert [s.name for s in specs] == ["crm_lite", "crm_lite_2"]
    assert specs[0].main.name == "contact"


def test_a_coding_agent_cli_is_run_in_the_workspace_with_the_prompt_and_its_absence_is_said(tmp_path, monkeypatch):
    from factory.apps import CliChat, CodingAgentUnavailable, available_cli_agents

    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert available_cli_agents() == {}
    with pytest.raises(CodingAgentUnavailable, match="not on PATH"):
        CliChat("codex", tmp_path)
    # a stand-in executable (this test checks how the loop invokes a CLI, not the CLI itself)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    stub = bindir / "claude"
    stub.write_text('#!/bin/sh\nprintf "%s\\n" "$@" > argv.txt\necho edited\n')
    stub.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir))
    assert set(available_cli_agents()) == {"claude"}
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = CliChat("claude", ws)
    chat.start("SYSTEM RULES", "build contacts")
    turn = chat.step()
    assert turn.calls == () and "edited" in turn.text and turn.stop == "exit 0"
    argv = (ws / "argv.txt").read_text()
    assert argv.startswith("-p\n") and "SYSTEM RULES" in argv and "build contacts" in argv and "app.yaml" in argv
    chat.add_user("dead_controls: FAIL")
    chat.step()
    assert (ws / "argv.txt").read_text().splitlines()[-1] == "dead_controls: FAIL"
