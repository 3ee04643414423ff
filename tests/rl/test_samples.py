"""Windowed samples: each step's output is trained exactly once, and a sample is what the agent saw plus its outputs."""

from __future__ import annotations

import pytest
import torch

from rl.agent import PolicyAgent
from rl.chat import ChatFormat
from rl.grpo import k3, token_logprobs
from rl.policy import build_tiny_policy, disable_dropout, load_policy
from rl.samples import collate, window_samples
from runtime.actions import ActionParseError, parse_action
from runtime.harness import Harness, system_prompt, windows
from runtime.observation import Observation

TREE = '[1] link "Notes"\nnavigation "Notes navigation"\n  [2] link "All notes" current\n  [3] link "New note"\nmain\n  [{a}] link "Groceries"\n  [{b}] link "Book club"'
INSTRUCTION = "Pin the note 'Book club'."
CORPUS = [system_prompt(INSTRUCTION)] + [TREE.format(a=a, b=a + 1) + f"\nclick({a})\nfill({a}, \"Pay rent\")\nanswer(\"\")" for a in range(4, 9)] * 30
K, O = 4, 1  # small windows keep the sampled episodes short; the window arithmetic is the harness's own


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = build_tiny_policy(tmp_path_factory.mktemp("tiny"), CORPUS, vocab_size=400, n_positions=2048, n_embd=64)
    model, tokenizer = load_policy(path)
    disable_dropout(model)
    return model, tokenizer


def _obs(step: int) -> Observation:
    return Observation(step=step, url=f"http://127.0.0.1/i/x/note/{step}", axtree=TREE.format(a=4 + step % 3, b=5 + step % 3))


def _episode(agent, n_steps: int) -> Harness:
    """The harness loop of run_attempt, with a scripted page instead of a browser."""
    harness = Harness(INSTRUCTION, window=K, overlap=O)
    agent.reset(_task())
    for t in range(n_steps):
        obs = _obs(t)
        harness.record(obs, agent.act(harness.prompt(obs), obs))
    return harness


def _task():
    from contracts.task import Task

    return Task(id="t", apps=("notes",), instruction="Pin the note 'Book club'.", criteria=[{"id": "ok", "description": "ok"}],
                verifier="def verify(final):\n    return {'ok': True}\n", golden="def solve(env):\n    pass\n", meta={"family": "f"})


@pytest.mark.parametrize("n_steps", [1, 9, 10, 11, 18, 19, 27, 30])
def test_every_step_output_is_trained_in_exactly_one_sample(tiny, n_steps):
    model, tokenizer = tiny
    chat = ChatFormat(tokenizer)
    turns = [h for h in _scripted_turns(n_steps)]
    samples = window_samples(INSTRUCTION, turns, chat)
    assert len(samples) == len(windows(n_steps))
    trained = [s for sample in samples for s in sample.steps]
    assert sorted(trained) == list(range(n_steps))  # each step once, none twice
    for sample in samples:
        enc_outputs = sample.spans()
        assert len(enc_outputs) == len(sample.steps)  # loss spans = the window's new steps only
        total_trained = sum(sample.loss_mask)
        expected = sum(len(chat.output_ids(turns[s].output)) for s in sample.steps)
        assert total_trained == expected


def _scripted_turns(n_steps: int):
    harness = Harness(INSTRUCTION)
    for t in range(n_steps):
        harness.record(_obs(t), f"click({4 + t % 5})" if t % 4 else "not an action")
    return harness.turns


def test_sample_is_the_prompt_the_agent_saw_at_the_windows_last_step_plus_its_output(tiny):
    model, tokenizer = tiny
    agent = PolicyAgent.from_model(model, tokenizer, temperature=1.0, max_new_tokens=6, seed=3)
    harness = _episode(agent, 9)
    samples = window_samples(INSTRUCTION, harness.turns, agent.chat, sampled=agent.steps, window=K, overlap=O)
    assert [s.window for s in samples] == [0, 1, 2]
    for sample, w in zip(samples, windows(9, K, O)):
        last = agent.steps[w.new[-1]]
        assert sample.consistent
        assert sample.input_ids == last.prompt_ids + last.output_ids
        # every new step's sampled ids sit in the sample exactly where its loss is
        for s in w.new:
            ids = agent.steps[s].output_ids
            assert any(sample.input_ids[a:b] == ids for a, b in sample.spans())
    # a window's earlier prompts are prefixes of its last one (the prefix cache holds)
    w1 = windows(9, K, O)[1]
    assert agent.steps[w1.new[-1]].prompt_ids[: len(agent.steps[w1.new[0]].prompt_ids)] == agent.steps[w1.new[0]].prompt_ids


def test_trainer_logprobs_equal_the_samplers_at_temperature_one(tiny):
    model, tokenizer = tiny
    agent = PolicyAgent.from_model(model, tokenizer, temperature=1.0, max_new_tokens=8, seed=5)
    harness = _episode(agent, 6)
    samples = window_samples(INSTRUCTION, harness.turns, agent.chat, sampled=agent.steps, window=K, overlap=O)
    batch = collate(samples, tokenizer.pad_token_id)
    model.train()  # as grpo_update scores it; dropout is off
    with torch.no_grad():
        logp = token_logprobs(model, batch.input_ids, batch.attention_mask)
    mask = batch.loss_mask.float()
    assert float(mask.sum()) == sum(len(s.output_ids) for s in agent.steps)
    assert float(k3(logp, batch.rollout_logp, mask)) < 1e-6
    assert float(((logp - batch.rollout_logp).abs() * mask).max()) < 1e-3
    # a hotter sampler is a different policy: k3 sees it
    hot = PolicyAgent.from_model(model, tokenizer, temperature=2.0, max_new_tokens=8, seed=5)
    hot_samples = window_samples(INSTRUCTION, _episode(hot, 2).turns, hot.chat, sampled=hot.steps, window=K, overlap=O)
    hb = collate(hot_samples, tokenizer.pad_token_id)
    with torch.no_grad():
        hot_logp = token_logprobs(model, hb.input_ids, hb.attention_mask)
    assert float(k3(hot_logp, hb.rollout_logp, hb.loss_mask.float())) > 1e-3


def test_outputs_decode_to_text_the_harness_parses_when_the_model_writes_actions(tiny):
    model, tokenizer = tiny
    chat = ChatFormat(tokenizer)
    ids = chat.output_ids("click(5)")
    assert chat.decode(ids) == "click(5)" and ids[-1] == tokenizer.eos_token_id
    agent = PolicyAgent.from_model(model, tokenizer, temperature=1.0, max_new_tokens=6, seed=0)
    harness = _episode(agent, 3)
    for turn, step in zip(harness.turns, agent.steps):
        assert turn.output == step.text and len(step.logprobs) == len(step.output_ids) <= 6
        try:
            parse_action(turn.output)
            assert turn.action is not None
        except ActionParseError:
            assert turn.error is not None  # unparseable output is feedback, never a crash
