"""Two small adapters behind one agent loop: OpenAI chat.completions tool calling and Anthropic messages tool use."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Protocol

from factory.providers._retry import BadReply, call_with_retries
from factory.providers.base import ProviderError

from .tools import TOOL_SPECS


@dataclass(frozen=True)
class Call:
    """One tool call as the model sent it; `arguments` is raw (a JSON string from OpenAI, a dict from Anthropic)."""

    id: str
    name: str
    arguments: str | dict | None


@dataclass(frozen=True)
class Turn:
    """One model reply: its text, its tool calls and the token usage the SDK reported."""

    text: str
    calls: tuple[Call, ...]
    usage: dict[str, int] = field(default_factory=dict)
    stop: str | None = None


class ChatAdapter(Protocol):
    """A tool-using conversation with one model; the loop never sees SDK types."""

    provider: str
    model: str

    def start(self, system: str, user: str) -> None: ...
    def step(self) -> Turn: ...
    def add_results(self, results: list[tuple[Call, str, bool]]) -> None: ...
    def add_user(self, text: str) -> None: ...
    def close(self) -> None: ...


class OpenAIChat:
    """chat.completions with `tools`; OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL unless given."""

    provider = "openai"

    def __init__(self, model: str | None = None, *, base_url: str | None = None, api_key: str | None = None,
                 max_tokens: int = 8192, timeout_s: float = 300.0, retries: int = 2):
        import openai

        self._openai = openai
        self.model = model or os.environ.get("OPENAI_MODEL") or "gpt-4o-mini"
        self.max_tokens, self.retries = max_tokens, retries
        self._client = openai.OpenAI(base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
                                     api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY", timeout=timeout_s, max_retries=0)
        self._tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"], "parameters": t["parameters"]}}
                       for t in TOOL_SPECS]
        self.messages: list[dict[str, Any]] = []

    def start(self, system: str, user: str) -> None:
        self.messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def step(self) -> Turn:
        oa = self._openai
        reply = call_with_retries(
            self.provider,
            lambda: self._client.chat.completions.create(model=self.model, messages=self.messages, tools=self._tools, max_tokens=self.max_tokens),
            read=lambda r: _shaped(r, "choices"), timeout_error=oa.APITimeoutError, connection_error=oa.APIConnectionError, status_error=oa.APIStatusError,
            retries=self.retries, backoff_s=1.0,
        )
        if not reply.choices:
            raise ProviderError(self.provider, "empty_reply", f"model {self.model} returned no choices")
        msg = reply.choices[0].message
        calls = tuple(Call(c.id, c.function.name, c.function.arguments) for c in (msg.tool_calls or ()))
        entry: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
        if calls:
            entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments or ""}} for c in calls]
        self.messages.append(entry)
        usage = {"input_tokens": reply.usage.prompt_tokens, "output_tokens": reply.usage.completion_tokens} if reply.usage else {}
        return Turn(text=msg.content or "", calls=calls, usage=usage, stop=reply.choices[0].finish_reason)

    def add_results(self, results: list[tuple[Call, str, bool]]) -> None:
        self.messages += [{"role": "tool", "tool_call_id": call.id, "content": text} for call, text, _ok in results]

    def add_user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})

    def close(self) -> None:
        self._client.close()


class AnthropicChat:
    """messages.create with `tools`; ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY and ANTHROPIC_MODEL unless given."""

    provider = "anthropic"

    def __init__(self, model: str | None = None, *, base_url: str | None = None, api_key: str | None = None,
                 max_tokens: int = 8192, timeout_s: float = 300.0, retries: int = 2):
        import anthropic

        self._anthropic = anthropic
        self.model = model or os.environ.get("ANTHROPIC_MODEL") or "claude-sonnet-4-5"
        self.max_tokens, self.retries = max_tokens, retries
        self._client = anthropic.Anthropic(base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL"),
                                           api_key=api_key or os.environ.get("ANTHROPIC_API_KEY") or "EMPTY", timeout=timeout_s, max_retries=0)
        self._tools = [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]} for t in TOOL_SPECS]
        self.system = ""
        self.messages: list[dict[str, Any]] = []

    def start(self, system: str, user: str) -> None:
        self.system, self.messages = system, [{"role": "user", "content": user}]

    def step(self) -> Turn:
        an = self._anthropic
        reply = call_with_retries(
            self.provider,
            lambda: self._client.messages.create(model=self.model, system=self.system, messages=self.messages,
                                                 tools=self._tools, max_tokens=self.max_tokens),
            read=lambda r: _shaped(r, "content"), timeout_error=an.APITimeoutError, connection_error=an.APIConnectionError, status_error=an.APIStatusError,
            retries=self.retries, backoff_s=1.0,
        )
        blocks = [b.model_dump(exclude_none=True) for b in reply.content]
        if not blocks:
            blocks = [{"type": "text", "text": "(no reply)"}]
        self.messages.append({"role": "assistant", "content": blocks})
        calls = tuple(Call(b["id"], b["name"], b.get("input")) for b in blocks if b["type"] == "tool_use")
        text = "".join(b.get("text", "") for b in blocks if b["type"] == "text")
        usage = {"input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens} if reply.usage else {}
        return Turn(text=text, calls=calls, usage=usage, stop=reply.stop_reason)

    def add_results(self, results: list[tuple[Call, str, bool]]) -> None:
        self.messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call.id, "content": text, "is_error": not ok} for call, text, ok in results]})

    def add_user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})

    def close(self) -> None:
        self._client.close()


def _shaped(reply, field: str):
    """`reply` if its `field` is a list (choices, content blocks); else BadReply, retried like a 5xx."""
    if not isinstance(getattr(reply, field, None), list):
        raise BadReply(f"a reply without a list of {field}: {str(reply)[:200]}")
    return reply


class ProviderNotConfigured(RuntimeError):
    """No LLM provider is configured for app synthesis; the message says what to set."""


MISSING = (
    "app synthesis needs a coding model and none is configured: set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL, "
    "ANTHROPIC_MODEL) or OPENAI_API_KEY (and optionally OPENAI_BASE_URL, OPENAI_MODEL, e.g. a local vLLM server), "
    "or pass --provider template to compile and check the brief's draft spec without a model, or --provider claude|codex for an installed CLI"
)


def configured_provider() -> str:
    """The SDK provider whose API key is set (anthropic first); ProviderNotConfigured says what to set."""
    if os.environ.get("ANTHROPIC_API_KEY"):
        return "anthropic"
    if os.environ.get("OPENAI_API_KEY"):
        return "openai"
    raise ProviderNotConfigured(MISSING)


def make_chat(provider: str | None = None, model: str | None = None, **options: Any) -> ChatAdapter:
    """The adapter for `provider` (default: the one whose API key is set); ProviderNotConfigured says what is missing."""
    provider = provider or configured_provider()
    if provider == "openai":
        return OpenAIChat(model, **options)
    if provider == "anthropic":
        return AnthropicChat(model, **options)
    raise ProviderNotConfigured(f"no coding-agent adapter for provider {provider!r}; use openai or anthropic")
