"""TRL: the environment class through its tools (golden demonstration -> reward 1), and real GRPOTrainer steps on the CPU."""

from __future__ import annotations

import os

import pytest

from contracts.taskfiles import save_tasks
from runtime.actions import parse_action
from runtime.interop.tool_template import with_tool_template
from runtime.interop.trl_env import GymfactoryToolEnv, trl_dataset


def _call_tools(env: GymfactoryToolEnv, actions: list[str]) -> list[str]:
    """Each action as the tool call a model would make: the tool named by its kind, its fields as arguments."""
    replies = []
    for text in actions:
        action = parse_action(text)
        replies.append(getattr(env, action.kind)(**action.model_dump(exclude={"kind"}, exclude_none=True)))
    return replies


def test_golden_tool_calls_score_one_and_doing_nothing_scores_zero(validated, tmp_path):
    tasks, results = validated
    task, golden = tasks[0], results[0].golden_actions
    env = GymfactoryToolEnv()
    row = trl_dataset([task])[0]
    first = env.reset(**row)
    assert first.startswith("URL: ") and "[" in first  # the page, with element ids
    replies = _call_tools(env, [*golden, *(['answer("")'] if not golden[-1].startswith("answer(") else [])])
    assert replies[-1] == "The episode has ended." and all(r.startswith("URL: ") for r in replies[:-1])
    assert env.get_reward() == 1.0 and env.outcome["status"] == "success"
    assert env.answer("again") == "The episode has ended; no more actions."

    save_tasks([task], tmp_path / "one.jsonl")  # a task file instead of a dataset row; reset gives fresh instances
    env.reset(task_file=str(tmp_path / "one.jsonl"), task_id=task.id)
    assert env.click(x=5) == "Invalid action: Value error, give an element id, click(12), or a point, click(640, 400)"
    assert env.get_reward() == 0.0 and env.outcome["status"] == "failure"
    env._close()


def test_every_action_is_a_tool_with_the_action_docstring():
    from transformers.utils import get_json_schema

    from runtime.actions import ACTION_TYPES

    env = GymfactoryToolEnv()
    for kind, cls in ACTION_TYPES.items():
        schema = get_json_schema(getattr(env, kind))["function"]
        assert schema["name"] == kind and schema["description"] == cls.__doc__.strip()


def test_grpo_trainer_steps_on_the_cpu_over_a_real_app_and_the_reward_arrives(validated, tmp_path):
    import torch
    from trl import GRPOConfig, GRPOTrainer

    from rl.policy import load_policy
    from tests.support.tool_policy import build_tool_policy

    tasks, _ = validated
    rows = trl_dataset(tasks[:1] * 2)
    path = build_tool_policy(tmp_path / "tiny", tasks[:1])
    model, tokenizer = load_policy(path)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=1, per_device_train_batch_size=2, num_generations=2,
                      max_completion_length=24, learning_rate=1e-2, logging_steps=1, report_to="none", use_cpu=True,
                      save_strategy="no", seed=0, max_tool_calling_iterations=2)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    trainer = GRPOTrainer(model=model, processing_class=with_tool_template(tokenizer), args=args, train_dataset=rows,
                          environment_factory=GymfactoryToolEnv)
    trainer.train()
    envs = trainer._environment_pool[None]
    scored = [e.outcome for e in envs if e.outcome is not None]
    assert len(scored) == 2 and all(o["status"] in ("success", "failure") for o in scored)  # each rollout was scored
    logged = next(h for h in trainer.state.log_history if "rewards/GymfactoryToolEnv/mean" in h)
    assert logged["rewards/GymfactoryToolEnv/mean"] == pytest.approx(sum(o["reward"] for o in scored) / 2)
    assert all(e.task_id == tasks[0].id for e in envs if e.task_id)
    assert any(not torch.equal(before[n], p) for n, p in model.named_parameters()) or logged["reward_std"] == 0.0
    for e in envs:
        e._close()
