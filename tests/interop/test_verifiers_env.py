"""A `verifiers` rollout on a gymfactory dataset with a scripted model (the real openai client, a loopback server)."""

from __future__ import annotations

import base64
import io
import re

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
        assert not any(r.images() for r in llm.requests)  # screenshots off: text only, as strings
        assert all(isinstance(m["content"], str) for r in llm.requests for m in r.messages if m["role"] == "user")
    (state,) = out["outputs"]
    assert state["reward"] == 1.0 and state["stop_condition"] == "has_final_env_response" and state["error"] is None

    with ScriptedLLM(['answer("done")']) as llm:
        lazy = _evaluate(env, llm, monkeypatch)
    (state,) = lazy["outputs"]
    assert state["reward"] < 1.0 and state["metrics"]["num_turns"] == 1


def test_screenshots_reach_the_model_as_image_url_parts_on_every_observation(dataset_folder, validated, monkeypatch):
    from PIL import Image

    from mocked_apps.kit.browser import DESKTOP_VIEWPORT, MOBILE_DEVICE

    tasks, results = validated
    env = vf.load_environment("runtime.interop.verifiers_env", dataset=str(dataset_folder), split="train", max_steps=30,
                              screenshots=True)
    golden = next(r for r in results if r.task_id.startswith("mail."))  # it opens a thread: a new page
    task = next(t for t in tasks if t.id == golden.task_id)
    with ScriptedLLM([*golden.golden_actions, 'answer("done")']) as llm:
        out = _evaluate(env, llm, monkeypatch)
        assert llm.pending() == 0
    (state,) = out["outputs"]
    assert state["reward"] == 1.0 and state["error"] is None

    viewport = DESKTOP_VIEWPORT if task.form_factor == "desktop" else MOBILE_DEVICE["viewport"]
    seen = []  # (URL, PNG) of the newest observation in each request: the reset's, then one per step
    for k, request in enumerate(llm.requests):
        assert len(request.images()) == k + 1  # each observation message so far carries its own screenshot
        text, image = request.messages[-1]["content"]  # the newest observation: text part, then image part
        assert text["type"] == "text" and text["text"].startswith("URL: ") and "[" in text["text"]
        assert image["type"] == "image_url" and image["image_url"]["url"].startswith("data:image/png;base64,")
        data = base64.b64decode(image["image_url"]["url"].split(",", 1)[1], validate=True)
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        with Image.open(io.BytesIO(data)) as png:
            assert png.format == "PNG" and png.size == (viewport["width"], viewport["height"])
            png.load()
        seen.append((re.match(r"URL: (\S+)", text["text"]).group(1), data))
    assert len(seen) == len(golden.golden_actions) + 1
    moved = [k for k in range(1, len(seen)) if seen[k][0] != seen[k - 1][0]]  # steps that opened another page
    assert moved and all(seen[k][1] != seen[k - 1][1] for k in moved), [url for url, _ in seen]
    final = state["completion"][-1]  # the observation after answer(...), never sent to the model, has its image too
    assert [part["type"] for part in final["content"]] == ["text", "image_url"]
