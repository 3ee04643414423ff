"""LLM providers: one interface for text and schema-validated structured output (template, anthropic, openai, scripted)."""

from .base import Message, Messages, Provider, ProviderError, TemplateRef
from .registry import (
    UnknownProviderError,
    check_provider,
    default_provider,
    default_provider_name,
    get_provider,
    provider_names,
    register_provider,
)
from .scripted import ScriptedProvider
from .structured import StructuredOutputError, extract_json, parse_structured
from .template import TemplateProvider, register_template, registered_templates

__all__ = [
    "Message",
    "Messages",
    "Provider",
    "ProviderError",
    "ScriptedProvider",
    "StructuredOutputError",
    "TemplateProvider",
    "TemplateRef",
    "UnknownProviderError",
    "check_provider",
    "default_provider",
    "default_provider_name",
    "extract_json",
    "get_provider",
    "parse_structured",
    "provider_names",
    "register_provider",
    "register_template",
    "registered_templates",
]
