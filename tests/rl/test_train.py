"""Training on the real stack: golden demos through the harness, SFT, the policy agent in run_attempt, GRPO, resume.

Real browser, real notes app server, tiny model; one environment manager for the module.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from contracts.taskfiles import load_tasks, save_tasks
from gymfactory.cli import build
from rl.agent import PolicyAgent
from rl.chat import ChatFormat
from rl.config import TrainConfig
from rl.demos import STOP, collect_demos
from rl.grpo import k3, token_logprobs
from rl.policy import build_tiny_policy, disable_dropout, load_policy
from rl.sampler import TaskSampler
from rl.samples import collate, window_samples
from rl.sft import sft, sft_samples, supervised_loss
from rl.train import TrainError, _corpus, grpo_step, train
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.rollout import recorded_turns, run_attempt
from runtime.store import TrajectoryStore
from tests.rl.notes_instances import notes_instances

FIXTURE_TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("rl-env")
    with EnvironmentManager(screenshots=root / "objects") as manager:
        store = TrajectoryStore(root / "trajectories.db")
        yield manager, store
        store.close()


@pytest.fixture(scope="module")
def demos(env):
    manager, store = env
    demos, results = collect_demos(load_tasks(FIXTURE_TASKS), manager, store)
    assert [r.status for r in results] == ["success"] * len(results), results
    return demos


@pytest.fixture(scope="module")
def warm(demos, tmp_path_factory):
    """A tiny policy built from the demos' texts, before and after a short SFT."""
    tasks = [d.task for d in demos]
    path = build_tiny_policy(tmp_path_factory.mktemp("tiny"), _corpus(tasks, demos), vocab_size=512, n_positions=2048, n_embd=64)
    model, tokenizer = load_policy(path)
    disable_dropout(model)
    samples = sft_samples(demos, ChatFormat(tokenizer))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small matmuls: one thread is as fast, and spin-waiting threads crawl on a busy machine
    try:
        before = supervised_loss(model, samples, tokenizer.pad_token_id)
        history = sft(model, samples, tokenizer.pad_token_id, epochs=30, lr=4e-3, batch_size=1, seed=0)
        after = supervised_loss(model, samples, tokenizer.pad_token_id)
    finally:
        torch.set_num_threads(threads)
    return model, tokenizer, samples, before, after, history


def test_demonstrations_come_from_the_harness_and_end_by_answering(demos):
    by_id = {d.task.id: d for d in demos}
    assert [t.output for t in by_id["notes-pin-book-club"].turns][-1] == STOP
    assert by_id["notes-read-dentist"].turns[-1].output.startswith("answer('Reschedule")  # golden answered itself
    assert all(t.action is not None for d in demos for t in d.turns)


def test_sft_on_golden_trajectories_lowers_the_loss(warm):
    _model, _tok, samples, before, after, history = warm
    assert len(samples) == 5 and all(sum(s.loss_mask) > 0 for s in samples)
    assert after < 0.5 * before, (before, after)
    assert history[-1]["loss"] < history[0]["loss"]


def test_policy_agent_in_run_attempt_acts_and_its_logprobs_match_the_trainer(warm, env):
    model, tokenizer, *_ = warm
    manager, store = env
    task = next(t for t in load_tasks(FIXTURE_TASKS) if t.id == "notes-pin-book-club")
    agent = PolicyAgent.from_model(model, tokenizer, temperature=1.0, max_new_tokens=12, seed=1)
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=120))
    try:
        result = run_attempt(session, task, agent, store, max_steps=3)
    finally:
        session.close()
    assert result.status in ("success", "failure") and result.steps == len(agent.steps) >= 1
    turns = recorded_turns(store, result.attempt_id)
    assert sum(t.action is not None for t in turns) >= 1, [t.output for t in turns]  # SFT taught the action language
    samples = window_samples(task.instruction, turns, agent.chat, sampled=agent.steps)
    assert all(s.consistent for s in samples)
    batch = collate(samples, tokenizer.pad_token_id)
    with torch.no_grad():
        logp = token_logprobs(model, batch.input_ids, batch.attention_mask)
    assert float(k3(logp, batch.rollout_logp, batch.loss_mask.float())) < 1e-6


def test_env_error_attempts_never_enter_a_batch_or_the_sampler(warm, env):
    model, tokenizer, *_ = warm
    manager, store = env
    good = next(t for t in load_tasks(FIXTURE_TASKS) if t.id == "notes-delete-groceries")
    broken = good.model_copy(update={"id": "notes-broken", "verifier": "def verify(final):\n    raise RuntimeError('verifier bug')\n"})
    sampler = TaskSampler(group_size=2)
    config = TrainConfig(tasks=FIXTURE_TASKS, out=Path("unused"), init_tiny=True, max_steps=2, max_new_tokens=8, concurrency=1,
                         tasks_per_step=1, group_size=2, redraws=0)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    row = grpo_step(1, model, tokenizer, torch.optim.SGD(model.parameters(), lr=0.1), sampler, {broken.id: broken}, config, manager, store)
    assert row["attempts"] == 2 and row["env_errors"] == 2 and row["samples"] == 0 and not row["updated"]
    assert "env_error" in row["skipped"]
    assert sampler.success_rate("notes-broken") is None
    assert all(torch.equal(p, before[n]) for n, p in model.named_parameters())


