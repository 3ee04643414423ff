"""The frozen trunk gives the same log-probs, gradients and SFT run as the whole model, at a fraction of the work."""

from __future__ import annotations

import torch
from transformers import GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

from rl.grpo import token_logprobs
from rl.policy import freeze_below
from rl.samples import Sample
from rl.sft import sft, supervised_loss
from rl.trunk import Trunk


def _llama(seed: int = 0) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=97, hidden_size=32, intermediate_size=64, num_hidden_layers=4, num_attention_heads=4,
                         num_key_value_heads=2, max_position_embeddings=128, tie_word_embeddings=True)
    model = LlamaForCausalLM(config)
    model.eval()
    return model


def _samples(n: int = 3, seed: int = 1) -> list[Sample]:
    g = torch.Generator().manual_seed(seed)
    out = []
    for i in range(n):
        length = 20 + 7 * i
        ids = tuple(int(x) for x in torch.randint(3, 97, (length,), generator=g))
        mask = tuple(1 if k >= length - 5 or 8 <= k < 11 else 0 for k in range(length))
        out.append(Sample(ids, mask, (0.0,) * length, (0,), 0))
    return out


def test_log_probs_and_gradients_match_the_whole_model():
    model = _llama()
    freeze_below(model, 2)
    trunk = Trunk.of(model)
    assert trunk is not None and trunk.first == 2
    s = _samples(1)[0]
    ids, mask = torch.tensor([s.input_ids]), torch.tensor([s.loss_mask])
    whole = token_logprobs(model, ids, torch.ones_like(ids), mask)
    (-(whole * mask).sum()).backward()
    grads = {n: p.grad.clone() for n, p in model.named_parameters() if p.requires_grad}
    model.zero_grad()
    kept = trunk.logprobs(s.input_ids, s.loss_mask)
    assert torch.allclose(whole, kept, atol=1e-5)
    assert bool((kept != 0).sum() == int(mask[0, 1:].sum()))  # log-probs exactly at the trained tokens
    (-(kept * mask).sum()).backward()
    for name, g in grads.items():
        assert torch.allclose(g, model.get_parameter(name).grad, atol=1e-5), name
    assert len(trunk) == 1 and trunk.bytes == len(s) * 32 * 4
    # the blocks are the model's own again afterwards
    assert len(model.model.layers) == 4 and not isinstance(model.model.norm, torch.nn.Identity)


def test_an_sft_run_from_the_trunk_is_the_same_run():
    samples = _samples(4)
    runs = []
    for use in (False, True):
        model = _llama()
        freeze_below(model, 1)
        trunk = Trunk.of(model) if use else None
        before = supervised_loss(model, samples, 0, micro_batch=1, trunk=trunk)
        history = sft(model, samples, 0, epochs=3, lr=1e-2, batch_size=2, micro_batch=1, seed=0, trunk=trunk)
        runs.append((before, [h["loss"] for h in history], supervised_loss(model, samples, 0, micro_batch=1, trunk=trunk)))
        if use:
            assert len(trunk) == len(samples)  # every sample's trunk ran once and was kept
    (b0, h0, a0), (b1, h1, a1) = runs
    assert abs(b0 - b1) < 1e-4 and abs(a0 - a1) < 1e-3
    assert all(abs(x - y) < 1e-3 for x, y in zip(h0, h1))
    assert a1 < b1 - 0.1  # and it learned


def test_budget_keeps_nothing_past_it_and_results_do_not_change():
    model = _llama()
    freeze_below(model, 2)
    s = _samples(1)[0]
    kept = Trunk.of(model).logprobs(s.input_ids, s.loss_mask)
    trunk = Trunk.of(model, budget=0)
    assert torch.allclose(trunk.logprobs(s.input_ids, s.loss_mask), kept) and len(trunk) == 0 and trunk.bytes == 0


def test_no_trunk_where_nothing_below_is_frozen_or_the_model_is_not_llama_like():
    model = _llama()
    freeze_below(model, 0)  # all weights train
    assert Trunk.of(model) is None
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=50, n_positions=64, n_embd=16, n_layer=2, n_head=2))
    freeze_below(gpt2, 1)
    assert Trunk.of(gpt2) is None
