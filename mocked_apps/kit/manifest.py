"""The manifest: what an app declares about itself (Contract 1)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class PageSpec(BaseModel):
    """One agent-facing page, relative to the instance root (`/i/{id}`)."""

    model_config = ConfigDict(frozen=True)

    path: str = Field(description="Path under the instance root, e.g. '/' or '/thread/1'.")
    title: str = Field(description="What a person would call the page.")
    description: str = Field(default="", description="What the page shows and lets you do.")


class AppManifest(BaseModel):
    """Static facts about an app type; `entities` is filled in from its models."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Registry name, a Python identifier.")
    title: str = Field(description="Human title shown in the app bar and launcher.")
    category: str = Field(description="e.g. 'communication', 'productivity', 'finance'.")
    description: str = Field(description="One paragraph: what the app imitates and what it is for.")
    version: str = Field(default="1.0", description="Bumped when models or seed formats change.")
    icon: str = Field(default="▣", description="One emoji or glyph for the launcher.")
    imitates: str = Field(default="novel", description="The real service it imitates, or 'novel'.")
    pages: tuple[PageSpec, ...] = Field(default=(), description="The main pages a person can open.")
    entities: dict[str, dict] = Field(
        default_factory=dict, description="Table name -> JSON schema of one row (filled by the kit)."
    )
    view_state: tuple[str, ...] = Field(
        default=(),
        description="'table.field' values that only record what the user looked at (e.g. 'message.read', set on "
        "opening a thread): deterministic, and ignored by the footprint guard of every task.",
    )
    inert_rows: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Table -> field values of a new row that has no effect (e.g. 'transfer': {'status': 'cancelled'}, "
        "left by a review the user cancelled): ignored by the footprint guard, like view state.",
    )
    consequences: dict[str, str] = Field(
        default_factory=dict,
        description="Changes that follow from another change, -> what they follow from: 'table.field' (that field "
        "of a changed row, e.g. 'file.modified_at') or 'table' (its new rows, e.g. 'transaction' rows posted by a "
        "confirmed transfer). Validation needs no criterion for them and shifts no clock in them.",
    )
