"""A tiny policy whose tokenizer knows what a TRL tool-calling prompt holds, so prompts stay short on the CPU.

Its BPE is trained on the texts of such a prompt: the system prompt, the tools' schemas, the chat
template, and each task's instruction and first observation (read through `GymfactoryToolEnv`). Trained
on less, the fixture task's first prompt is ~8,100 tokens and a GRPO step takes minutes and gigabytes.
"""

from __future__ import annotations

import json
from pathlib import Path

from contracts.task import Task


def build_tool_policy(path: Path, tasks: list[Task]) -> Path:
    from transformers.utils import get_json_schema

    from rl.policy import build_tiny_policy
    from runtime.actions import ACTION_TYPES
    from runtime.interop.tool_template import TOOL_CHAT_TEMPLATE
    from runtime.interop.trl_env import SYSTEM_PROMPT, GymfactoryToolEnv, trl_dataset

    env = GymfactoryToolEnv()
    corpus = [SYSTEM_PROMPT, TOOL_CHAT_TEMPLATE, *(json.dumps(get_json_schema(getattr(env, k))) for k in ACTION_TYPES)]
    for row in trl_dataset(tasks):
        corpus += [row["prompt"][-1]["content"], env.reset(**row)]
    env._close()
    return build_tiny_policy(path, corpus * 4, vocab_size=2000, n_positions=8192, n_embd=64)
