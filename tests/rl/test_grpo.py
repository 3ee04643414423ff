"""GRPO in the style of TRL's tests: real tiny model, real steps, assertions that can fail."""

from __future__ import annotations

import pytest
import torch

from rl.grpo import clipped_objective, group_advantages, k3, token_logprobs
from rl.policy import build_tiny_policy, load_policy
from rl.sampler import TaskSampler
from rl.update import Batch, grpo_update

CORPUS = [
    '[1] link "Inbox"\n[2] button "Compose"\n[3] textbox "To"\nclick(2)',
    'fill(3, "priya.shah@northwind.example")\npress("Enter")\nanswer("done")',
    'heading "Invoice INV-2041" level=1\ntext "Amount due: $1,240.00"\nscroll(0, 400)',
] * 40


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = build_tiny_policy(tmp_path_factory.mktemp("policy"), CORPUS, vocab_size=400, n_positions=256)
    return load_policy(path)


def test_advantages_are_zero_for_equal_rewards_and_normalised_otherwise():
    adv = group_advantages(torch.tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]]))
    assert torch.all(adv[0] == 0)
    assert torch.allclose(adv[1], torch.tensor([-1.0, 1.0, -1.0, 1.0]), atol=1e-3)
    assert abs(float(adv[1].mean())) < 1e-6


def test_k3_is_zero_for_identical_logprobs_and_positive_otherwise():
    lp = torch.log(torch.tensor([[0.5, 0.25, 0.125]]))
    mask = torch.ones_like(lp)
    assert float(k3(lp, lp, mask)) == pytest.approx(0.0, abs=1e-7)
    assert float(k3(lp - 0.3, lp, mask)) > 0.01


def test_clipped_objective_clips_large_ratios():
    logp_old = torch.zeros(1, 4)
    logp = torch.full((1, 4), 1.0)  # ratio e ~ 2.7, beyond 1 + 0.2
    loss, stats = clipped_objective(logp, logp_old, torch.tensor([1.0]), torch.ones(1, 4), clip_eps=0.2)
    assert float(loss) == pytest.approx(-1.2, abs=1e-5) and stats["clip_frac"] == 1.0


def _batch(model, tokenizer, advantages):
    texts = ["click(2)", "answer(\"done\")", "fill(3, \"x\")", "scroll(0, 400)"]
    enc = tokenizer(texts, return_tensors="pt", padding=True)
    with torch.no_grad():
        old = token_logprobs(model, enc.input_ids, enc.attention_mask)
    loss_mask = enc.attention_mask.clone()
    loss_mask[:, 0] = 0
    return Batch(enc.input_ids, enc.attention_mask, loss_mask, torch.tensor(advantages), old)


def test_a_few_grpo_steps_change_every_trainable_parameter(tiny):
    model, tokenizer = tiny
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.0)
    for _ in range(3):
        stats = grpo_update(model, opt, _batch(model, tokenizer, [1.0, -1.0, 0.5, -0.5]))
    assert stats["trained_tokens"] > 0 and stats["k3_rollout"] >= 0
    unchanged = [n for n, p in model.named_parameters() if p.requires_grad and torch.equal(p, before[n])]
    assert unchanged == []


def test_zero_advantages_leave_the_policy_unchanged(tiny):
    model, tokenizer = tiny
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    grpo_update(model, opt, _batch(model, tokenizer, [0.0, 0.0, 0.0, 0.0]))
    assert all(torch.equal(p, before[n]) for n, p in model.named_parameters())


def test_sampler_budgets_follow_the_success_estimate():
    s = TaskSampler(group_size=8)
    assert s.budget("unseen") == 8
    s.update("never", [False] * 8)
    s.update("sometimes", [True, False, False, True])
    s.update("mastered", [True] * 9 + [False])
    assert (s.budget("never"), s.budget("sometimes"), s.budget("mastered")) == (4, 8, 2)
    s.update("mastered", [False] * 10)  # drops to 0.45: a full group again
    assert s.budget("mastered") == 8
    restored = TaskSampler(group_size=8)
    restored.load_state(s.state())
    assert restored.budget("never") == 4
    picks = s.sample(["a", "b", "c"], 5)
    assert len(picks) == 5 and {t for t, _ in picks} == {"a", "b", "c"}


def test_logprobs_of_the_masked_tokens_alone_equal_the_full_ones_and_carry_gradients(tiny):
    model, _ = tiny
    model.eval()  # no dropout: the two passes must see the same network
    ids = torch.randint(5, 200, (2, 40))
    attn = torch.ones_like(ids)
    mask = torch.zeros_like(ids)
    mask[0, 30:35] = 1
    mask[1, 10:12] = 1
    full = token_logprobs(model, ids, attn)
    kept = token_logprobs(model, ids, attn, mask)
    assert torch.allclose(full * mask, kept * mask, atol=1e-5)
    assert float((kept.detach() * (1 - mask))[:, :10].abs().sum()) == 0.0  # positions masked in no row are never scored
    (kept * mask).sum().backward()
    assert any(p.grad is not None and float(p.grad.abs().sum()) > 0 for p in model.parameters())
    model.zero_grad(set_to_none=True)
