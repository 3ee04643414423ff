"""`template`: the offline, deterministic default; renders registered Jinja2 templates from the facts handed to it.

A template is a Jinja2 string, or a dict/list whose string leaves are Jinja2 strings (one per field,
which reads better than JSON written by hand). Task families register theirs with
`register_template`; callers name one through `TemplateRef(name, facts)`. Rendering uses strict
undefined variables, so a missing fact is an error, never an empty string. Filters: `tojson`
(built in) and `pyrepr` (a Python literal, for values embedded in verifier or golden code).
"""

from __future__ import annotations

import difflib
import json
from typing import Any, Mapping, TypeVar

import jinja2
from pydantic import BaseModel, ValidationError

from factory.providers.base import Messages, Provider, ProviderError, TemplateRef
from factory.providers.structured import StructuredOutputError, parse_structured

T = TypeVar("T", bound=BaseModel)
Template = str | Mapping[str, Any] | list
_TEMPLATES: dict[str, Template] = {}


def register_template(name: str, template: Template) -> None:
    """Make `template` available to every template provider under `name` (later registrations win)."""
    _TEMPLATES[name] = template


def registered_templates() -> list[str]:
    """Names of the globally registered templates."""
    return sorted(_TEMPLATES)


class TemplateProvider(Provider):
    """Deterministic generation without a model: same template and facts, same output."""

    name = "template"

    def __init__(self, templates: Mapping[str, Template] | None = None):
        self._own = dict(templates or {})
        self._env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
        self._env.filters["pyrepr"] = repr

    def register(self, name: str, template: Template) -> None:
        """Add a template to this provider only."""
        self._own[name] = template

    def render(self, ref: TemplateRef) -> Any:
        """The named template rendered with `ref.facts` (a string, or the same dict/list shape)."""
        template = self._own.get(ref.name, _TEMPLATES.get(ref.name))
        if template is None:
            known = sorted({*self._own, *_TEMPLATES})
            near = difflib.get_close_matches(ref.name, known, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else f"; known: {', '.join(known) or 'none'}"
            raise ProviderError(self.name, "unknown_template", f"no template {ref.name!r}{hint}")
        try:
            return self._render(template, ref.facts)
        except jinja2.UndefinedError as exc:
            raise ProviderError(self.name, "missing_fact", f"template {ref.name!r}: {exc}") from exc
        except jinja2.TemplateError as exc:
            raise ProviderError(self.name, "bad_template", f"template {ref.name!r}: {exc}") from exc

    def generate(self, messages: Messages, *, template: TemplateRef | None = None) -> str:
        rendered = self.render(self._need(template))
        return rendered if isinstance(rendered, str) else json.dumps(rendered)

    def structured(self, messages: Messages, model: type[T], *, template: TemplateRef | None = None) -> T:
        ref = self._need(template)
        rendered = self.render(ref)
        try:
            if isinstance(rendered, str):
                return parse_structured(rendered, model)
            return model.model_validate(rendered)
        except (StructuredOutputError, ValidationError) as exc:  # deterministic: retrying cannot help
            raise ProviderError(self.name, "invalid_output", f"template {ref.name!r} -> {model.__name__}: {exc}") from exc

    def _need(self, template: TemplateRef | None) -> TemplateRef:
        if template is None:
            raise ProviderError(self.name, "no_template", "the template provider answers only a TemplateRef(name, facts)")
        return template

    def _render(self, template: Template, facts: dict[str, Any]) -> Any:
        if isinstance(template, str):
            return self._env.from_string(template).render(**facts)
        if isinstance(template, Mapping):
            return {key: self._render(value, facts) for key, value in template.items()}
        if isinstance(template, list):
            return [self._render(value, facts) for value in template]
        return template
