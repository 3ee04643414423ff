"""`openai`: any OpenAI-compatible chat-completions server (OpenAI, vLLM, SGLang, Ollama), with images."""

from __future__ import annotations

import base64
import os

import openai

from contracts.task import Task
from runtime.agents.base import AgentError, AgentOptions
from runtime.harness import ImagePart, Prompt
from runtime.observation import Observation


def to_openai(prompt: Prompt) -> list[dict]:
    """The prompt as chat-completions messages: images as base64 data URLs."""
    out = []
    for msg in prompt.messages:
        if msg.role != "user":
            out.append({"role": msg.role, "content": msg.text()})
            continue
        parts = []
        for p in msg.parts:
            if isinstance(p, ImagePart):
                url = f"data:{p.media_type};base64,{base64.b64encode(p.data).decode()}"
                parts.append({"type": "image_url", "image_url": {"url": url}})
            else:
                parts.append({"type": "text", "text": p.text})
        out.append({"role": "user", "content": parts})
    return out


class OpenAIAgent:
    """Asks the model for one reply per step; OPENAI_BASE_URL / OPENAI_API_KEY unless given in options."""

    name = "openai"

    def __init__(self, options: AgentOptions):
        self.model = options.model or os.environ.get("OPENAI_MODEL")
        if not self.model:
            raise ValueError("the openai agent needs a model: pass --model (or set OPENAI_MODEL)")
        self.options, self.vision = options, options.vision
        self._client = openai.OpenAI(
            base_url=options.base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=options.api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",  # local servers ignore it
            timeout=options.timeout_s,
        )

    def reset(self, task: Task) -> None:
        pass

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        try:
            reply = self._client.chat.completions.create(
                model=self.model,
                messages=to_openai(prompt),
                max_tokens=self.options.max_tokens,
                temperature=self.options.temperature,
            )
        except openai.APIError as err:
            raise AgentError(f"openai server at {self._client.base_url}: {err}") from err
        if not reply.choices:
            raise AgentError("openai server returned no choices")
        return reply.choices[0].message.content or ""

    def close(self) -> None:
        self._client.close()