def test_a_grpo_step_whose_groups_all_scored_alike_says_it_updated_nothing(warm, env):
    model, tokenizer, *_ = warm
    manager, store = env
    task = next(t for t in load_tasks(FIXTURE_TASKS) if t.id == "notes-delete-groceries")
    config = TrainConfig(tasks=FIXTURE_TASKS, out=Path("unused"), init_tiny=True, max_steps=1, max_new_tokens=8, concurrency=1,
                         tasks_per_step=1, group_size=2, redraws=0)  # one step cannot delete a note: every attempt fails alike
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    row = grpo_step(1, model, tokenizer, torch.optim.SGD(model.parameters(), lr=0.1), TaskSampler(group_size=2), {task.id: task},
                    config, manager, store)
    assert row["env_errors"] == 0 and row["samples"] == 0 and not row["updated"]
    assert row["groups"] == 1 and row["draws"] == 1 and row["informative_groups"] == 0
    assert "same reward" in row["skipped"] and "advantage is 0" in row["skipped"]
    assert all(torch.equal(p, before[n]) for n, p in model.named_parameters())


def test_a_grpo_step_draws_other_tasks_while_its_groups_scored_alike(warm, env):
    """Dynamic sampling: an uninformative group sends the step to draw another task, up to `redraws` more times."""
    model, tokenizer, *_ = warm
    manager, store = env
    tasks = {t.id: t for t in load_tasks(FIXTURE_TASKS) if t.id in ("notes-delete-groceries", "notes-create-rent")}
    assert len(tasks) == 2
    config = TrainConfig(tasks=FIXTURE_TASKS, out=Path("unused"), init_tiny=True, max_steps=1, max_new_tokens=8, concurrency=1,
                         tasks_per_step=1, group_size=2, redraws=1)  # one reply solves neither: both groups score alike
    sampler = TaskSampler(group_size=2)
    row = grpo_step(1, model, tokenizer, torch.optim.SGD(model.parameters(), lr=0.1), sampler, tasks, config, manager, store)
    assert row["draws"] == 2 and row["groups"] == 2 and row["attempts"] == 4 and row["informative_groups"] == 0
    assert all(sampler.success_rate(t) == 0.0 for t in tasks)  # each task drawn once, not the first one twice
    assert not row["updated"] and "same reward" in row["skipped"]


def test_train_end_to_end_writes_checkpoints_and_metrics_and_resumes(tmp_path, env):
    manager, _ = env
    tasks = tmp_path / "tasks.jsonl"
    save_tasks(notes_instances(5, seed=1), tasks)
    out = tmp_path / "run"
    config = TrainConfig(tasks=tasks, out=out, init_tiny=True, tiny_vocab=512, tiny_context=2048, tiny_width=64, sft_epochs=2,
                         grpo_steps=1, group_size=2, tasks_per_step=1, held_out=0.2, max_steps=3, max_new_tokens=8, concurrency=2)
    report = train(config, manager=manager)
    assert len(report.train_tasks) == 4 and len(report.held_out_tasks) == 1 and report.demos == 4
    assert not set(report.train_tasks) & set(report.held_out_tasks)
    assert (out / "checkpoints" / "sft" / "trainer_state.json").is_file()
    assert (out / "checkpoints" / "step-000001" / "model.safetensors").is_file()
    assert set(report.held_out) == {"zero-shot", "sft", "sft+grpo"} and report.held_out["sft"].scored == 1
    assert report.held_out["zero-shot"].scored == 1  # the starting policy, evaluated before any training
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in rows if r["phase"] == "sft"] == [1, 2]
    grpo = [r for r in rows if r["phase"] == "grpo"]
    assert [r["step"] for r in grpo] == [1]
    for key in ("reward_mean", "success_rate", "loss", "k3", "clip_frac", "tokens_per_s", "seconds"):
        assert key in grpo[0]
    assert 1 <= grpo[0]["draws"] <= 3 and grpo[0]["groups"] == grpo[0]["draws"]  # a draw of one task, again while groups score alike
    assert grpo[0]["attempts"] == 2 * grpo[0]["groups"] and grpo[0]["k3"] < 1e-4

    with pytest.raises(TrainError, match="--resume"):
        train(config, manager=manager)
    result = CliRunner().invoke(build(), [
        "train", "--tasks", str(tasks), "--out", str(out), "--init-tiny", "--sft-epochs", "2", "--grpo-steps", "2",
        "--group-size", "2", "--tasks-per-step", "1", "--held-out", "0.2", "--max-steps", "3", "--resume",
    ], env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if r["phase"] == "grpo"] == [1, 2]  # continued, not restarted
    assert [r["epoch"] for r in rows if r["phase"] == "sft"] == [1, 2]  # no second warm-up
    assert (out / "checkpoints" / "step-000002" / "trainer_state.json").is_file()
    assert "held-out" in result.output and "sft+grpo" in result.output
    # the trained checkpoint is an ordinary agent of `gymfactory rollout`
    result = CliRunner().invoke(build(), [
        "rollout", "--agent", "policy", "--model", str(out / "checkpoints" / "step-000002"), "--tasks", str(tasks),
        "--max-steps", "2", "--store", str(tmp_path / "cli.db"), "--screenshots", str(tmp_path / "objects"),
    ], env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    attempts = TrajectoryStore(tmp_path / "cli.db").attempts(agent="policy")
    assert len(attempts) == 5 and all(a.outcome.status != "env_error" for a in attempts)
    assert all(a.model == str(out / "checkpoints" / "step-000002") for a in attempts)
