"""Structured output: ask for JSON matching a schema, validate it, send errors back a bounded number of times."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ValidationError

from factory.providers.base import Message, Messages, ProviderError, TemplateRef, as_messages

if TYPE_CHECKING:
    from factory.providers.base import Provider

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)```", re.DOTALL)


class StructuredOutputError(ValueError):
    """A reply that is not valid JSON for the schema; the message is feedback for the model."""


def schema_instruction(model: type[BaseModel]) -> str:
    """The instruction that asks for one JSON object matching `model`'s schema."""
    schema = json.dumps(model.model_json_schema(), separators=(",", ":"))
    return (
        "Answer with exactly one JSON object that matches this JSON schema, "
        f"optionally inside a ```json fence, and nothing else.\nSchema: {schema}"
    )


def extract_json(text: str) -> object:
    """The JSON value in a reply: a ```json fence, the whole text, or the outermost {...}."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    error = None
    for candidate in candidates:
        try:
            return json.loads(candidate.strip())
        except ValueError as exc:
            error = exc
    raise StructuredOutputError(f"the reply is not valid JSON ({error})")


def parse_structured(text: str, model: type[T]) -> T:
    """Validate a reply against `model`; StructuredOutputError says what is wrong."""
    data = extract_json(text)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise StructuredOutputError(f"the JSON does not match the schema: {exc}") from exc


def structured_by_retry(
    provider: "Provider", messages: Messages, model: type[T], *, template: TemplateRef | None, attempts: int
) -> T:
    """Ask, validate, and on an invalid reply ask again with the error; ProviderError after `attempts`."""
    history = [Message(role="system", content=schema_instruction(model)), *as_messages(messages)]
    error: StructuredOutputError | None = None
    for _ in range(max(1, attempts)):
        reply = provider.generate(history, template=template)
        try:
            return parse_structured(reply, model)
        except StructuredOutputError as exc:
            error = exc
            history += [
                Message(role="assistant", content=reply),
                Message(role="user", content=f"That answer was invalid: {exc}\nReply again with only the corrected JSON object."),
            ]
    raise ProviderError(provider.name, "invalid_output", f"no valid {model.__name__} after {attempts} attempts: {error}")
