"""`verifiers` rollouts on a gymfactory dataset with a scripted model: verifiers' own eval runner (`vf-eval`'s
`run_eval`), its interception server and its client, against a loopback OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import base64
import io
import re

import pytest
import verifiers.v1 as vf
from verifiers.v1.cli.eval.runner import run_eval
from verifiers.v1.configs.cli.eval import EvalConfig

from runtime.interop.verifiers_env import OUTCOME, TASKSET_ID, GymfactoryData, GymfactoryTask, env_config, load_environment
from tests.support.scripted_llm import ScriptedLLM


def _evaluate(config, llm, tmp_path, monkeypatch) -> vf.Trace:
    """One episode of the dataset's one train task, as `vf-eval` runs it (in process, no upload); its one trace."""
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.delenv("VF_RUN_ID", raising=False)  # run_eval sets it for the processes it spawns
    client = vf.EvalClientConfig(base_url=llm.openai_base_url, api_key_var="OPENAI_API_KEY")
    run = EvalConfig(env=config, model="scripted", client=client, select={"limit": 1}, push=False, rich=None,
                     output_dir=tmp_path)
    (episode,) = asyncio.run(run_eval(run))
    assert episode.ok and not episode.errors, episode.errors
    (trace,) = episode.traces
    return trace


def test_the_taskset_id_loads_the_environment(dataset_folder):
    env = vf.load_environment(vf.resolve_env_config({"taskset": {"id": TASKSET_ID, "dataset": str(dataset_folder)}}))
    assert type(env) is type(load_environment(str(dataset_folder)))
    (task,) = env.taskset  # the train split holds the mail task
    assert task.data.prompt is None and "Actions:" in task.data.system_prompt and task.data.id.startswith("mail.")


def test_the_outcome_is_the_reward_and_an_env_error_is_never_scored():
    task = GymfactoryTask(GymfactoryData(task="{}"))
    trace = vf.Trace(task=vf.TraceTask(type="GymfactoryTask", data=task.data), agent=vf.AgentInfo(config=vf.AgentConfig(model="m")))
    trace.info[OUTCOME] = {"status": "failure", "reward": 0.5}
    asyncio.run(task.score(trace))  # verifiers' own scoring step, as a rollout closes
    assert trace.rewards["task_reward"].score == 0.5
    trace.info[OUTCOME] = {"status": "env_error", "reward": 0.0, "error": "the browser died"}
    with pytest.raises(vf.TaskError, match="the browser died"):
        asyncio.run(task.score(trace))
    assert trace.rewards["task_reward"] is None  # unscored, not a zero


def test_a_scripted_rollout_scored_by_the_verifier(dataset_folder, validated, tmp_path, monkeypatch):
    _, results = validated
    config = env_config(str(dataset_folder), split="train", max_steps=30)
    golden = next(r for r in results if r.task_id.startswith("mail."))  # the train split holds the mail task
    replies = [f"I will act.\n{a}" for a in golden.golden_actions] + ['answer("done")']
    with ScriptedLLM(replies) as llm:
        trace = _evaluate(config, llm, tmp_path / "golden", monkeypatch)
        assert llm.pending() == 0 and "Actions:" in llm.requests[0].text() and "[" in llm.requests[0].text()
        assert not any(r.images() for r in llm.requests)  # screenshots off: text only, as strings
        assert all(isinstance(m["content"], str) for r in llm.requests for m in r.messages if m["role"] == "user")
    assert trace.ok and trace.reward == 1.0 and trace.rewards["task_reward"].score == 1.0
    assert trace.info["gymfactory_outcome"]["status"] == "success" and trace.num_turns == len(replies)
    assert trace.stop_condition == "user_closed"  # the env ended the exchange on answer(...)

    with ScriptedLLM(['answer("done")']) as llm:
        lazy = _evaluate(config, llm, tmp_path / "lazy", monkeypatch)
    assert lazy.ok and lazy.reward < 1.0 and lazy.num_turns == 1



def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_model_endpoint_is_an_env_error_never_a_zero(dataset_folder, tmp_path, monkeypatch):
    """Nothing listens at the model URL: verifiers' own client fails, and the trace is unscored, its outcome env_error."""
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.delenv("VF_RUN_ID", raising=False)
    client = vf.EvalClientConfig(base_url=f"http://127.0.0.1:{_closed_port()}/v1", api_key_var="OPENAI_API_KEY")
    run = EvalConfig(env=env_config(str(dataset_folder), split="train"), model="nobody", client=client,
                     select={"limit": 1}, push=False, rich=None, output_dir=tmp_path)
    (episode,) = asyncio.run(run_eval(run))
    (trace,) = episode.traces
    assert not trace.ok and trace.rewards == {} and trace.errors[-1].type == "ProviderError"
    outcome = trace.info[OUTCOME]
    assert outcome["status"] == "env_error" and outcome["error"].startswith("ProviderError: "), outcome
    assert "\n" not in outcome["error"]

def test_screenshots_reach_the_model_as_image_url_parts_on_every_observation(dataset_folder, validated, tmp_path,
                                                                             monkeypatch):
    from PIL import Image

    from mocked_apps.kit.browser import DESKTOP_VIEWPORT, MOBILE_DEVICE

    tasks, results = validated
    config = env_config(str(dataset_folder), split="train", max_steps=30, screenshots=True)
    golden = next(r for r in results if r.task_id.startswith("mail."))  # it opens a thread: a new page
    task = next(t for t in tasks if t.id == golden.task_id)
    with ScriptedLLM([*golden.golden_actions, 'answer("done")']) as llm:
        trace = _evaluate(config, llm, tmp_path, monkeypatch)
        assert llm.pending() == 0
    assert trace.ok and trace.reward == 1.0

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
    # the trace keeps what the model was shown: every observation with its image part
    observations = [m for m in trace.messages if m.role == "user"]
    assert len(observations) == len(seen)
    assert all([type(part).__name__ for part in m.content] == ["TextContentPart", "ImageUrlContentPart"] for m in observations)
