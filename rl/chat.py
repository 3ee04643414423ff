"""Harness prompts as token ids for a local causal LM, built so that sampling and training see the same ids.

Each message is encoded on its own (a role header + text), and an assistant message is its
header followed by the exact ids the policy sampled for it (or, for a demonstration, the encoded
text plus end-of-sequence). A tokenizer with ChatML tokens (`<|im_start|>`, as the reference model
SmolLM2-Instruct has) gets the framing it was instruction-tuned on; others get `<|role|>` headers. Concatenating per-message ids, instead of tokenizing one long string,
is what makes a training sample's tokens equal the prompt the agent saw plus its outputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from runtime.harness import Message, Prompt


_INSTANCE_ORIGIN = re.compile(r"https?://[^/\s]+/i/[0-9a-f]{16,}")


def strip_instance(text: str) -> str:
    """Drop the origin and random instance id from app URLs (`http://127.0.0.1:PORT/i/<id>/note/3` -> `/note/3`).

    They carry no task information, and a tiny model trained on a few dozen demonstrations otherwise
    reacts to the random hex in every prompt (same weights, same seed: 7/8 vs 1/8 successes).
    """
    return _INSTANCE_ORIGIN.sub("", text)


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many ids `a` and `b` share from their start: what a key-value cache of `a` saves when `b` is prefilled."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass
class Encoded:
    """A conversation as ids, with the span of each assistant output (the ids after its header)."""

    ids: list[int]
    outputs: list[tuple[int, int]] = field(default_factory=list)  # [start, end) of each assistant message, in order
    train: list[bool] = field(default_factory=list)  # the assistant message's `train` flag, in order


class ChatFormat:
    """Renders harness messages into ids with a fixed, tokenizer-independent text template."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.eos = tokenizer.eos_token_id
        self.chatml = "<|im_start|>" in tokenizer.get_vocab() and tokenizer.eos_token == "<|im_end|>"
        # ChatML opens with the first message's header; the <|role|> format with the tokenizer's bos, if any
        self.bos = [] if self.chatml or tokenizer.bos_token_id is None else [tokenizer.bos_token_id]
        self._cache: dict[tuple[str, str], list[int]] = {}
        self._sep = self.encode_text("\n") if self.chatml else []  # after an assistant's <|im_end|>

    def encode_text(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def header(self, role: str) -> list[int]:
        return self._chunk("header", f"<|im_start|>{role}\n" if self.chatml else f"<|{role}|>\n")

    def _message(self, role: str, text: str) -> list[int]:
        body = strip_instance(text)
        return self._chunk(role, f"<|im_start|>{role}\n{body}<|im_end|>\n" if self.chatml else f"<|{role}|>\n{body}\n")

    def output_ids(self, text: str) -> list[int]:
        """Ids of an output not sampled by the policy (a demonstration): its text, then end-of-sequence."""
        return self.encode_text(text) + [self.eos]

    def encode(self, messages: Sequence[Message], sampled: Mapping[str, Sequence[int]] | None = None) -> Encoded:
        """All messages as ids; an assistant text found in `sampled` uses those ids (what the policy generated)."""
        sampled = sampled or {}
        out = Encoded(ids=list(self.bos))
        for msg in messages:
            if msg.role == "assistant":
                out.ids += self.header("assistant")
                text = msg.text()
                body = list(sampled[text]) if text in sampled else self.output_ids(text)
                out.outputs.append((len(out.ids), len(out.ids) + len(body)))
                out.train.append(msg.train)
                out.ids += body + self._sep
            else:
                out.ids += self._message(msg.role, msg.text())
        return out

    def generation_prompt(self, prompt: Prompt, sampled: Mapping[str, Sequence[int]] | None = None) -> list[int]:
        """Ids the model continues from to answer `prompt`: the conversation, then the assistant header."""
        return self.encode(prompt.messages, sampled).ids + self.header("assistant")

    def decode(self, ids: Sequence[int]) -> str:
        """Output text of sampled ids (end-of-sequence and other specials dropped)."""
        return self.tokenizer.decode([i for i in ids if i != self.eos], skip_special_tokens=True)

    def _chunk(self, kind: str, text: str) -> list[int]:
        key = (kind, text)
        if key not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = self.encode_text(text)
        return self._cache[key]
