"""The provider seam: text generation and schema-validated structured output, one small interface."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal, Mapping, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T", bound=BaseModel)


class Message(BaseModel):
    """One chat message."""

    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


Messages = Sequence["Message | Mapping[str, str]"]


class TemplateRef(BaseModel):
    """What the offline `template` provider renders instead of asking a model: a template name and facts.

    LLM providers ignore it: the messages already carry the same facts in words.
    """

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="Template registered with the template provider, e.g. 'mail.reply.requirements'.")
    facts: dict[str, Any] = Field(default_factory=dict, description="Values the template is rendered with.")


class ProviderError(RuntimeError):
    """A provider gave no usable answer; `reason` is a short code a flow records as the failure."""

    def __init__(self, provider: str, reason: str, detail: str = ""):
        super().__init__(f"provider {provider!r}: {reason}" + (f": {detail}" if detail else ""))
        self.provider, self.reason, self.detail = provider, reason, detail


def as_messages(messages: Messages) -> list[Message]:
    """Accept Message objects or plain {"role", "content"} dicts."""
    return [m if isinstance(m, Message) else Message.model_validate(dict(m)) for m in messages]


class Provider(ABC):
    """Generates text, and structured output validated against a pydantic model (retried on errors)."""

    name: str = "provider"
    max_attempts: int = 3

    @abstractmethod
    def generate(self, messages: Messages, *, template: TemplateRef | None = None) -> str:
        """The model's reply to `messages`; raises ProviderError when there is none."""

    def structured(self, messages: Messages, model: type[T], *, template: TemplateRef | None = None) -> T:
        """A `model` instance parsed from the reply; an invalid reply is sent back with its error."""
        from factory.providers.structured import structured_by_retry

        return structured_by_retry(self, messages, model, template=template, attempts=self.max_attempts)

    def close(self) -> None:
        """Release connections (no-op for offline providers)."""
