"""One GRPO optimisation step over a batch of windowed samples."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .grpo import clipped_objective, k3, token_logprobs


@dataclass
class Batch:
    """Token sequences with the loss on the trained (new-step, assistant) tokens only."""

    input_ids: torch.Tensor  # [B, T]
    attention_mask: torch.Tensor  # [B, T]
    loss_mask: torch.Tensor  # [B, T], 1 where the token is a trained output token
    advantages: torch.Tensor  # [B]
    rollout_logp: torch.Tensor  # [B, T], log-probs the sampler assigned (0 where not sampled)


def grpo_update(
    model,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    *,
    clip_eps: float = 0.2,
    ref_model=None,
    kl_coef: float = 0.0,
    max_grad_norm: float = 1.0,
    micro_batch: int | None = None,
) -> dict[str, float]:
    """Score the batch with the trainer, log k3(trainer vs rollout), take one clipped-ratio step.

    With `micro_batch`, sequences are scored `micro_batch` at a time and gradients accumulate, so
    the step equals the full-batch one (the loss is a mean over sequences) at a fraction of the memory.
    """
    model.train()
    n = batch.input_ids.shape[0]
    size = micro_batch or n
    optimizer.zero_grad(set_to_none=True)
    loss_sum, k3_sum, clip_sum, kl_sum, tokens = 0.0, 0.0, 0.0, 0.0, 0.0
    for lo in range(0, n, size):
        part = _slice(batch, lo, lo + size)
        mask = part.loss_mask.float()
        logp = token_logprobs(model, part.input_ids, part.attention_mask, part.loss_mask)
        logp_ref = None
        if ref_model is not None and kl_coef > 0:
            with torch.no_grad():
                logp_ref = token_logprobs(ref_model, part.input_ids, part.attention_mask, part.loss_mask)
        old = part.rollout_logp.detach()
        loss, stats = clipped_objective(logp, old, part.advantages, mask, clip_eps, logp_ref, kl_coef)
        share = part.input_ids.shape[0] / n
        (loss * share).backward()
        t = float(mask.sum())
        loss_sum += float(loss.detach()) * share
        k3_sum += float(k3(logp.detach(), old, mask)) * t
        clip_sum += stats["clip_frac"] * t
        kl_sum += stats.get("kl_ref", 0.0) * t
        tokens += t
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    out = {
        "loss": loss_sum,
        "k3_rollout": k3_sum / max(tokens, 1.0),
        "grad_norm": float(grad_norm),
        "trained_tokens": int(tokens),
        "clip_frac": clip_sum / max(tokens, 1.0),
    }
    if ref_model is not None and kl_coef > 0:
        out["kl_ref"] = kl_sum / max(tokens, 1.0)
    return out


def _slice(batch: Batch, lo: int, hi: int) -> Batch:
    """Rows lo..hi of a batch, trimmed to the longest sequence among them."""
    width = int(batch.attention_mask[lo:hi].sum(dim=1).max().clamp(min=1))
    return Batch(
        batch.input_ids[lo:hi, :width], batch.attention_mask[lo:hi, :width], batch.loss_mask[lo:hi, :width],
        batch.advantages[lo:hi], batch.rollout_logp[lo:hi, :width],
    )
