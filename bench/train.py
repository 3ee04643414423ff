"""GRPO throughput, ours vs TRL's GRPOTrainer, side by side on the same tiny policy and single-turn prompts (each golden demo's first step; reward 1 when the sampled action equals the golden one): tokens/s and reward of both."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Annotated

import torch
import typer
from rich.console import Console
from rich.table import Table

from contracts.taskfiles import load_tasks
from runtime.actions import ActionParseError, format_action, parse_action
from runtime.harness import Harness, Prompt
from runtime.manager import EnvironmentManager
from runtime.store import TrajectoryStore

FIXTURE_TASKS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tasks"


def action_reward(text: str, target: str) -> float:
    """1 for the golden action, 0.1 for any other valid action, 0 for text that is no action."""
    try:
        action = format_action(parse_action(text))
    except (ActionParseError, TypeError):
        return 0.0
    return 1.0 if action == target else 0.1


def _prompts(tasks_path: Path, work: Path) -> tuple[list, list[tuple[Prompt, str]]]:
    """Golden demos through the harness; each demo's first prompt and golden first action."""
    from rl.demos import collect_demos

    with EnvironmentManager(screenshots=work / "objects") as manager:
        store = TrajectoryStore(work / "trajectories.db")
        try:
            demos, _ = collect_demos(load_tasks(tasks_path), manager, store)
        finally:
            store.close()
    pairs = [(Harness(d.task.instruction, d.task.form_factor).prompt(d.turns[0].observation), d.turns[0].action) for d in demos]
    return demos, pairs


def _ours(path: Path, pairs, steps: int, group: int, max_new: int, lr: float, seed: int) -> dict:
    """Our loop: PolicyAgent samples with log-probs, group advantages, one grpo_update per step."""
    from rl.agent import PolicyAgent
    from rl.grpo import group_advantages
    from rl.policy import disable_dropout, load_policy
    from rl.samples import Sample, collate
    from rl.update import grpo_update

    model, tok = load_policy(path)
    disable_dropout(model)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    agent = PolicyAgent.from_model(model, tok, temperature=1.0, max_new_tokens=max_new, seed=seed)
    rewards, tokens, started = [], 0, time.monotonic()
    for _step in range(steps):
        samples, advs, step_rewards = [], [], []
        for prompt, target in pairs:
            recs = [agent.sample(prompt) for _ in range(group)]
            r = [action_reward(rec.text, target) for rec in recs]
            step_rewards += r
            adv = group_advantages(torch.tensor([r]))[0].tolist()
            for rec, a in zip(recs, adv):
                n_prompt, n_out = len(rec.prompt_ids), len(rec.output_ids)
                tokens += n_prompt + n_out
                samples.append(Sample(rec.prompt_ids + rec.output_ids, (0,) * n_prompt + (1,) * n_out,
                                      (0.0,) * n_prompt + rec.logprobs, (0,), 0))
                advs.append(a)
        grpo_update(model, opt, collate(samples, tok.pad_token_id, advs), micro_batch=8)
        rewards.append(sum(step_rewards) / len(step_rewards))
    seconds = time.monotonic() - started
    return {"impl": "gymfactory", "seconds": seconds, "tokens": tokens, "tokens_per_s": tokens / seconds, "rewards": rewards}


def _trl(path: Path, pairs, steps: int, group: int, max_new: int, lr: float, seed: int, work: Path) -> dict:
    """TRL's GRPOTrainer on the same prompts (as text), reward function and sampling settings."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from rl.chat import ChatFormat
    from rl.policy import load_policy

    model, tok = load_policy(path)
    chat = ChatFormat(tok)
    rows = [{"prompt": tok.decode(chat.generation_prompt(p)), "target": t} for p, t in pairs]

    def reward(completions, target, **_):
        return [action_reward(c, t) for c, t in zip(completions, target)]

    args = GRPOConfig(
        output_dir=str(work / "trl"), per_device_train_batch_size=len(rows) * group, num_generations=group,
        max_completion_length=max_new, max_steps=steps, learning_rate=lr, temperature=1.0, top_k=0, top_p=1.0, beta=0.0,
        logging_steps=1, report_to="none", use_cpu=True, save_strategy="no", seed=seed, disable_dropout=True,
        shuffle_dataset=False, bf16=False,
    )
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=reward, args=args, train_dataset=Dataset.from_list(rows))
    started = time.monotonic()
    trainer.train()
    seconds = time.monotonic() - started
    logs = [h for h in trainer.state.log_history if "reward" in h]
    tokens = int(max((h.get("num_tokens", 0) for h in trainer.state.log_history), default=0))
    return {"impl": "trl", "seconds": seconds, "tokens": tokens, "tokens_per_s": tokens / seconds, "rewards": [h["reward"] for h in logs]}


def main(
    tasks: Annotated[Path, typer.Option(help="Tasks whose golden first steps become the prompts.")] = FIXTURE_TASKS,
    steps: Annotated[int, typer.Option(help="GRPO steps of each trainer.")] = 4,
    group_size: Annotated[int, typer.Option(help="Completions per prompt.")] = 4,
    max_new_tokens: Annotated[int, typer.Option(help="Longest completion.")] = 16,
    sft_epochs: Annotated[int, typer.Option(help="Warm-up epochs on the demos first, so rewards are not all zero.")] = 20,
    lr: Annotated[float, typer.Option(help="Learning rate of both.")] = 5e-4,
    seed: Annotated[int, typer.Option(help="Seed of both.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
) -> None:
    from rl.chat import ChatFormat
    from rl.policy import build_tiny_policy, disable_dropout, load_policy
    from rl.sft import sft, sft_samples
    from rl.train import _corpus

    console = Console()
    with tempfile.TemporaryDirectory(prefix="bench-train-") as tmp:
        work = Path(tmp)
        demos, pairs = _prompts(tasks, work)
        console.print(f"{len(pairs)} prompts from golden demos; building and warming up the tiny policy")
        init = build_tiny_policy(work / "init", _corpus([d.task for d in demos], demos), vocab_size=1024, n_positions=2048, seed=seed)
        model, tok = load_policy(init)
        disable_dropout(model)
        sft(model, sft_samples(demos, ChatFormat(tok)), tok.pad_token_id, epochs=sft_epochs, lr=2e-3, batch_size=1, seed=seed)
        model.save_pretrained(work / "base")
        tok.save_pretrained(work / "base")
        torch.manual_seed(seed)
        ours = _ours(work / "base", pairs, steps, group_size, max_new_tokens, lr, seed)
        torch.manual_seed(seed)
        try:
            trl = _trl(work / "base", pairs, steps, group_size, max_new_tokens, lr, seed, work)
        except ModuleNotFoundError as err:
            trl = {"impl": "trl", "error": f"not installed: {err}"}
    table = Table(title=f"GRPO, {steps} steps x {len(pairs)} prompts x {group_size} completions (same tiny model, CPU)")
    for col in ("trainer", "seconds", "tokens", "tokens/s", "reward per step"):
        table.add_column(col, justify="left" if col in ("trainer", "reward per step") else "right")
    for r in (ours, trl):
        if "error" in r:
            table.add_row(r["impl"], "-", "-", "-", r["error"])
        else:
            table.add_row(r["impl"], f"{r['seconds']:.1f}", str(r["tokens"]), f"{r['tokens_per_s']:.0f}", " ".join(f"{x:.2f}" for x in r["rewards"]))
    console.print(table)
    if out is not None:
        out.write_text(json.dumps({"ours": ours, "trl": trl}, indent=1))
