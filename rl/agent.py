"""`policy`: a local transformers causal LM as an agent, recording the log-prob of every token it samples.

The harness builds the prompt; this agent renders it to ids (rl.chat), samples a reply with
temperature, and keeps per step the prompt ids, the sampled ids and their log-probs under the
sampling distribution: the trainer's logp_old, and the other side of the k3 check.
"""

from __future__ import annotations

import hashlib
import inspect
import threading
from dataclasses import dataclass

import torch

from contracts.task import Task
from runtime.actions import ActionParseError, format_action, parse_action
from runtime.agents.base import AgentFailed, AgentOptions
from runtime.harness import Prompt
from runtime.observation import Observation

from .chat import ChatFormat

MAX_NEW_TOKENS = 48  # replies are one action line; longer generations only burn CPU
_LOADING = threading.Lock()  # transformers' from_pretrained is not thread-safe (its meta-device init is global)


@dataclass(frozen=True)
class SampledStep:
    """What the policy saw and wrote at one step of an attempt."""

    prompt_ids: tuple[int, ...]
    output_ids: tuple[int, ...]
    logprobs: tuple[float, ...]  # of output_ids under the sampling distribution (temperature applied)
    text: str


class PolicyAgent:
    """Samples actions from a causal LM; `steps` holds the attempt's sampled ids and log-probs."""

    name = "policy"
    vision = False

    def __init__(self, options: AgentOptions):
        from .policy import PolicyError, load_policy

        if not options.model:
            raise ValueError("the policy agent needs --model PATH (a folder with a saved causal LM)")
        try:
            with _LOADING:
                model, tokenizer = load_policy(options.model)
        except PolicyError as err:
            raise ValueError(str(err)) from None
        self._setup(model, tokenizer, options.model, options.temperature, min(options.max_tokens, MAX_NEW_TOKENS), options.seed)

    @classmethod
    def from_model(
        cls, model, tokenizer, *, temperature: float = 1.0, max_new_tokens: int = MAX_NEW_TOKENS, seed: int = 0,
        name: str = "in-memory", lock: threading.Lock | None = None,
    ) -> "PolicyAgent":
        """An agent over a model already in memory (the trainer's), sharing its weights."""
        agent = cls.__new__(cls)
        agent._setup(model, tokenizer, name, temperature, max_new_tokens, seed, lock)
        return agent

    def _setup(self, model, tokenizer, name, temperature, max_new_tokens, seed, lock=None) -> None:
        self.lm, self.tokenizer, self.chat = model, tokenizer, ChatFormat(tokenizer)
        self.model = name  # the Agent protocol's model name, recorded in the trajectory store
        self.temperature, self.max_new_tokens, self.seed = float(temperature), int(max_new_tokens), int(seed)
        cfg = model.config
        self.context = int(getattr(cfg, "n_positions", None) or getattr(cfg, "max_position_embeddings", None) or 2048)
        self.steps: list[SampledStep] = []
        self._lock = lock  # serialises forward passes when several agents share one model across threads
        self._gen = torch.Generator().manual_seed(self.seed)

    def reset(self, task: Task) -> None:
        self.steps = []
        digest = int.from_bytes(hashlib.sha256(f"{self.seed}:{task.id}".encode()).digest()[:8], "big")
        self._gen = torch.Generator().manual_seed(digest)

    def sampled(self) -> dict[str, tuple[int, ...]]:
        """Output text -> the ids sampled for it, to render earlier replies exactly as generated."""
        return {s.text: s.output_ids for s in self.steps}

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        step = self.sample(prompt)
        _check_formattable(step.text)
        self.steps.append(step)
        return step.text

    def sample(self, prompt: Prompt) -> SampledStep:
        """One reply to `prompt` with its ids and log-probs, not recorded (single-turn use, benchmarks)."""
        ids = self.chat.generation_prompt(prompt, self.sampled())
        if len(ids) + self.max_new_tokens > self.context:
            raise AgentFailed(f"prompt of {len(ids)} tokens + {self.max_new_tokens} new does not fit the context of {self.context}")
        out, logps = self._generate(ids)
        return SampledStep(tuple(ids), tuple(out), tuple(logps), self.chat.decode(out))

    def close(self) -> None:
        self.steps = []

    @torch.no_grad()
    def _generate(self, ids: list[int]) -> tuple[list[int], list[float]]:
        if self._lock is not None:
            with self._lock:
                return self._sample(ids)
        return self._sample(ids)

    def _sample(self, ids: list[int]) -> tuple[list[int], list[float]]:
        model = self.lm
        was_training = model.training
        model.eval()
        try:
            cache_arg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
            prompt = torch.tensor([ids])
            step = model(input_ids=prompt, attention_mask=torch.ones_like(prompt), use_cache=True)
            tokens: list[int] = []
            logps: list[float] = []
            for _ in range(self.max_new_tokens):
                logits = step.logits[0, -1].float()
                if self.temperature > 0:
                    logp = torch.log_softmax(logits / self.temperature, dim=-1)
                    tok = int(torch.multinomial(logp.exp(), 1, generator=self._gen))
                else:
                    logp = torch.log_softmax(logits, dim=-1)
                    tok = int(torch.argmax(logp))
                tokens.append(tok)
                logps.append(float(logp[tok]))
                if tok == self.chat.eos:
                    break
                cache = getattr(step, "cache", None) or step.past_key_values
                step = model(input_ids=torch.tensor([[tok]]), use_cache=True, **{cache_arg: cache})
            return tokens, logps
        finally:
            model.train(was_training)


def _check_formattable(text: str) -> None:
    """End the attempt (AgentFailed) on a reply the harness would parse but cannot format, e.g. `click()`.

    runtime.actions.parse_action accepts `click()` and format_action then raises TypeError inside
    Harness.record, which would crash the whole rollout; until the parser rejects it, stop here.
    """
    try:
        action = parse_action(text)
    except ActionParseError:
        return  # ordinary parse feedback, handled by the harness
    try:
        format_action(action)
    except (TypeError, ValueError) as err:
        raise AgentFailed(f"reply {text.strip()[:80]!r} is not a complete action ({err})") from None
