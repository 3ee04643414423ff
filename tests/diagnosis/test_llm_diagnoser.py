"""The LLM diagnoser, through the real `openai` client against a scripted loopback server: it re-ranks the rules'
profile within the capability vocabulary, keeps the rules' numbers, and a broken answer is retried; a provider with
no usable answer leaves the rules' ranking."""

from __future__ import annotations

import json

import pytest

from factory.diagnosis.llm import refine
from factory.diagnosis.profile import AttemptFinding, CapabilityWeakness, WeaknessProfile
from tests.support.scripted_llm import Reply, ScriptedLLM


def _profile() -> WeaknessProfile:
    rows = (CapabilityWeakness(capability="form_fill", attempts=6, failures=3, failure_rate=0.5, blame=1.5, score=0.21, confidence=0.3,
                               evidence=(1, 2)),
            CapabilityWeakness(capability="confirm", attempts=3, failures=3, failure_rate=1.0, blame=1.5, score=0.375, confidence=0.4,
                               evidence=(1, 2, 3)))
    return WeaknessProfile(agent="a", attempts=6, failures=3, capabilities=rows, findings=(
        AttemptFinding(attempt_id=1, task_id="t", level="trajectory", kind="left_unconfirmed", detail="ended on 'Confirm transfer'",
                       capabilities=("confirm",)),))


def test_the_llm_reranks_within_the_vocabulary(monkeypatch):
    answer = json.dumps({"ranking": ["confirm", "form_fill"], "summary": "Stops before confirming (attempts 1, 2, 3)."})
    with ScriptedLLM(["not json at all", answer]) as llm:  # the first, malformed answer is sent back with its error
        monkeypatch.setenv("OPENAI_BASE_URL", llm.openai_base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        profile = refine(_profile(), "openai")
        assert len(llm.requests) == 2 and "left_unconfirmed" in llm.requests[0].text()
    assert [c.capability for c in profile.capabilities] == ["confirm", "form_fill"]
    assert profile.capabilities[0].evidence == (1, 2, 3) and profile.diagnoser.startswith("rules+llm:")
    assert "confirming" in profile.summary


@pytest.mark.parametrize("replies", [[Reply(status=400, text="bad request")], ['{"ranking": ["flying"], "summary": "x"}'] * 3])
def test_no_usable_answer_keeps_the_rules_ranking(monkeypatch, replies):
    with ScriptedLLM(replies) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.openai_base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        profile = refine(_profile(), "openai")
    assert [c.capability for c in profile.capabilities] == ["form_fill", "confirm"]  # as the rules gave it
    assert profile.diagnoser == "rules" and "unavailable" in profile.summary
