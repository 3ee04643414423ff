"""`policy`: a local transformers causal LM as an agent, recording the log-prob of every token it samples.

The harness builds the prompt; this agent renders it to ids (rl.chat), samples a reply with
temperature, and keeps per step the prompt ids, the sampled ids and their log-probs under the
sampling distribution: the trainer's logp_old, and the other side of the k3 check.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from contracts.task import Task
from runtime.actions import ActionParseError, format_action, parse_action
from runtime.agents.base import AgentFailed, AgentOptions
from runtime.harness import Prompt
from runtime.observation import Observation

from .chat import ChatFormat, common_prefix
from .models import REFERENCE_SFT, check_policy, resolve_policy
from .policy import PolicyError, load_policy

MAX_NEW_TOKENS = 48  # replies are one action line; longer generations only burn CPU
_LOADING = threading.Lock()  # transformers' from_pretrained is not thread-safe (its meta-device init is global)
THREADS = torch.get_num_threads()  # the process's own count (torch's default, or OMP_NUM_THREADS), read at import
HAS_BF16 = "avx512_bf16" in (open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else "")


class Cores:
    """The gate of forward passes on one shared model: one pass per core at once, each on one thread.

    Token-by-token decoding is a chain of small matmuls. Several attempts share one model; when they took
    turns through a lock, one core decoded while the other waited. Side by side on one thread each, two
    attempts use both cores. A pass alone on an idle machine gets every core. With a second thread
    spin-waiting for a core that Chromium or an app server holds, a token took 1.6 s instead of 0.3 s here
    (load 5 on 2 cores), so a busy machine gets one thread a pass.
    """

    def __init__(self, cores: int | None = None):
        self.cores = cores or os.cpu_count() or 1
        self._slots = threading.Semaphore(self.cores)
        self._count = threading.Lock()
        self.active = 0

    @contextmanager
    def use(self):
        """Hold a slot for one pass, with torch's threads set for it and put back to THREADS when it ends, in the same thread.

        torch's thread count belongs to the thread that sets it, and the last count set is also the default of
        every thread that starts using torch later. When the last pass to end put back a count that another
        pass's thread had read while set to 1, that 1 became the default of the trainer's main thread, and SFT
        after an evaluation ran on one core.
        """
        self._slots.acquire()
        with self._count:
            self.active += 1
            alone = self.active == 1 and os.getloadavg()[0] < self.cores
        torch.set_num_threads(self.cores if alone else 1)
        try:
            yield
        finally:
            torch.set_num_threads(THREADS)
            with self._count:
                self.active -= 1
            self._slots.release()


class SharedPrefix:
    """Keys and values of the prompt start that every attempt of a loaded model shares, computed once.

    In the compact view every task's system message begins with the same text (the action space) and
    ends with its task; an attempt's first prefill starts from a copy of these keys and values, cut to
    the tokens its prompt has in common with them. Only for weights that do not change (a model loaded
    from a folder): the trainer's own agents have none. Kept apart per precision (bfloat16 autocast or not),
    so a cached start gives the numbers a cold prefill would.
    """

    least = 16  # tokens in common below which a copy is not worth it

    def __init__(self):
        self._lock = threading.Lock()
        self._entries: dict[bool, tuple[list[int], object]] = {}  # bfloat16? -> (ids, their cache)

    def take(self, ids: list[int], bf16: bool):
        """(a copy of the cache cut to its common prefix with `ids`, that length), or (None, 0)."""
        with self._lock:
            entry = self._entries.get(bf16)
        if entry is None:
            return None, 0
        cached, cache = entry
        common = min(common_prefix(cached, ids), len(ids) - 1)
        if common < self.least:
            return None, 0
        mine = copy.deepcopy(cache)
        mine.crop(common - len(cached))
        return mine, common

    def keep(self, ids: list[int], cache, length: int, bf16: bool) -> None:
        """Keep the first `length` of `ids` with their keys and values from `cache` (which covers all of `ids`), once."""
        with self._lock:
            if bf16 in self._entries or length < self.least or not hasattr(cache, "crop"):
                return
            mine = copy.deepcopy(cache)
            mine.crop(length - cache.get_seq_length())
            self._entries[bf16] = (list(ids[:length]), mine)


GENERATION = {"prompt_tokens": 0, "generated_tokens": 0, "seconds": 0.0}  # this process's inference, for tokens/s reports
_LOADED: dict[tuple[str, int], tuple] = {}  # (model folder, its weights' mtime) -> (model, tokenizer, Cores, SharedPrefix)
_KEEP = 2  # models held at once (the policy being evaluated and the reference, say); older ones are let go


def _shared(name: str):
    """The (model, tokenizer, Cores gate, SharedPrefix) of a saved or registered model, loaded once per process and shared by every agent.

    A rollout builds one agent per attempt; loading the weights each time would cost more than the attempt.
    A folder saved again (a checkpoint rewritten in place) is loaded again. Forward passes on the shared
    model go through its `Cores` gate: as many at once as there are cores.
    """
    with _LOADING:
        try:
            folder = resolve_policy(name)
        except PolicyError as err:
            raise ValueError(str(err)) from None
        stamp = max((f.stat().st_mtime_ns for f in folder.iterdir() if f.is_file()), default=0)
        key = (str(folder.resolve()), stamp)
        if key not in _LOADED:
            try:
                model, tokenizer = load_policy(folder)
            except PolicyError as err:
                raise ValueError(str(err)) from None
            model.eval()
            while len(_LOADED) >= _KEEP:
                _LOADED.pop(next(iter(_LOADED)))
            _LOADED[key] = (model, tokenizer, Cores(), SharedPrefix())
        return _LOADED[key]


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
        if not options.model:
            raise ValueError("the policy agent needs --model PATH (a folder with a saved causal LM) or a registered model name")
        try:
            check_policy(options.model)  # fail now on a bad name or folder; the weights load at the first attempt
        except PolicyError as err:
            raise ValueError(str(err)) from None
        self.model, self._options = options.model, options
        self.lm = None
        self.steps = []

    def _load(self) -> None:
        if self.lm is None:
            o = self._options
            model, tokenizer, lock, prefix = _shared(o.model)
            self._setup(model, tokenizer, o.model, o.temperature, min(o.max_tokens, MAX_NEW_TOKENS), o.seed, lock, prefix)

    @classmethod
    def from_model(
        cls, model, tokenizer, *, temperature: float = 1.0, max_new_tokens: int = MAX_NEW_TOKENS, seed: int = 0,
        name: str = "in-memory", lock: Cores | None = None,
    ) -> "PolicyAgent":
        """An agent over a model already in memory (the trainer's), sharing its weights."""
        agent = cls.__new__(cls)
        agent.patience = None
        agent._setup(model, tokenizer, name, temperature, max_new_tokens, seed, lock)
        return agent

    def _setup(self, model, tokenizer, name, temperature, max_new_tokens, seed, lock=None, prefix: SharedPrefix | None = None) -> None:
        self.lm, self.tokenizer, self.chat = model, tokenizer, ChatFormat(tokenizer)
        self.model = name  # the Agent protocol's model name, recorded in the trajectory store
        self.temperature, self.max_new_tokens, self.seed = float(temperature), int(max_new_tokens), int(seed)
        cfg = model.config
        self.context = int(getattr(cfg, "n_positions", None) or getattr(cfg, "max_position_embeddings", None) or 2048)
        self.steps: list[SampledStep] = []
        self._lock = lock or Cores()  # forward passes of agents sharing one model across threads
        self._gen = torch.Generator().manual_seed(self.seed)
        self._kv: tuple[list[int], object] | None = None  # (ids whose keys/values the cache holds, the cache)
        self._prefix = prefix  # the system message's keys and values, shared by the attempts of a loaded model
        self.prefilled = 0  # prompt tokens run through the model (the rest came from the cache)
        self._misses = 0  # replies in a row that were no action

    def reset(self, task: Task) -> None:
        self._load()
        self.steps = []
        self._kv = None
        self._misses = 0
        digest = int.from_bytes(hashlib.sha256(f"{self.seed}:{task.id}".encode()).digest()[:8], "big")
        self._gen = torch.Generator().manual_seed(digest)

    def sampled(self) -> dict[str, tuple[int, ...]]:
        """Output text -> the ids sampled for it, to render earlier replies exactly as generated."""
        return {s.text: s.output_ids for s in self.steps}

    patience: int | None = 3  # replies in a row that are no action before the agent gives up (a model that cannot act is
    #                           stuck); None for the trainer's own agents, whose every reply is a training sample

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        step = self.sample(prompt)
        _check_formattable(step.text)
        self.steps.append(step)
        self._misses = 0 if _parses(step.text) else self._misses + 1
        if self.patience is not None and self._misses >= self.patience:
            raise AgentFailed(f"{self.patience} replies in a row were not actions; the last: {step.text.strip()[:80]!r}")
        return step.text

    def sample(self, prompt: Prompt) -> SampledStep:
        """One reply to `prompt` with its ids and log-probs, not recorded (single-turn use, benchmarks)."""
        self._load()
        ids = self.chat.generation_prompt(prompt, self.sampled())
        if len(ids) + self.max_new_tokens > self.context:
            raise AgentFailed(f"prompt of {len(ids)} tokens + {self.max_new_tokens} new does not fit the context of {self.context}")
        first = self._kv is None
        out, logps = self._generate(ids)
        if first and self._prefix is not None and self._kv is not None:
            self._prefix.keep(self._kv[0], self._kv[1], len(self.chat.encode(prompt.messages[:1]).ids), self._bf16())
        return SampledStep(tuple(ids), tuple(out), tuple(logps), self.chat.decode(out))

    def close(self) -> None:
        self.steps = []
        self._kv = None  # the weights stay shared in the process (rl.agent._shared)

    bf16 = False  # generate under bfloat16 autocast (about 2x faster on a CPU with AVX512-BF16; log-probs then differ
    #               slightly from a float32 trainer's, which k3 shows: the trainer's own agents keep float32)

    def _bf16(self) -> bool:
        return self.bf16 and HAS_BF16

    @torch.no_grad()
    def _generate(self, ids: list[int]) -> tuple[list[int], list[float]]:
        started, prefilled = time.monotonic(), self.prefilled
        with self._lock.use(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=self._bf16()):
            out = self._sample(ids)
        GENERATION["prompt_tokens"] += self.prefilled - prefilled
        GENERATION["generated_tokens"] += len(out[0])
        GENERATION["seconds"] += time.monotonic() - started
        return out

    def _sample(self, ids: list[int]) -> tuple[list[int], list[float]]:
        model = self.lm
        was_training = model.training
        model.eval()
        try:
            cache_arg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
            cache, start = self._reuse(ids)
            fresh = torch.tensor([ids[start:]])
            self.prefilled += fresh.shape[1]
            extra = {cache_arg: cache} if cache is not None else {}
            step = model(input_ids=fresh, use_cache=True, **extra)
            fed = list(ids)
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
                if tok == self.chat.eos or len(tokens) == self.max_new_tokens:
                    break
                cache = getattr(step, "cache", None) or step.past_key_values
                step = model(input_ids=torch.tensor([[tok]]), use_cache=True, **{cache_arg: cache})
                fed.append(tok)
            self._kv = (fed, getattr(step, "cache", None) or step.past_key_values)
            return tokens, logps
        finally:
            model.train(was_training)

    def _reuse(self, ids: list[int]):
        """(cache, position) to continue from: the previous step's cache cut to its common prefix with `ids`.

        Inside a history window each prompt extends the previous prompt and reply, so only the new
        observation is prefilled; at a window boundary the prefix shrinks to the system message.
        """
        if self._kv is None:
            return self._prefix.take(ids, self._bf16()) if self._prefix is not None else (None, 0)
        cached, cache = self._kv
        self._kv = None
        common = min(common_prefix(cached, ids), len(ids) - 1)  # at least one token to feed, whose logits start the reply
        if common <= 0 or not hasattr(cache, "crop") or cache.get_seq_length() != len(cached):
            return None, 0
        cache.crop(common - len(cached))  # transformers 5: a negative count of tokens to drop (0 drops none)
        return cache, common


def _parses(text: str) -> bool:
    try:
        parse_action(text)
    except ActionParseError:
        return False
    return True


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


class ReferenceAgent(PolicyAgent):
    """The project's reference policy, greedy unless a temperature is given: by default the shipped adapter
    `smollm2-135m-sft` (SmolLM2-135M-Instruct from its wheel with its top blocks trained on the factory's demonstrations,
    rl.models); `--model smollm2-135m` runs the zero-shot base, `--model` any other saved or registered model.

    The agent whose pass@k measures each family's difficulty.
    """

    name = "reference"
    bf16 = True
    max_reply = 32  # tokens: an action line, a fill's text included; a zero-shot model that chats is cut there

    def __init__(self, options: AgentOptions):
        update = {"max_tokens": min(options.max_tokens, self.max_reply)} | ({} if options.model else {"model": REFERENCE_SFT})
        super().__init__(options.model_copy(update=update))
