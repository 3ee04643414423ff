"""Providers by name, imported only when used, with did-you-mean; the default follows the environment."""

from __future__ import annotations

import difflib
import importlib
import os
from typing import Any

from factory.providers.base import Provider

_REGISTRY: dict[str, str] = {
    "template": "factory.providers.template:TemplateProvider",
    "anthropic": "factory.providers.anthropic_provider:AnthropicProvider",
    "openai": "factory.providers.openai_provider:OpenAIProvider",
    "scripted": "factory.providers.scripted:ScriptedProvider",
}


class UnknownProviderError(KeyError):
    """A provider name that is not registered; the message suggests near names."""

    def __str__(self) -> str:
        return str(self.args[0])


def register_provider(name: str, entry_point: str) -> None:
    """Register `module:attr` (a Provider class or factory) under `name`."""
    _REGISTRY[name] = entry_point


def provider_names() -> list[str]:
    return sorted(_REGISTRY)


def get_provider(name: str, **options: Any) -> Provider:
    """Build the provider registered as `name` with `options` (e.g. model=..., base_url=...)."""
    if name not in _REGISTRY:
        near = difflib.get_close_matches(name, list(_REGISTRY), n=3, cutoff=0.5)
        hint = f" Did you mean: {', '.join(near)}?" if near else ""
        raise UnknownProviderError(f"no provider {name!r} (known: {', '.join(provider_names())}).{hint}")
    module, _, attr = _REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**options)


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
