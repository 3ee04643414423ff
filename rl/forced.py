"""Teacher-forced step scores: would the policy, greedy, write the golden action at each step of a golden run?

A task either succeeds or not, and on an app the policy never saw a small model's success stays at 0 long after it
has started to learn something that transfers: an attempt of 6 steps needs about 6 right steps in a row. Scoring
each step of a golden demonstration on its own, with the golden history in the prompt (as web-agent benchmarks score
step accuracy), shows that learning. One forward pass over a window's sample (the same ids SFT trains on) gives every
new step's scores at once:

- `action`: the greedy reply is the golden action token for token, end of reply included;
- `element`: it starts as the golden does up to the end of the first argument (the action and the element it acts on,
  or the key, or the answer);
- `kind`: it starts with the golden's action name and its parenthesis;
- `nll`: the golden action's negative log-likelihood, per token.

Greedy decoding writes the golden's first k tokens exactly when each of them is the most likely token after the ones
before it, so these are what greedy sampling would write, without sampling.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass
from typing import Sequence

import torch

from runtime.actions import STOP
from runtime.harness import View

from .chat import ChatFormat
from .demos import Demo
from .samples import window_samples
from .trunk import Trunk


@dataclass(frozen=True)
class StepScore:
    """One golden step, scored teacher-forced."""

    task_id: str
    step: int
    golden: str
    action: bool
    element: bool
    kind: bool
    nll: float  # per token of the golden action, end of reply included
    tokens: int
    predicted: str  # the greedy tokens at the golden's positions, decoded (what the policy would have written next, token by token)
    fits: bool = True  # False: the prompt is longer than the model's context, so the agent could not act here (a miss; no NLL)

    @property
    def stop(self) -> bool:
        return self.golden == STOP


def argument_end(action: str) -> int:
    """Characters of `action` up to the end of its first argument (`fill('Search', 'x')` -> len("fill('Search'")); the
    whole text when it has none."""
    open_ = action.find("(")
    if open_ < 0:
        return len(action)
    i = open_ + 1
    while i < len(action) and action[i] == " ":
        i += 1
    if i < len(action) and action[i] in "'\"":
        quote, i = action[i], i + 1
        while i < len(action) and action[i] != quote:
            i += 2 if action[i] == "\\" else 1
        return min(i + 1, len(action))
    while i < len(action) and action[i] not in ",)":
        i += 1
    return i


def _prefix_tokens(tokenizer, ids: Sequence[int], chars: int) -> int:
    """The fewest of `ids` whose decoded text covers the first `chars` characters."""
    for k in range(1, len(ids) + 1):
        if len(tokenizer.decode(ids[:k], skip_special_tokens=True)) >= chars:
            return k
    return len(ids)


class SharedTrunk:
    """The hidden states below a model's top `trained` blocks, kept across the models that share those lower blocks.

    Checkpoints fine-tuned above a frozen trunk (`--trainable-layers 4`: 26 of the reference model's 30 blocks) and
    their base compute the same hidden states below the trained blocks, so scoring several of them on the same
    golden steps runs the trunk once per sample and, for each model, its top blocks alone (rl.trunk). A model is
    matched by a digest of its embeddings and lower blocks; a model that differs there starts a new store.
    """

    def __init__(self, trained: int, bf16: bool = False, budget: int = 4 << 30):
        self.trained, self.bf16, self.budget = trained, bf16, budget
        self.digest: str | None = None
        self.kept: dict[tuple[int, ...], torch.Tensor] = {}

    def for_model(self, model) -> Trunk | None:
        """A trunk of `model` over the kept hidden states, or None where the model has no Llama-like blocks to split."""
        inner = getattr(model, "model", None)
        layers = getattr(inner, "layers", None)
        if not self.trained or not isinstance(layers, torch.nn.ModuleList) or not 0 < self.trained < len(layers) \
                or not hasattr(inner, "embed_tokens") or not hasattr(inner, "norm"):
            return None
        first = len(layers) - self.trained
        digest = _digest([inner.embed_tokens, *layers[:first]])
        if digest != self.digest:
            self.digest, self.kept = digest, {}
        return Trunk(model, first, self.bf16, self.budget, kept=self.kept)


def _digest(modules) -> str:
    h = hashlib.sha256()
    for module in modules:
        for p in module.parameters():
            h.update(p.detach().to(torch.float32).contiguous().numpy().tobytes())
    return h.hexdigest()


def _forward(model, ids: Sequence[int], positions: list[int], bf16: bool, trunk: Trunk | None = None) -> torch.Tensor:
    """Log-probabilities over the vocabulary at `positions` (each predicts the token after it)."""
    x = torch.tensor([list(ids)])
    keep = torch.tensor(positions)
    if trunk is not None:
        return torch.log_softmax(trunk.logits(tuple(ids), keep).float(), dim=-1)
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        try:
            logits = model(input_ids=x, logits_to_keep=keep).logits[0]
        except TypeError:  # a model class without logits_to_keep
            logits = model(input_ids=x).logits[0, keep]
    return torch.log_softmax(logits.float(), dim=-1)


def score_steps(model, tokenizer, demos: Sequence[Demo], *, view: View = "compact", max_steps: int | None = None,
                bf16: bool = False, shared: SharedTrunk | None = None) -> list[StepScore]:
    """Every step of every demonstration (its first `max_steps`, the steps an attempt is given), scored teacher-forced.

    `bf16`: under bfloat16 autocast, as the reference agent generates (rl.agent.ReferenceAgent), so that the scores are
    its greedy choices. `shared`: run the lower blocks once for every model scored with it (the scores agree with
    the whole model's to within bfloat16 rounding)."""
    chat = ChatFormat(tokenizer)
    cfg = model.config
    context = int(getattr(cfg, "n_positions", None) or getattr(cfg, "max_position_embeddings", None) or 2048)
    trunk = shared.for_model(model) if shared is not None else None
    was_training = model.training
    model.eval()
    out: list[StepScore] = []
    try:
        for demo in demos:
            turns = demo.turns[:max_steps] if max_steps else demo.turns
            for sample in window_samples(demo.task.instruction, turns, chat, form_factor=demo.task.form_factor, view=view):
                spans = sample.spans()
                if len(spans) != len(sample.steps):
                    raise ValueError(f"{demo.task.id}: {len(spans)} trained outputs for new steps {sample.steps}")
                if len(sample) > context:
                    out += [StepScore(demo.task.id, step, turns[step].output, False, False, False, 0.0, b - a, "", fits=False)
                            for (a, b), step in zip(spans, sample.steps)]
                    continue
                positions = [p for a, b in spans for p in range(a - 1, b - 1)]
                logp = _forward(model, sample.input_ids, positions, bf16, trunk)
                row = 0
                for (a, b), step in zip(spans, sample.steps):
                    golden = list(sample.input_ids[a:b])
                    lp = logp[row : row + len(golden)]
                    row += len(golden)
                    pred = lp.argmax(dim=-1).tolist()
                    hit = [p == g for p, g in zip(pred, golden)]
                    text = turns[step].output
                    kind_k = _prefix_tokens(tokenizer, golden, text.find("(") + 1)
                    element_k = _prefix_tokens(tokenizer, golden, argument_end(text))
                    nll = -float(lp[torch.arange(len(golden)), torch.tensor(golden)].sum())
                    out.append(StepScore(task_id=demo.task.id, step=step, golden=text, action=all(hit), element=all(hit[:element_k]),
                                         kind=all(hit[:kind_k]), nll=nll / len(golden), tokens=len(golden),
                                         predicted=tokenizer.decode(pred, skip_special_tokens=True)))
    finally:
        model.train(was_training)
    return out


def summarize(scores: Sequence[StepScore], seed: int = 0, runs: int = 2000) -> dict:
    """Rates of `action`, `element` and `kind` over the steps that act (the stop steps apart; a step whose prompt does not
    fit the context is a miss), with 95% intervals that resample whole demonstrations (a task's steps are not
    independent); the stop steps' `action` rate; mean NLL over the steps that fit."""
    acting = [s for s in scores if not s.stop]
    stops = [s for s in scores if s.stop]
    by_task: dict[str, list[StepScore]] = {}
    for s in acting:
        by_task.setdefault(s.task_id, []).append(s)
    groups = list(by_task.values())
    rng = random.Random(seed)
    fit = [s for s in acting if s.fits]
    out: dict = {"steps": len(acting), "tasks": len(groups), "stop_steps": len(stops), "too_long": len(acting) - len(fit),
                 "stop": sum(s.action for s in stops) / max(1, len(stops)),
                 "nll": sum(s.nll for s in fit) / max(1, len(fit))}
    by_kind: dict[str, list[int]] = {}
    for s in scores:
        k = by_kind.setdefault("stop" if s.stop else s.golden.split("(")[0], [0, 0, 0])
        k[0], k[1], k[2] = k[0] + 1, k[1] + s.element, k[2] + s.action
    out["by_kind"] = dict(sorted(by_kind.items()))  # the golden's action -> [steps, element right, action right]
    for key in ("action", "element", "kind"):
        hits = [(sum(getattr(s, key) for s in g), len(g)) for g in groups]
        rate = sum(h for h, _ in hits) / max(1, sum(n for _, n in hits))
        draws = []
        for _ in range(runs if hits else 0):
            picked = rng.choices(hits, k=len(hits))
            draws.append(sum(h for h, _ in picked) / max(1, sum(n for _, n in picked)))
        draws.sort()
        out[key] = rate
        out[f"{key}_ci"] = (draws[int(0.025 * runs)], draws[int(0.975 * runs) - 1]) if draws else (0.0, 0.0)
    return out


def paired(before: Sequence[StepScore], after: Sequence[StepScore], key: str = "action", seed: int = 0,
           runs: int = 2000) -> dict:
    """`after`'s rate of `key` minus `before`'s, over the acting steps both scored (the same golden steps), with a 95%
    interval that resamples whole instances: tighter than comparing two separate intervals, since each step is its own
    control."""
    mine = {(s.task_id, s.step): s for s in before if not s.stop}
    pairs: dict[str, list[float]] = {}
    for s in after:
        if not s.stop and (s.task_id, s.step) in mine:
            pairs.setdefault(s.task_id, []).append(float(getattr(s, key)) - float(getattr(mine[(s.task_id, s.step)], key)))
    groups = list(pairs.values())

    def mean(gs) -> float:
        return sum(sum(g) for g in gs) / max(1, sum(len(g) for g in gs))

    rng = random.Random(seed)
    draws = sorted(mean(rng.choices(groups, k=len(groups))) for _ in range(runs if groups else 0))
    ci = (draws[int(0.025 * runs)], draws[int(0.975 * runs) - 1]) if draws else (0.0, 0.0)
    return {"key": key, "steps": sum(map(len, groups)), "difference": mean(groups), "ci": ci}


def as_rows(scores: Sequence[StepScore]) -> list[dict]:
    return [asdict(s) for s in scores]


def from_rows(rows: Sequence[dict]) -> list[StepScore]:
    return [StepScore(**r) for r in rows]


__all__ = ["SharedTrunk", "StepScore", "argument_end", "as_rows", "from_rows", "paired", "score_steps", "summarize"]
