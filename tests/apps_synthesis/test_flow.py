"""The `synthesize-apps` Prefect flow: specs fan out as Prefect tasks (two at once) and a model that gives no usable
answer ends each session as 'error' without crashing the flow; with no provider configured the flow refuses and says
what to set. (Acceptance through the checker is covered in test_sessions.py; the flow only fans sessions out.)"""

from __future__ import annotations

import json

import pytest

from factory.apps import ProviderNotConfigured, read_log
from flows.apps import AppsConfig, synthesize_apps
from mocked_apps.registry import registered
from tests.support.scripted_llm import Reply, ScriptedLLM

from .conftest import CHECK, SPEC


def test_flow_fans_out_sessions_and_a_failing_model_ends_them_as_errors(prefect_server, gym_home, tmp_path, monkeypatch):
    names = ["flow_a", "flow_b"]
    for name in names:
        (tmp_path / f"{name}.json").write_text(json.dumps({**SPEC, "name": name}))
    with ScriptedLLM([Reply(status=400, text="context length exceeded")] * 2) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.openai_base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        config = AppsConfig(specs=tuple(tmp_path / f"{n}.json" for n in names), provider="openai", out=tmp_path / "out",
                            concurrency=2, rounds=1, max_pages=CHECK["max_pages"], controls_budget_s=CHECK["controls_budget_s"])
        out = synthesize_apps(config)
        assert [r.api for r in llm.requests] == ["openai", "openai"]
    assert out["accepted"] == []
    assert sorted(r["name"] for r in out["results"]) == names
    for result in out["results"]:
        assert result["status"] == "error" and "http_400" in result["reason"], result
        assert result["turns"] == 0 and result["checker_runs"] == 0
        events = read_log(tmp_path / "out" / result["name"] / "session.jsonl")
        assert [e["kind"] for e in events] == ["start", "prompt", "end"]
        assert (tmp_path / "out" / result["name"] / result["name"] / "app.yaml").is_file()  # the draft spec was there
    assert not set(names) & set(registered())


def test_flow_without_a_provider_refuses_and_says_what_to_set(prefect_server, monkeypatch, tmp_path):
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / "a.json").write_text(json.dumps(SPEC))
    with pytest.raises(ProviderNotConfigured, match="OPENAI_API_KEY"):
        synthesize_apps(AppsConfig(specs=(tmp_path / "a.json",), out=tmp_path / "out"))
    assert not (tmp_path / "out").exists()
