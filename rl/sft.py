"""Supervised warm-up: next-token loss on the golden outputs of windowed demonstration samples.

With a `Trunk` (rl.trunk: the lower blocks frozen), each sample's frozen part is computed once, by the
first loss or epoch that meets it, and every later pass runs the trained blocks alone, one sample at a time.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Sequence

import torch

from runtime.harness import View

from .chat import ChatFormat
from .demos import Demo
from .grpo import token_logprobs
from .samples import Sample, collate, window_samples
from .trunk import Trunk


def sft_samples(demos: Sequence[Demo], chat: ChatFormat, view: View = "compact") -> list[Sample]:
    """Every demonstration's windowed samples, the golden outputs as targets, its pages shown in `view`."""
    return [s for d in demos for s in window_samples(d.task.instruction, d.turns, chat, form_factor=d.task.form_factor, view=view)]


def _chunks(samples: Sequence[Sample], size: int) -> list[list[Sample]]:
    return [list(samples[i : i + size]) for i in range(0, len(samples), size)]


def _nll(model, chunk: Sequence[Sample], pad_id: int, trunk: Trunk | None, bf16: bool) -> tuple[torch.Tensor, int]:
    """Summed negative log-likelihood of the chunk's trained tokens, and their count."""
    if trunk is not None:
        parts = [(trunk.logprobs(s.input_ids, s.loss_mask), torch.tensor([s.loss_mask])) for s in chunk]
        return -sum((logp * mask).sum() for logp, mask in parts), sum(int(mask.sum()) for _, mask in parts)
    b = collate(chunk, pad_id)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        logp = token_logprobs(model, b.input_ids, b.attention_mask, b.loss_mask)
    return -(logp * b.loss_mask).sum(), int(b.loss_mask.sum())


def supervised_loss(model, samples: Sequence[Sample], pad_id: int, micro_batch: int = 8, trunk: Trunk | None = None) -> float:
    """Mean negative log-likelihood per trained token (no gradient)."""
    total, tokens = 0.0, 0
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for chunk in _chunks(samples, micro_batch):
            nll, n = _nll(model, chunk, pad_id, trunk, bf16=trunk is not None and trunk.bf16)
            total += float(nll)
            tokens += n
    model.train(was_training)
    return total / max(tokens, 1)


def sft_epoch(
    model, optimizer: torch.optim.Optimizer, samples: Sequence[Sample], pad_id: int, *, micro_batch: int = 8,
    batch_size: int = 16, rng: random.Random | None = None, max_grad_norm: float = 1.0, bf16: bool = False,
    trunk: Trunk | None = None,
) -> dict[str, float]:
    """One shuffled pass; each optimizer step averages the token loss over `batch_size` samples."""
    order = list(samples)
    (rng or random.Random(0)).shuffle(order)
    model.train()
    total, tokens, started = 0.0, 0, time.monotonic()
    for batch in _chunks(order, batch_size):
        n_tokens = sum(sum(s.loss_mask) for s in batch)
        optimizer.zero_grad(set_to_none=True)
        for chunk in _chunks(batch, micro_batch):
            nll, _ = _nll(model, chunk, pad_id, trunk, bf16)
            (nll / max(n_tokens, 1)).backward()
            total += float(nll.detach())
        tokens += n_tokens
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
        optimizer.step()
    seconds = time.monotonic() - started
    seen = sum(len(s) for s in order)
    return {"loss": total / max(tokens, 1), "trained_tokens": tokens, "seconds": seconds, "tokens_per_s": seen / max(seconds, 1e-9)}


def sft(
    model, samples: Sequence[Sample], pad_id: int, *, epochs: int, lr: float, batch_size: int = 4, micro_batch: int = 8,
    seed: int = 0, log: Callable[[dict], None] | None = None, bf16: bool = False, trunk: Trunk | None = None,
) -> list[dict[str, float]]:
    """`epochs` passes of AdamW (with `bf16`, forward and backward under bfloat16 autocast); returns (and logs) each epoch's stats.

    With `trunk` (built for this model, with the same `bf16`), the frozen blocks run once per sample.
    """
    if not samples or epochs <= 0:
        return []
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=0.0)
    rng = random.Random(seed)
    history = []
    for epoch in range(epochs):
        stats = {"phase": "sft", "epoch": epoch + 1, **sft_epoch(model, optimizer, samples, pad_id, micro_batch=micro_batch, batch_size=batch_size, rng=rng, bf16=bf16, trunk=trunk)}
        history.append(stats)
        if log is not None:
            log(stats)
    return history
