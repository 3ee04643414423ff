"""Windowed training samples: one per history window, loss only on the outputs of the window's new steps.

A trajectory's windows (runtime.harness.windows, K = 10, O = 2) partition its steps into "new"
sets, so every step's output is trained in exactly one sample. A sample's ids are the prompt the
agent saw at the window's last new step plus that step's output; inside a window prompts only
grow, so the earlier new steps' outputs sit in it with exactly the prefix they were sampled from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from runtime.harness import OVERLAP, WINDOW, Harness, Turn, View

from .agent import SampledStep
from .chat import ChatFormat
from .update import Batch


@dataclass(frozen=True)
class Sample:
    """Token ids of one window's conversation; loss on `loss_mask`, the sampler's log-probs in `rollout_logp`."""

    input_ids: tuple[int, ...]
    loss_mask: tuple[int, ...]
    rollout_logp: tuple[float, ...]  # 0 where the token was not sampled by the policy (or for demonstrations)
    steps: tuple[int, ...]  # the steps whose outputs carry loss here (the window's new steps)
    window: int
    consistent: bool = True  # False when a policy rollout's recorded prompt does not match the rebuilt one

    def __len__(self) -> int:
        return len(self.input_ids)

    def spans(self) -> list[tuple[int, int]]:
        """[start, end) of each trained output (each run of 1s in `loss_mask`), in order: one per step in `steps`."""
        out, start = [], None
        for i, m in enumerate(self.loss_mask + (0,)):
            if m and start is None:
                start = i
            elif not m and start is not None:
                out.append((start, i))
                start = None
        return out


def window_samples(
    instruction: str,
    turns: Sequence[Turn],
    chat: ChatFormat,
    *,
    form_factor: str = "desktop",
    sampled: Sequence[SampledStep] | None = None,
    window: int = WINDOW,
    overlap: int = OVERLAP,
    view: View = "compact",
) -> list[Sample]:
    """One sample per window of the trajectory `turns` (rebuilt with the harness, as `Harness.replay` does).

    With `sampled` (the policy agent's record of the same attempt) the outputs use the exact sampled
    ids and their log-probs, and each sample is checked against the prompt the agent actually saw.
    """
    if sampled is not None and len(sampled) != len(turns):
        raise ValueError(f"{len(sampled)} sampled steps for {len(turns)} turns: not the same attempt")
    harness = Harness.replay(instruction, turns, form_factor, window=window, overlap=overlap, view=view)
    out = []
    for w, prompt in zip(harness.windows(), harness.samples()):
        ids_of = {turns[s].output: sampled[s].output_ids for s in w.steps} if sampled is not None else None
        enc = chat.encode(prompt.messages, ids_of)
        mask = [0] * len(enc.ids)
        logp = [0.0] * len(enc.ids)
        consistent = True
        for j, ((start, end), train) in enumerate(zip(enc.outputs, enc.train)):
            if not train:
                continue
            step = w.steps[j]
            mask[start:end] = [1] * (end - start)
            if sampled is not None:
                rec = sampled[step]
                if len(rec.logprobs) != end - start or tuple(enc.ids[start:end]) != rec.output_ids:
                    consistent = False
                    continue
                logp[start:end] = rec.logprobs
        if sampled is not None:
            start_last = enc.outputs[-1][0]
            consistent = consistent and tuple(enc.ids[:start_last]) == sampled[w.new[-1]].prompt_ids
        out.append(Sample(tuple(enc.ids), tuple(mask), tuple(logp), w.new, w.index, consistent))
    return out


def collate(samples: Sequence[Sample], pad_id: int, advantages: Sequence[float] | None = None) -> Batch:
    """Right-padded tensors of a list of samples (advantages default to 0, e.g. for supervised loss)."""
    if not samples:
        raise ValueError("no samples to collate")
    width = max(len(s) for s in samples)
    n = len(samples)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    attn = torch.zeros((n, width), dtype=torch.long)
    loss = torch.zeros((n, width), dtype=torch.long)
    old = torch.zeros((n, width), dtype=torch.float)
    for i, s in enumerate(samples):
        k = len(s)
        ids[i, :k] = torch.tensor(s.input_ids)
        attn[i, :k] = 1
        loss[i, :k] = torch.tensor(s.loss_mask)
        old[i, :k] = torch.tensor(s.rollout_logp)
    adv = torch.tensor(list(advantages) if advantages is not None else [0.0] * n, dtype=torch.float)
    return Batch(ids, attn, loss, adv, old)
