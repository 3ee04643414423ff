"""An HTTP 200 reply that is not a usable answer (garbage, truncated, wrong shape) is retried like a 5xx, then a
provider failure of that one task; `tasks synthesize` records it and goes on. Real SDK clients, scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.providers import ProviderError, get_provider
from gymfactory.cli import build
from tests.support.scripted_llm import Reply, Request, ScriptedLLM

GARBAGE = {
    "html": "<html><body>502 Bad Gateway</body></html>",
    "truncated": '{"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "hel',
    "empty": "",
    "wrong shape": json.dumps({"result": "ok"}),
    "choices not a list": json.dumps({"choices": "hello", "content": "hello"}),
}


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(params=["openai", "anthropic"])
def make(request, llm):
    base = llm.openai_base_url if request.param == "openai" else llm.anthropic_base_url

    def provider(**options):
        llm.requests.clear()
        return get_provider(request.param, model="m", base_url=base, api_key="test", backoff_s=0.01, **options)

    yield provider
    llm.clear()


@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_a_garbage_200_is_retried_like_a_5xx(make, llm, kind):
    llm.push(Reply(raw=GARBAGE[kind]), "the real answer")
    assert make(retries=2).generate([{"role": "user", "content": "hi"}]) == "the real answer"
    assert len(llm.requests) == 2


def test_garbage_until_the_retries_run_out_is_a_bad_reply_provider_error(make, llm):
    llm.push(*(Reply(raw=GARBAGE[k]) for k in ("html", "truncated", "wrong shape")))
    with pytest.raises(ProviderError) as info:
        make(retries=2).generate([{"role": "user", "content": "hi"}])
    assert info.value.reason == "bad_reply" and "after 3 attempts" in str(info.value)
    assert len(llm.requests) == 3


def _code(request: Request) -> str:
    if "def solve(env)" in request.text():
        return "```python\ndef solve(env):\n    env.answer('done')\n```"
    return "```python\ndef verify(final):\n    return {}\n```"


def test_tasks_synthesize_records_a_garbage_task_as_a_provider_failure_and_goes_on(tmp_path):
    out = tmp_path / "tasks.jsonl"
    # the first task's golden call gets garbage on its try and all 3 retries; every later call a usable answer
    script = [Reply(raw=GARBAGE[k]) for k in ("html", "truncated", "wrong shape", "empty")] + [_code] * 12
    with ScriptedLLM(script) as llm:
        env = {"OPENAI_BASE_URL": llm.openai_base_url, "OPENAI_API_KEY": "test", "GYMFACTORY_HOME": str(tmp_path / "home"),
               "COLUMNS": "300"}
        result = CliRunner().invoke(build(), ["tasks", "synthesize", "--provider", "openai", "--n", "2", "--out", str(out)], env=env)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 2
    failures = Path(str(out.with_suffix("")) + ".failures.txt").read_text().splitlines()
    assert len(failures) == 1 and "bad_reply" in failures[0] and "after 4 attempts" in failures[0], failures
    assert "1 task(s) failed at the provider" in result.output
