"""`openai`: any OpenAI-compatible chat-completions server (OpenAI, vLLM, SGLang, Ollama) via the official SDK."""

from __future__ import annotations

import os

import openai

from factory.providers._retry import BadReply, call_with_retries
from factory.providers.base import Messages, Provider, ProviderError, TemplateRef, as_messages


class OpenAIProvider(Provider):
    """Chat completions; OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL unless given."""

    name = "openai"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        retries: int = 3,
        backoff_s: float = 1.0,
        max_tokens: int = 4096,
        temperature: float = 0.0,
    ):
        self.model = model or os.environ.get("OPENAI_MODEL") or "gpt-4o-mini"
        self.retries, self.backoff_s = retries, backoff_s
        self.max_tokens, self.temperature = max_tokens, temperature
        self._client = openai.OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",  # local servers ignore it
            timeout=timeout_s,
            max_retries=0,  # retries are ours: bounded, and visible in the ProviderError
        )

    def generate(self, messages: Messages, *, template: TemplateRef | None = None) -> str:
        payload = [{"role": m.role, "content": m.content} for m in as_messages(messages)]
        text = call_with_retries(
            self.name,
            lambda: self._client.chat.completions.create(
                model=self.model, messages=payload, max_tokens=self.max_tokens, temperature=self.temperature
            ),
            read=_text,
            timeout_error=openai.APITimeoutError,
            connection_error=openai.APIConnectionError,
            status_error=openai.APIStatusError,
            retries=self.retries,
            backoff_s=self.backoff_s,
        )
        if text is None:
            raise ProviderError(self.name, "empty_reply", f"model {self.model} returned no text")
        return text

    def close(self) -> None:
        self._client.close()


def _text(reply) -> str | None:
    """The first choice's text (None when the model wrote none); BadReply when the reply has the wrong shape."""
    choices = getattr(reply, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise BadReply(f"a chat completion without a list of choices: {str(reply)[:200]}")
    content = getattr(getattr(choices[0], "message", None), "content", None)
    if content is not None and not isinstance(content, str):
        raise BadReply(f"a choice whose message content is not text: {str(choices[0])[:200]}")
    return content
