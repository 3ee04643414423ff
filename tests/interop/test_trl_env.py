"""TRL: the environment class through its tools (golden demonstration -> reward 1), and real GRPOTrainer steps on the CPU."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from contracts.taskfiles import load_tasks, save_tasks
from runtime.actions import parse_action
from runtime.interop.tool_template import with_tool_template
from runtime.interop.trl_env import GymfactoryToolEnv, trl_dataset

FIXTURE = Path(__file__).resolve().parents[2] / "mocked_apps" / "mail" / "tasks" / "answer-he-48622.json"  # answer: 172.00


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



def test_a_dead_app_is_an_env_error_with_no_reward_said_in_one_line(validated):
    """The app server killed mid-episode: the tool says so in one line and the reward is None (out of the loss), not 0."""
    from runtime.interop.gym_register import shared_manager

    tasks, _ = validated
    env = GymfactoryToolEnv()
    env.reset(**trl_dataset([tasks[0]])[0])
    shared_manager().backend.server(tasks[0].apps[0]).kill()
    reply = env.answer("done")  # scoring dumps the app's state: the server is gone
    assert reply.startswith("Environment error: ") and "died" in reply and "\n" not in reply, reply
    assert env.get_reward() is None and env.outcome["status"] == "env_error"
    assert env.answer("again") == "The episode has ended; no more actions."
    first = env.reset(**trl_dataset([tasks[0]])[0])  # the next episode runs on a restarted server
    assert first.startswith("URL: ") and env.get_reward() == 0.0
    env._close()

def test_every_action_is_a_tool_with_the_action_docstring():
    from transformers.utils import get_json_schema

    from runtime.actions import ACTION_TYPES

    env = GymfactoryToolEnv()
    for kind, cls in ACTION_TYPES.items():
        schema = get_json_schema(getattr(env, kind))["function"]
        assert schema["name"] == kind and schema["description"] == cls.__doc__.strip()


def _teach_the_answer_call(model, tokenizer, row: dict, call: str, steps: int = 200) -> float:
    """Supervised warm-up of the tiny policy on one tool call for the row's first prompt, as TRL renders it (the
    environment's tools, the tool template); a random policy never calls a tool, so no reward but 0 could arrive."""
    import inspect

    import torch

    env = GymfactoryToolEnv()
    obs = env.reset(**row)
    env._close()
    tools = [getattr(env, n) for n, _ in inspect.getmembers(GymfactoryToolEnv, predicate=inspect.isfunction)
             if n not in ("reset", "get_reward") and not n.startswith("_")]
    messages = row["prompt"][:-1] + [{**row["prompt"][-1], "content": row["prompt"][-1]["content"] + obs}]
    prompt = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True)["input_ids"]
    target = tokenizer.encode(call, add_special_tokens=False) + [tokenizer.eos_token_id]
    tail = prompt[-256:]  # the prompt's end at its true positions: the full 2.8k tokens cost 2 s a step here
    ids = torch.tensor([tail + target])
    positions = torch.arange(len(prompt) - len(tail), len(prompt) + len(target)).unsqueeze(0)
    labels = ids.clone()
    labels[0, :len(tail)] = -100
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(steps):
        loss = model(input_ids=ids, position_ids=positions, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if loss.item() < 0.05:
            break
    return loss.item()


def test_grpo_trainer_steps_on_the_cpu_over_a_real_app_and_the_reward_arrives(tmp_path):
    """The tiny policy, taught the answer call, runs real GRPOTrainer steps: TRL parses its tool call with the tool
    template's parser, calls the environment's answer tool, and the mail task's verifier's 1.0 reaches the trainer."""
    from trl import GRPOConfig, GRPOTrainer

    from rl.policy import load_policy
    from tests.support.tool_policy import build_tool_policy

    tasks = load_tasks(FIXTURE)
    rows = trl_dataset(tasks * 2)
    model, tokenizer = load_policy(build_tool_policy(tmp_path / "tiny", tasks))
    with_tool_template(tokenizer)
    call = '<tool_call>\n{"name": "answer", "arguments": {"text": "172.00"}}\n</tool_call>'
    assert _teach_the_answer_call(model, tokenizer, rows[0], call) < 0.05
    args = GRPOConfig(output_dir=str(tmp_path / "out"), max_steps=1, per_device_train_batch_size=2, num_generations=2,
                      max_completion_length=40, temperature=0.3, learning_rate=1e-3, logging_steps=1, report_to="none",
                      use_cpu=True, save_strategy="no", seed=0, max_tool_calling_iterations=1)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=args, train_dataset=rows, environment_factory=GymfactoryToolEnv)
    trainer.train()
    envs = trainer._environment_pool[None]
    scored = [e.outcome for e in envs if e.outcome is not None]
    assert len(scored) == 2 and {e.task_id for e in envs} == {tasks[0].id}  # each rollout reset to the row's task and scored
    assert any(o["status"] == "success" and o["reward"] == 1.0 for o in scored), scored  # the verifier's reward, via the tool
    logged = next(h for h in trainer.state.log_history if "rewards/GymfactoryToolEnv/mean" in h)
    assert logged["rewards/GymfactoryToolEnv/mean"] == pytest.approx(sum(o["reward"] for o in scored) / 2)
    for e in envs:
        e._close()
