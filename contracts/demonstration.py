"""A demonstration step: one action of a golden run and the observation it was chosen on.

Validation records one per golden action (`factory.verifiers.validate`), golden rollouts store the
same in the trajectory store, and the dataset export turns them into the `demonstrations` config.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DemoStep", "anonymous_url"]

_INSTANCE = re.compile(r"^https?://127\.0\.0\.1:\d+/i/[0-9a-zA-Z_-]+")


def anonymous_url(url: str) -> str:
    """The URL with the local server and the random instance id replaced by '/i/<instance>' (they say nothing about the task)."""
    return _INSTANCE.sub("/i/<instance>", url)


class DemoStep(BaseModel):
    """One step of a demonstration: the action and the observation it was chosen on (empty when not recorded)."""

    model_config = ConfigDict(frozen=True)

    action: str = Field(description="The action in the agent's own action language, e.g. click(12).")
    url: str = Field(default="", description="Page the action was taken on, server and instance id replaced by '/i/<instance>'.")
    axtree: str = Field(default="", description="Accessibility-tree text (element ids in [brackets]) the action refers to.")
    screenshot: str | None = Field(default=None, description="Object-store key of that page's PNG, when one was taken.")
    error: str | None = Field(default=None, description="The previous action's error, as the observation reported it.")
    shell_output: str | None = Field(default=None, description="The previous shell() action's output, as the observation reported it.")

    @property
    def observed(self) -> bool:
        """Whether the observation was recorded (not just the action)."""
        return bool(self.axtree)
