"""GRPO's arithmetic: group-baseline advantages, the clipped policy-ratio objective, KL estimates."""

from __future__ import annotations

import inspect

import torch


def group_advantages(rewards: torch.Tensor, eps: float = 1e-4) -> torch.Tensor:
    """(r - mean of its group) / (std of its group + eps); `rewards` is [groups, G]."""
    if rewards.dim() != 2:
        raise ValueError(f"rewards must be [groups, G], got shape {tuple(rewards.shape)}")
    mean = rewards.mean(dim=1, keepdim=True)
    std = rewards.std(dim=1, keepdim=True, unbiased=False) if rewards.shape[1] > 1 else torch.zeros_like(mean)
    return (rewards - mean) / (std + eps)


def k3(logp_p: torch.Tensor, logp_q: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """k3 estimate of KL(q || p) from samples of q: mean of exp(p - q) - (p - q) - 1 over masked tokens.

    With q the rollout policy and p the trainer, a jump means corrupted generation or misaligned
    history (the trainer scores different tokens than the sampler produced).
    """
    delta = (logp_p - logp_q) * mask
    per_token = torch.exp(delta) - delta - 1
    return (per_token * mask).sum() / mask.sum().clamp(min=1)


def clipped_objective(
    logp: torch.Tensor,
    logp_old: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    clip_eps: float = 0.2,
    logp_ref: torch.Tensor | None = None,
    kl_coef: float = 0.0,
) -> tuple[torch.Tensor, dict[str, float]]:
    """GRPO loss over token log-probs [B, T] (mask 1 on trained tokens), advantages [B].

    Returns the loss to minimise and stats (clip fraction, optional KL to the reference).
    Per-sequence token means, then the batch mean, as in the GRPO paper.
    """
    ratio = torch.exp(logp - logp_old)
    adv = advantages.unsqueeze(1)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv
    per_token = -torch.min(unclipped, clipped)
    stats = {"clip_frac": float((((ratio - 1).abs() > clip_eps).float() * mask).sum() / mask.sum().clamp(min=1))}
    if logp_ref is not None and kl_coef > 0:
        kl = torch.exp(logp_ref - logp) - (logp_ref - logp) - 1
        per_token = per_token + kl_coef * kl
        stats["kl_ref"] = float((kl * mask).sum() / mask.sum().clamp(min=1))
    per_seq = (per_token * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)
    return per_seq.mean(), stats


def token_logprobs(
    model, input_ids: torch.Tensor, attention_mask: torch.Tensor, loss_mask: torch.Tensor | None = None,
    inputs_embeds: torch.Tensor | None = None,
) -> torch.Tensor:
    """Log-prob of each token given its prefix, aligned to `input_ids` (position 0 gets 0).

    `inputs_embeds` replaces the embedding of `input_ids` (rl.trunk feeds kept hidden states this way).

    With `loss_mask`, only positions masked in some row get log-probs (0 elsewhere; callers weigh by the
    mask): the output head runs on those positions alone (`logits_to_keep`), not on a whole window's observations. With a 49k-token
    vocabulary and a few dozen trained tokens in a 2,500-token window that is most of the head's time
    and all of its memory.
    """
    if loss_mask is not None and _keeps_logits(model):
        keep = torch.nonzero(loss_mask[:, 1:].any(dim=0)).flatten()  # position p predicts token p + 1
        if keep.numel() == 0:
            return torch.zeros(input_ids.shape, dtype=torch.float)
        logits = model(**_inputs(input_ids, inputs_embeds), attention_mask=attention_mask, logits_to_keep=keep).logits.float()
        logp = torch.log_softmax(logits, dim=-1).gather(-1, input_ids[:, keep + 1].unsqueeze(-1)).squeeze(-1)
        out = torch.zeros(input_ids.shape, dtype=logp.dtype)
        return out.index_put((torch.arange(input_ids.shape[0])[:, None], (keep + 1)[None, :]), logp)
    logits = model(**_inputs(input_ids, inputs_embeds), attention_mask=attention_mask).logits[:, :-1].float()
    logp = torch.log_softmax(logits, dim=-1).gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    return torch.nn.functional.pad(logp, (1, 0))


def _inputs(input_ids: torch.Tensor, inputs_embeds: torch.Tensor | None) -> dict:
    return {"input_ids": input_ids} if inputs_embeds is None else {"inputs_embeds": inputs_embeds}


def _keeps_logits(model) -> bool:
    return "logits_to_keep" in inspect.signature(model.forward).parameters
