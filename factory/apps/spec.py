"""App briefs: what a new mocked app should be (entities, screens, flows), by hand or from a provider.

A brief is what a coding session starts from; the session writes the app itself as a kit app spec
(`mocked_apps.kit.spec.AppSpec`), whose task families are derived from its state machine, forms and pages.
A brief names no families (an old brief's `task_families` is ignored): names nobody implements promise
tasks that no code serves, and the derived ones come with their verifiers and goldens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from factory.providers.base import Message, Provider

FieldType = Literal["str", "text", "email", "int", "float", "bool", "date", "datetime"]
_IDENT = r"^[a-z][a-z0-9_]*$"


class SpecError(ValueError):
    """An app spec file that cannot be read or does not match the AppSpec schema."""


class EntityField(BaseModel):
    """One column of an entity (the id column is implicit)."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=_IDENT, description="Column name, a Python identifier (not 'id').")
    type: FieldType = Field(default="str", description="str (one line), text (long), email, int, float, bool, date, datetime.")
    description: str = Field(default="", description="What the value means, for world builders and verifier authors.")
    required: bool = Field(default=True, description="The create form requires it.")


class EntitySpec(BaseModel):
    """One kind of record the app stores: a table."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=_IDENT, description="Table name, singular, e.g. 'contact'.")
    title: str = Field(default="", description="What a person calls one record, e.g. 'Contact' (default: from name).")
    fields: tuple[EntityField, ...] = Field(min_length=1, description="Columns; the first 'str' field is the record's label.")

    @model_validator(mode="after")
    def _check(self) -> "EntitySpec":
        names = [f.name for f in self.fields]
        if "id" in names or len(names) != len(set(names)):
            raise ValueError(f"entity {self.name}: field names must be unique and not 'id'")
        if not any(f.type in ("str", "email") for f in self.fields):
            raise ValueError(f"entity {self.name}: needs at least one 'str' field to label records")
        return self

    @property
    def label(self) -> str:
        return self.title or self.name.replace("_", " ").capitalize()

    @property
    def label_field(self) -> EntityField:
        return next(f for f in self.fields if f.type in ("str", "email"))


class AppSpec(BaseModel):
    """A brief for a new mocked app: what it imitates, what it stores, what people do with it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=_IDENT, max_length=40, description="Registry name, a Python identifier.")
    title: str = Field(description="Human title shown in the app bar.")
    category: str = Field(description="e.g. 'productivity', 'finance', 'communication', 'crm'.")
    imitates: str = Field(default="novel", description="The real service it imitates, or 'novel'.")
    description: str = Field(default="", description="One paragraph: what it is for.")
    icon: str = Field(default="▣", description="One emoji or glyph.")
    entities: tuple[EntitySpec, ...] = Field(min_length=1, description="Tables; the first is the app's main list.")
    screens: tuple[str, ...] = Field(default=(), description="Pages a person can open, in words.")
    flows: tuple[str, ...] = Field(default=(), description="User flows, e.g. 'add a contact', 'archive a deal'.")

    @model_validator(mode="after")
    def _check(self) -> "AppSpec":
        names = [e.name for e in self.entities]
        if len(names) != len(set(names)):
            raise ValueError("entity names must be unique")
        return self

    @property
    def main(self) -> EntitySpec:
        return self.entities[0]


def load_spec(path: str | Path) -> AppSpec:
    """An AppSpec from a JSON or YAML file; SpecError says what is wrong."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as err:
        raise SpecError(f"cannot read app spec {path}: {err}") from err
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
        return AppSpec.model_validate(data)
    except (ValueError, ValidationError) as err:
        raise SpecError(f"app spec {path}: {err}") from err


def generate_spec(provider: Provider, *, category: str | None = None, imitates: str | None = None, hint: str = "") -> AppSpec:
    """Ask a provider for an AppSpec for a category or a reference service (schema-validated, retried)."""
    if not category and not imitates:
        raise SpecError("generate_spec needs a category or a reference service")
    target = f"that imitates {imitates}" if imitates else f"in the category {category!r}"
    prompt = (
        f"Design a small web app {target} for a GUI-agent training gym. "
        "Give it a snake_case name, 1-3 entities (the first one is the main list; each with 3-7 plain fields), "
        "4+ screens and 3+ user flows. "
        "The default data is about Alex Morgan, operations manager at Northwind Studio, and colleagues. " + hint
    )
    return provider.structured([Message(role="user", content=prompt)], AppSpec)

