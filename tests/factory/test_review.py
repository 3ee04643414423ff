"""Review: deterministic rules with the template provider, a majority of three votes with an LLM."""

from __future__ import annotations

import json

import pytest

from factory.providers import ProviderError, ScriptedProvider, TemplateProvider
from contracts.task import Criterion, Task, TaskMeta
from factory.verifiers.review import review, rule_findings

VERIFIER = "def verify(final):\n    notes = final.state['notes']['note']\n    return {'pinned': any(n['pinned'] for n in notes if n['title'] == 'Groceries')}\n"
GOLDEN = "def solve(env):\n    env.click(name='Groceries')\n    env.click(name='Pin')\n"


def _task(**changes) -> Task:
    fields = dict(
        id="notes.pin.1",
        apps=("notes",),
        instruction="Pin the note about groceries so it stays on top.",
        answer_context={"note_id": 1, "body": "Milk, eggs, bread"},
        criteria=(Criterion(id="pinned", description="The Groceries note is pinned."),),
        verifier=VERIFIER,
        golden=GOLDEN,
        meta=TaskMeta(family="notes.pin"),
    )
    fields.update(changes)
    return Task(**fields)


ANSWER_TASK = {
    "instruction": "What does the groceries note say? Answer with its text.",
    "answer_context": {"body": "Milk, eggs, bread"},
    "verifier": "def verify(final):\n    return {'pinned': final.answer == 'Milk, eggs, bread'}\n",
}


def test_an_answer_task_that_keeps_its_answer_hidden_passes():
    assert review(_task(**ANSWER_TASK)).accepted


def test_parameters_the_instruction_must_state_are_not_leaks():
    verifier = VERIFIER.replace("'Groceries'", "'Book club'")
    task = _task(instruction="Pin the note 'Book club' so it stays on top.", answer_context={"title": "Book club"}, verifier=verifier)
    assert review(task).accepted


def test_a_good_task_passes_the_rules():
    result = review(_task(), TemplateProvider())
    assert result.accepted and result.method == "rules" and result.reasons == ()


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        (ANSWER_TASK | {"instruction": "Answer with the text of the groceries note: Milk, eggs, bread."}, "answer_in_instruction"),
        (ANSWER_TASK | {"answer_context": {"total": 1240.0}, "instruction": "Reply with the total, 1,240.00 dollars.",
                        "verifier": "def verify(final):\n    return {'pinned': abs(float(final.answer) - 1240.0) < 0.01}\n"},
         "answer_in_instruction"),
        (ANSWER_TASK | {"answer_context": {"due": "2026-03-15"}, "instruction": "Say when it is due (March 15, 2026).",
                        "verifier": "def verify(final):\n    return {'pinned': '2026-03-15' in final.answer}\n"},
         "answer_in_instruction"),
        ({"instruction": "pin"}, "instruction_not_a_sentence"),
        ({"instruction": "Pin the note {{ title }} now."}, "instruction_unrendered"),
        ({"criteria": (Criterion(id="pinned", description="x"),)}, "criterion_undescribed"),
        ({"verifier": "def verify(final):\n    return {'pinned': True}\n"}, "verifier_reads_no_state"),
        ({"verifier": "import socket\n" + VERIFIER}, "verifier_forbidden_import"),
        ({"verifier": "import os\n" + VERIFIER + "os.system('ls')\n"}, "verifier_forbidden_call"),
        ({"verifier": "def verify(final):\n    return __import__('subprocess')\n"}, "verifier_forbidden_import"),
        ({"golden": "from playwright.sync_api import sync_playwright\ndef solve(env):\n    pass\n"}, "golden_forbidden_import"),
        ({"golden": "def run(env):\n    pass\n"}, "golden_no_entry"),
        ({"verifier": "def verify(final:\n"}, "verifier_syntax"),
    ],
)
def test_each_rule_rejects_with_its_code(changes, code):
    result = review(_task(**changes))
    assert not result.accepted
    assert any(reason.startswith(code + ":") for reason in result.reasons), result.reasons


def _vote(clear=True, feasible=True, hackable=False, reason="fine"):
    return json.dumps({"clear": clear, "feasible": feasible, "hackable": hackable, "reason": reason})


def test_llm_majority_accepts_and_keeps_every_reason():
    provider = ScriptedProvider([_vote(reason="clear and checkable"), _vote(hackable=True, reason="verifier too loose"), _vote()])
    result = review(_task(), provider)
    assert result.accepted and result.method == "llm" and len(result.votes) == 3
    assert any("verifier too loose" in r for r in result.reasons)
    assert "Pin the note about groceries" in provider.calls[0][-1].content


def test_llm_majority_rejects():
    provider = ScriptedProvider([_vote(clear=False, reason="ambiguous"), _vote(feasible=False), _vote()])
    result = review(_task(), provider)
    assert not result.accepted and sum(v.accepts for v in result.votes) == 1


def test_provider_failure_is_recorded_not_raised():
    provider = ScriptedProvider([_vote(), ProviderError("scripted", "timeout", "slow")])
    result = review(_task(), provider)
    assert not result.accepted and result.error and "timeout" in result.error


def test_votes_that_never_match_the_schema_drop_the_task():
    """Fail closed: garbage instead of votes is no majority, so the task is dropped, not waved through."""
    provider = ScriptedProvider(["not json at all"] * 12)
    result = review(_task(), provider)
    assert not result.accepted and result.votes == () and "invalid_output" in (result.error or "")


def test_rules_run_before_votes():
    provider = ScriptedProvider([])
    result = review(_task(**ANSWER_TASK | {"instruction": "Answer: milk, eggs, bread."}), provider)
    assert not result.accepted and provider.calls == []
    assert list(rule_findings(_task())) == []


def test_state_read_through_a_helper_counts_as_reading_data():
    helper = "def _done(f):\n    return bool(f.state['notes']['note'])\n\ndef verify(final):\n    return {'done': _done(final)}\n"
    idle = "def _done(f):\n    return True\n\ndef verify(final):\n    return {'done': _done(final)}\n"
    assert not [r for r in rule_findings(_task(verifier=helper)) if r.startswith("verifier_reads_no_state")]
    assert [r for r in rule_findings(_task(verifier=idle)) if r.startswith("verifier_reads_no_state")]
