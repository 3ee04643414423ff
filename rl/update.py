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
) -> dict[str, float]:
    """Score the batch with the trainer, log k3(trainer vs rollout), take one clipped-ratio step."""
    model.train()
    mask = batch.loss_mask.float()
    logp = token_logprobs(model, batch.input_ids, batch.attention_mask)
    logp_ref = None
    if ref_model is not None and kl_coef > 0:
        with torch.no_grad():
            logp_ref = token_logprobs(ref_model, batch.input_ids, batch.attention_mask)
    old = batch.rollout_logp.detach()
    loss, stats = clipped_objective(logp, old, batch.advantages, mask, clip_eps, logp_ref, kl_coef)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    return {
        "loss": float(loss.detach()),
        "k3_rollout": float(k3(logp.detach(), old, mask)),
        "grad_norm": float(grad_norm),
        "trained_tokens": int(mask.sum()),
        **stats,
    }
