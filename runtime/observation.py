"""What the agent sees after each step."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Observation(BaseModel):
    """One observation; the screenshot itself lives in the object store under `screenshot`."""

    model_config = ConfigDict(frozen=True)

    step: int = Field(description="Index of the step that produced this observation (0 after reset).")
    url: str = Field(description="The page URL as the agent's browser shows it.")
    title: str = Field(default="", description="The page title.")
    axtree: str = Field(description="Accessibility-tree text; every actionable element carries a numeric id [n].")
    screenshot: str | None = Field(default=None, description="Object-store key of the PNG screenshot.")
    last_action_error: str | None = Field(default=None, description="Why the last action failed, if it did.")
    shell_output: str | None = Field(default=None, description="Output of the last shell() action, if any.")
    done: bool = Field(default=False, description="True once the agent has answered or the step limit is hit.")
