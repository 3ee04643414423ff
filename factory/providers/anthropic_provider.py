"""`anthropic`: the Messages API via the official SDK (ANTHROPIC_BASE_URL works for compatible servers)."""

from __future__ import annotations

import os

import anthropic

from factory.providers._retry import BadReply, call_with_retries
from factory.providers.base import Messages, Provider, ProviderError, TemplateRef, as_messages


class AnthropicProvider(Provider):
    """Messages API; ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY and ANTHROPIC_MODEL unless given."""

    name = "anthropic"

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
    ):
        self.model = model or os.environ.get("ANTHROPIC_MODEL") or "claude-sonnet-4-5"
        self.retries, self.backoff_s = retries, backoff_s
        self.max_tokens = max_tokens  # this SDK's Messages API takes no temperature
        self._client = anthropic.Anthropic(
            base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL"),
            api_key=api_key or os.environ.get("ANTHROPIC_API_KEY") or "EMPTY",
            timeout=timeout_s,
            max_retries=0,  # retries are ours: bounded, and visible in the ProviderError
        )

    def generate(self, messages: Messages, *, template: TemplateRef | None = None) -> str:
        msgs = as_messages(messages)
        system = "\n\n".join(m.content for m in msgs if m.role == "system")
        turns = [{"role": m.role, "content": m.content} for m in msgs if m.role != "system"]
        extra = {"system": system} if system else {}
        text = call_with_retries(
            self.name,
            lambda: self._client.messages.create(
                model=self.model, messages=turns, max_tokens=self.max_tokens, **extra
            ),
            read=_text,
            timeout_error=anthropic.APITimeoutError,
            connection_error=anthropic.APIConnectionError,
            status_error=anthropic.APIStatusError,
            retries=self.retries,
            backoff_s=self.backoff_s,
        )
        if not text:
            raise ProviderError(self.name, "empty_reply", f"model {self.model} returned no text")
        return text

    def close(self) -> None:
        self._client.close()


def _text(reply) -> str:
    """The reply's text blocks joined; BadReply when it has the wrong shape."""
    content = getattr(reply, "content", None)
    if not isinstance(content, list):
        raise BadReply(f"a message without a list of content blocks: {str(reply)[:200]}")
    texts = [getattr(block, "text", None) for block in content if getattr(block, "type", None) == "text"]
    if not all(isinstance(t, str) for t in texts):
        raise BadReply(f"a text block without text: {str(content)[:200]}")
    return "".join(texts)
