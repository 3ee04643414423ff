"""`anthropic`: the Anthropic messages API (or any compatible server), with images and prompt caching."""

from __future__ import annotations

import base64
import os

import anthropic

from contracts.task import Task
from runtime.agents.base import AgentError, AgentOptions
from runtime.harness import ImagePart, Prompt
from runtime.observation import Observation

DEFAULT_MODEL = "claude-sonnet-4-5"


def to_anthropic(prompt: Prompt) -> tuple[str, list[dict]]:
    """(system, messages) for the messages API; the last block is a cache breakpoint (the prompt only grows)."""
    messages = []
    for msg in prompt.messages[1:]:
        blocks = []
        for p in msg.parts:
            if isinstance(p, ImagePart):
                data = base64.b64encode(p.data).decode()
                blocks.append({"type": "image", "source": {"type": "base64", "media_type": p.media_type, "data": data}})
            elif p.text:
                blocks.append({"type": "text", "text": p.text})
        messages.append({"role": msg.role, "content": blocks or [{"type": "text", "text": "(empty)"}]})
    if messages:
        messages[-1]["content"][-1] = {**messages[-1]["content"][-1], "cache_control": {"type": "ephemeral"}}
    return prompt.system, messages


class AnthropicAgent:
    """Asks the model for one reply per step; ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY unless given in options."""

    name = "anthropic"

    def __init__(self, options: AgentOptions):
        self.model = options.model or os.environ.get("ANTHROPIC_MODEL") or DEFAULT_MODEL
        self.options, self.vision = options, options.vision
        api_key = options.api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not api_key:
            raise ValueError("the anthropic agent needs ANTHROPIC_API_KEY (or an api_key option)")
        self._client = anthropic.Anthropic(
            base_url=options.base_url or os.environ.get("ANTHROPIC_BASE_URL"),
            api_key=api_key,
            timeout=options.timeout_s,
        )

    def reset(self, task: Task) -> None:
        pass

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        system, messages = to_anthropic(prompt)
        try:
            reply = self._client.messages.create(
                model=self.model,
                system=system,
                messages=messages,
                max_tokens=self.options.max_tokens,
            )
        except anthropic.APIError as err:
            raise AgentError(f"anthropic server at {self._client.base_url}: {err}") from err
        return "".join(block.text for block in reply.content if block.type == "text")

    def close(self) -> None:
        self._client.close()
