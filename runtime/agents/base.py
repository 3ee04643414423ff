"""The agent seam: a Protocol with three methods, the options every agent is built from, and its errors."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Task
from runtime.harness import Prompt, View
from runtime.observation import Observation


class AgentError(RuntimeError):
    """The agent's infrastructure failed (model server unreachable, API error): the attempt is env_error."""


class AgentFailed(RuntimeError):
    """The agent cannot go on for reasons of its own (e.g. golden code raised): the attempt is scored as it stands."""


class AgentOptions(BaseModel):
    """How to build an agent; the CLI and flows fill this from their own config."""

    model_config = ConfigDict(frozen=True)

    model: str | None = Field(default=None, description="Model name sent to the inference server.")
    base_url: str | None = Field(default=None, description="Server URL; default from OPENAI_BASE_URL / ANTHROPIC_BASE_URL.")
    api_key: str | None = Field(default=None, description="API key; default from OPENAI_API_KEY / ANTHROPIC_API_KEY.")
    vision: bool = Field(default=True, description="Send screenshots as images (LLM agents).")
    view: View = Field(default="compact", description="How the harness shows pages: 'compact' (the tree "
                                             "without grouping or quotes, runs of text joined, a page much as before as its changes; "
                                             "runtime.axtree.compact_tree) or 'full' (the raw tree at every step).")
    max_tokens: int = Field(default=1024, gt=0, description="Longest reply per step.")
    temperature: float = Field(default=0.0, ge=0, description="Sampling temperature.")
    seed: int = Field(default=0, description="Seed of the random agent.")
    timeout_s: float = Field(default=120.0, gt=0, description="Deadline of one model call.")
    golden_timeout_s: float = Field(default=180.0, gt=0, description="Deadline of a whole golden run (its sandbox), actions included.")


@runtime_checkable
class Agent(Protocol):
    """Decides one step at a time; the harness builds the prompt and parses the reply."""

    name: str
    model: str | None
    vision: bool
    # optional: `baseline = True` marks a reference agent (random) that the pipeline rolls out only to measure how
    # hard a task is

    def reset(self, task: Task) -> None:
        """Start a new attempt at `task`."""

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        """The reply to `prompt` (its last line an action), or None when the agent has nothing more to do."""

    def close(self) -> None:
        """Free what the agent holds (clients, child processes)."""
