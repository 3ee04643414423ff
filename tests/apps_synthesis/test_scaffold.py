"""Specs, the scaffold and the workspace tools: a scaffolded app passes the real contract checker and its own tests;
the tools refuse paths that leave the workspace; the CLI refuses to run without a configured provider."""

from __future__ import annotations

import json
import os

import pytest
import yaml
from typer.testing import CliRunner

from factory.apps import SpecError, Workspace, load_spec, scaffold
from factory.apps.scaffold import ScaffoldError
from mocked_apps.checker import LAWS, check_app

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


def test_a_scaffolded_app_passes_every_law_and_its_own_tests(tmp_path, browser):
    root = scaffold(spec(), tmp_path / "contacts_book")
    assert {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} >= {
        "__init__.py", "manifest.py", "models.py", "routes.py", "seed.json", "templates/layout.html", "templates/index.html",
        "templates/new.html", "templates/detail.html", "tests/__init__.py", "tests/test_contacts_book.py"}
    seed = json.loads((root / "seed.json").read_text())
    assert len(seed["seed"]["contact"]) == 10 and seed["clock"] == "2026-03-02T09:00:00"
    with pytest.raises(ScaffoldError):
        scaffold(spec(), root)
    report = check_app(str(root), browser=browser, **CHECK)
    assert [r.law for r in report.laws] == list(LAWS)
    assert report.ok, report.failures
    assert all(r.verdict == "pass" for r in report.laws)
    assert "change state" in report.result("dead_controls").evidence
    ws = Workspace(root, shots=tmp_path / "shots", browser=browser)
    passed, output = ws.run_tests()
    assert passed, output
    assert "1 passed" in output
    shot = ws.call("screenshot", {"path": "/contact/2", "form_factor": "mobile"})
    assert shot.ok and "HTTP 200" in shot.text, shot.text
    png = next((tmp_path / "shots").glob("*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not list(root.rglob("*.png"))


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
    assert argv.startswith("-p\n") and "SYSTEM RULES" in argv and "build contacts" in argv
    chat.add_user("dead_controls: FAIL")
    chat.step()
    assert (ws / "argv.txt").read_text().splitlines()[-1] == "dead_controls: FAIL"
