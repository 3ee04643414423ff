"""The frozen trunk: hidden states below the trained blocks, computed once per sample, reused every SFT epoch.

When only the top blocks of a Llama-like model train, everything below them (the embeddings and the
lower blocks) is a fixed function of the tokens. Supervised warm-up passes over the same samples many
times, so the trunk's output is computed once, kept, and each later pass runs only the trained blocks,
the final norm and the output head. On the reference model with its top 4 of 30 blocks training, a
2,500-token window costs 5.7 s forward and backward through everything and about 2.6 s from a kept trunk.

Only models whose blocks live in `model.model.layers` (Llama, Mistral, Qwen and the like) qualify; for
others `Trunk.of` returns None and the caller runs the whole model as before.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from .grpo import token_logprobs


class Trunk:
    """Kept outputs of the frozen lower blocks of `model`, keyed by a sample's token ids."""

    def __init__(self, model, first: int, bf16: bool = False, budget: int = 4 << 30,
                 kept: dict[tuple[int, ...], torch.Tensor] | None = None):
        """`kept`: hidden states to read and add to, shared with trunks of other models whose embeddings and lower
        `first` blocks are the same (rl.forced.SharedTrunk)."""
        self.model, self.first, self.bf16, self.budget = model, first, bf16, budget
        self.inner = model.model
        self.lower, self.upper = list(self.inner.layers[:first]), list(self.inner.layers[first:])
        self._kept: dict[tuple[int, ...], torch.Tensor] = {} if kept is None else kept
        self.bytes = sum(h.numel() * h.element_size() for h in self._kept.values())

    @classmethod
    def of(cls, model, bf16: bool = False, budget: int = 4 << 30) -> "Trunk | None":
        """A trunk when the embeddings and some lower blocks of a Llama-like `model` are frozen, else None.

        At most `budget` bytes of hidden states are kept (float32: 2.3 KB a token on the reference model);
        samples past it are recomputed each time, as without a trunk.
        """
        inner = getattr(model, "model", None)
        layers = getattr(inner, "layers", None)
        if not isinstance(layers, torch.nn.ModuleList) or not hasattr(inner, "embed_tokens") or not hasattr(inner, "norm"):
            return None
        trains = [any(p.requires_grad for p in block.parameters()) for block in layers]
        first = trains.index(True) if True in trains else len(layers)
        if first == 0 or any(not t for t in trains[first:]) or any(p.requires_grad for p in inner.embed_tokens.parameters()):
            return None
        return cls(model, first, bf16, budget)

    def __len__(self) -> int:
        return len(self._kept)

    def hidden(self, input_ids: tuple[int, ...]) -> torch.Tensor:
        """[1, T, H] hidden states entering the first trained block (computed on first use, then kept)."""
        if input_ids in self._kept:
            return self._kept[input_ids]
        ids = torch.tensor([input_ids])
        with torch.no_grad(), _swapped(self.inner, self.lower, torch.nn.Identity()), \
                torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            out = self.inner(input_ids=ids, attention_mask=torch.ones_like(ids), use_cache=False).last_hidden_state.float()
        size = out.numel() * out.element_size()
        if self.bytes + size <= self.budget:
            self._kept[input_ids] = out
            self.bytes += size
        return out

    def logits(self, input_ids: tuple[int, ...], positions: torch.Tensor) -> torch.Tensor:
        """[len(positions), vocab] logits at `positions` (each predicts the token after it), through the trained blocks only."""
        ids = torch.tensor([input_ids])
        hidden = self.hidden(input_ids)
        with torch.no_grad(), _swapped(self.inner, self.upper, self.inner.norm), \
                torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            return self.model(inputs_embeds=hidden, attention_mask=torch.ones_like(ids), logits_to_keep=positions).logits[0]

    def logprobs(self, input_ids: tuple[int, ...], loss_mask: tuple[int, ...]) -> torch.Tensor:
        """[1, T] log-prob of each token (0 outside `loss_mask`), through the trained blocks only; as `token_logprobs`."""
        ids = torch.tensor([input_ids])
        mask = torch.tensor([loss_mask])
        hidden = self.hidden(input_ids)
        with _swapped(self.inner, self.upper, self.inner.norm), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16):
            return token_logprobs(self.model, ids, torch.ones_like(ids), mask, inputs_embeds=hidden)


@contextmanager
def _swapped(inner, layers, norm):
    """`inner` runs `layers` then `norm` for the duration (the model's own forward does the rest: masks, rotary)."""
    saved_layers, saved_norm = inner.layers, inner.norm
    inner.layers, inner.norm = torch.nn.ModuleList(list(layers)), norm
    try:
        yield
    finally:
        inner.layers, inner.norm = saved_layers, saved_norm
