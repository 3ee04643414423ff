"""Providers by name, imported only when used, with did-you-mean; the default follows the environment."""

from __future__ import annotations

import os
from typing import Any

from factory.providers.base import Provider
from contracts.registry import Registry, UnknownName


class UnknownProviderError(UnknownName, KeyError):
    """A provider name that is not registered; the message suggests near names."""


_REGISTRY = Registry("provider", {
    "template": "factory.providers.template:TemplateProvider",
    "anthropic": "factory.providers.anthropic_provider:AnthropicProvider",
    "openai": "factory.providers.openai_provider:OpenAIProvider",
    "scripted": "factory.providers.scripted:ScriptedProvider",
}, hidden={"scripted"}, error=UnknownProviderError)  # scripted: replies come from Python, for tests only


def register_provider(name: str, entry_point: str, hidden: bool = False) -> None:
    """Register `module:attr` (a Provider class or factory) under `name`; `hidden` ones are not offered to users."""
    _REGISTRY.register(name, entry_point, hidden=hidden)


def provider_names() -> list[str]:
    """The providers offered to users (test-only ones left out)."""
    return _REGISTRY.names()


def check_provider(name: str) -> str:
    """`name` if it is a provider users may choose (CLI options); else UnknownProviderError with did-you-mean."""
    return _REGISTRY.check(name)


def get_provider(name: str, **options: Any) -> Provider:
    """Build the provider registered as `name` (test-only ones included) with `options` (e.g. model=..., base_url=...)."""
    return _REGISTRY.load(name)(**options)


def default_provider_name() -> str:
    """GYMFACTORY_PROVIDER if set; else anthropic or openai when their key is set; else template."""
    chosen = os.environ.get("GYMFACTORY_PROVIDER")
    if chosen:
        return chosen
    if os.environ.get("ANTHROPIC_API_KEY"):
        return "anthropic"
    if os.environ.get("OPENAI_API_KEY"):
        return "openai"
    return "template"


def default_provider(**options: Any) -> Provider:
    """The provider the environment selects (no key set: the offline template provider)."""
    return get_provider(default_provider_name(), **options)
