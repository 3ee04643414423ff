"""Policies: Hugging Face causal LMs from a local path, and a tiny one built offline from a config."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import torch

from .adapter import AdapterError, apply_adapter, is_adapter, read_manifest
from .models import PolicyError, resolve_policy

__all__ = ["PolicyError", "build_tiny_policy", "disable_dropout", "freeze_below", "load_policy"]

SPECIALS = {"bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>", "unk_token": "<unk>"}


def build_tiny_policy(
    path: Path | str,
    corpus: Iterable[str],
    *,
    vocab_size: int = 2048,
    n_layer: int = 2,
    n_embd: int = 128,
    n_head: int = 4,
    n_positions: int = 2048,
    seed: int = 0,
) -> Path:
    """Train a byte-level BPE tokenizer on `corpus`, build a small GPT-2 from a config, save both."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE(unk_token=SPECIALS["unk_token"]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIALS.values()), initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(list(corpus), trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, **SPECIALS)
    tokenizer.model_max_length = n_positions
    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=len(tokenizer), n_positions=n_positions, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
    )
    model = GPT2LMHeadModel(config)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def load_policy(path: Path | str, device: str = "cpu"):
    """(model, tokenizer) of a causal LM saved at a local path, or of a registered model (rl.models); never downloads.

    An adapter folder (rl.adapter) loads as its base model with the adapter's tensors in place.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = resolve_policy(path)
    if is_adapter(path):
        try:
            manifest = read_manifest(path)
            model, tokenizer = load_policy(manifest.base, device)
            apply_adapter(model, path, manifest)
        except AdapterError as err:
            raise PolicyError(str(err)) from None
        return model, tokenizer
    if not (path / "config.json").is_file():
        raise PolicyError(f"no model at {path} (config.json missing); build one with `gymfactory train --init-tiny`")
    from transformers.utils import logging as hf_logging

    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    hf_logging.disable_progress_bar()  # a bar per load, in every rollout and evaluation log
    try:
        model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True).to(device)
    finally:
        hf_logging.enable_progress_bar()
    return model, tokenizer


def disable_dropout(model) -> None:
    """Turn every dropout off, so the trainer scores tokens exactly as the sampler did (k3 ~ 0 on-policy)."""
    for module in model.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 0.0


def freeze_below(model, trainable_layers: int | None) -> int:
    """Train only the top `trainable_layers` transformer blocks and the final norm (None or 0: everything).

    The embeddings (tied to the output head in small LMs) and lower blocks stay frozen: their forward runs
    without keeping activations, about a third of the full backward's cost on the reference model.
    Returns the number of trainable parameters.
    """
    params = list(model.parameters())
    if not trainable_layers:
        for p in params:
            p.requires_grad_(True)
        return sum(p.numel() for p in params)
    blocks = _blocks(model)
    if blocks is None:
        raise PolicyError(f"cannot find the transformer blocks of {type(model).__name__} to train only the top {trainable_layers}")
    for p in params:
        p.requires_grad_(False)
    top = list(blocks)[-trainable_layers:]
    norm = getattr(getattr(model, "model", model), "norm", None) or getattr(getattr(model, "transformer", model), "ln_f", None)
    for module in top + ([norm] if norm is not None else []):
        for p in module.parameters():
            p.requires_grad_(True)
    return sum(p.numel() for p in params if p.requires_grad)


def _blocks(model):
    """The list of transformer blocks of a Llama-like (`model.layers`) or GPT-2-like (`transformer.h`) LM."""
    for owner, attr in (("model", "layers"), ("transformer", "h")):
        inner = getattr(model, owner, None)
        if inner is not None and isinstance(getattr(inner, attr, None), torch.nn.ModuleList):
            return getattr(inner, attr)
    return None
