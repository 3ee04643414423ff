"""A `verifiers` rollout on a gymfactory dataset with a scripted model (the real openai client, a loopback server)."""

from __future__ import annotations

import verifiers as vf
from verifiers.clients import OpenAIChatCompletionsClient
from verifiers.types import ClientConfig

from tests.support.scripted_llm import ScriptedLLM


def _evaluate(env, llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    client = OpenAIChatCompletionsClient(ClientConfig(api_base_url=llm.openai_base_url, api_key_var="OPENAI_API_KEY", max_retries=0))
    return env.evaluate_sync(client=client, model="scripted", num_examples=1, rollouts_per_example=1)


def test_load_environment_and_a_scripted_rollout_scored_by_the_verifier(dataset_folder, validated, monkeypatch):
    _, results = validated
    env = vf.load_environment("runtime.interop.verifiers_env", dataset=str(dataset_folder), split="train", max_steps=30)
    golden = next(r for r in results if r.task_id.startswith("mail."))  # the train split holds the mail task
    replies = [f"I will act.\n{a}" for a in golden.golden_actions] + ['answer("done")']
    with ScriptedLLM(replies) as llm:
        out = _evaluate(env, llm, monkeypatch)
        assert llm.pending() == 0 and "Actions:" in llm.requests[0].text() and "[" in llm.requests[0].text()
    (state,) = out["outputs"]
    assert state["reward"] == 1.0 and state["stop_condition"] == "has_final_env_response" and state["error"] is None

    with ScriptedLLM(['answer("done")']) as llm:
        lazy = _evaluate(env, llm, monkeypatch)
    (state,) = lazy["outputs"]
    assert state["reward"] < 1.0 and state["metrics"]["num_turns"] == 1
