"""`scripted`: replies played back in order, offline; for tests of code that uses a provider."""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

from factory.providers.base import Message, Messages, Provider, ProviderError, TemplateRef, as_messages

Script = str | Exception | Callable[[list[Message]], str]


class ScriptedProvider(Provider):
    """Each call takes the next reply (a string, an exception to raise, or a function of the messages)."""

    name = "scripted"

    def __init__(self, replies: Iterable[Script] = ()):
        self._replies: deque[Script] = deque(replies)
        self.calls: list[list[Message]] = []

    def push(self, *replies: Script) -> None:
        self._replies.extend(replies)

    def generate(self, messages: Messages, *, template: TemplateRef | None = None) -> str:
        msgs = as_messages(messages)
        self.calls.append(msgs)
        if not self._replies:
            raise ProviderError(self.name, "exhausted", f"no scripted reply left for call {len(self.calls)}")
        reply = self._replies.popleft()
        if isinstance(reply, Exception):
            raise reply
        return reply(msgs) if callable(reply) else reply
