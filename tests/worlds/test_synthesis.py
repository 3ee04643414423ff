"""Task synthesis: requirements first; golden and verifier apart; offline and through a real SDK client."""

from __future__ import annotations

import ast
from collections import Counter

import pytest

from factory.providers import ProviderError
from factory.providers.openai_provider import OpenAIProvider
from factory.tasks.families import FAMILIES
from contracts.taskfiles import TaskFileError, load_tasks, save_tasks
from factory.tasks.llm_author import LLMAuthor
from factory.tasks.synthesize import SynthConfig, synthesize
from tests.support.scripted_llm import ScriptedLLM


def test_offline_synthesis_is_deterministic_varied_and_cross_app():
    n = 2 * len(FAMILIES)  # every family at least once (some skip some worlds)
    tasks = synthesize(SynthConfig(n=n, seed=3))
    again = synthesize(SynthConfig(n=n, seed=3))
    assert [t.model_dump_json() for t in tasks] == [t.model_dump_json() for t in again]
    assert len({t.meta.family for t in tasks}) == len(FAMILIES) >= 10
    # each family gets its share: none more than one over it (a family that skips the last worlds may get fewer)
    shares = Counter(t.meta.family for t in tasks)
    assert max(shares.values()) <= -(-n // len(FAMILIES)) + 1, shares
    assert any(t.meta.cross_app for t in tasks)
    assert len({t.instruction for t in tasks}) >= 0.95 * len(tasks)  # phrasings vary
    for t in tasks:
        ast.parse(t.golden), ast.parse(t.verifier)
        assert set(t.seed) == set(t.apps) and t.clock


def test_verifier_never_contains_the_golden_code():
    for t in synthesize(SynthConfig(n=24, seed=1)):
        golden_calls = {line.strip() for line in t.golden.splitlines() if line.strip().startswith("env.")}
        assert golden_calls and not any(call in t.verifier for call in golden_calls)
        assert "env." not in t.verifier


def test_malformed_task_file_names_line_and_field(tmp_path):
    tasks = synthesize(SynthConfig(n=3))
    path = tmp_path / "tasks.jsonl"
    save_tasks(tasks, path)
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace('"instruction":', '"instructions":')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TaskFileError, match=r"tasks.jsonl:2: instruction: Field required"):
        load_tasks(path)


def test_llm_author_writes_both_codes_apart_and_retries_bad_code():
    family = FAMILIES["mail.star_invoice_email"]
    task = synthesize(SynthConfig(n=1, families=(family.name,)))[0]
    golden_reply = "```python\ndef solve(env):\n    env.click('Star', role='button')\n```"
    verifier_reply = "```python\ndef verify(final):\n    return {'starred': False, 'others_untouched': True}\n```"
    with ScriptedLLM(["sure, here you go: def solve(env) pass", golden_reply, verifier_reply]) as llm:
        provider = OpenAIProvider("test-model", base_url=llm.openai_base_url, api_key="test", backoff_s=0.01)
        from contracts.family import Requirements

        req = Requirements(family=family.name, apps=task.apps, instruction=task.instruction,
                           answer_context=task.answer_context, criteria=task.criteria)
        author = LLMAuthor(provider)
        golden = author.golden(family, req)
        verifier = author.verifier(family, req)
        assert "def solve" in golden and "def verify" in verifier
        assert "SyntaxError" in llm.requests[1].text()  # the bad reply went back with its error
        verifier_prompt = llm.requests[2].text()
        assert "env.click('Star'" not in verifier_prompt and task.instruction in verifier_prompt
        assert "thread" in verifier_prompt  # it saw the state schema


def test_llm_author_gives_up_with_provider_error():
    family = FAMILIES["drive.rename_document"]
    task = synthesize(SynthConfig(n=1, families=(family.name,)))[0]
    from contracts.family import Requirements

    req = Requirements(family=family.name, apps=task.apps, instruction=task.instruction,
                       answer_context=task.answer_context, criteria=task.criteria)
    with ScriptedLLM(["no code", "still none", "nope"]) as llm:
        provider = OpenAIProvider("m", base_url=llm.openai_base_url, api_key="test", backoff_s=0.01)
        with pytest.raises(ProviderError, match="bad_code"):
            LLMAuthor(provider).verifier(family, req)
