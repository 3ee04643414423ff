"""The weakness profile: what an agent gets wrong, by capability, with the evidence, as saved JSON.

Diagnosis writes it (rules offline, optionally refined by an LLM); regeneration reads it to weight
task families and parameters; the loop compares profiles round over round.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Capability

__all__ = ["AttemptFinding", "CapabilityWeakness", "WeaknessProfile"]


class AttemptFinding(BaseModel):
    """What the rules found in one failed attempt, and the capabilities it points at."""

    model_config = ConfigDict(frozen=True)

    attempt_id: int
    task_id: str
    level: Literal["action", "trajectory", "knowledge"] = Field(description="Single action, whole trajectory, or required knowledge.")
    kind: str = Field(description="Rule that fired, e.g. 'diverged_from_golden', 'empty_search', 'criteria_failed'.")
    detail: str = ""
    capabilities: tuple[Capability, ...] = Field(default=(), description="Capabilities the finding implicates.")


class CapabilityWeakness(BaseModel):
    """One capability's record across the diagnosed attempts."""

    model_config = ConfigDict(frozen=True)

    capability: Capability
    attempts: int = Field(description="Scored attempts that exercised the capability (declared by the task or seen in its golden run).")
    failures: int = Field(description="Of those, how many failed.")
    failure_rate: float = Field(description="failures / attempts.")
    blame: float = Field(description="Failed attempts attributed to this capability (rule evidence splits one failure among the "
                                     "capabilities it implicates; unexplained failures spread over what the task exercised).")
    score: float = Field(description="blame / (attempts + 1): the ranking key, shrunk toward 0 when there is little evidence.")
    confidence: float = Field(ge=0, le=1, description="How sure: grows with the evidence and with the share backed by a rule.")
    evidence: tuple[int, ...] = Field(default=(), description="Attempt ids of the failures attributed to it (up to 20).")


class WeaknessProfile(BaseModel):
    """Capabilities ranked by weakness for one agent over one set of attempts."""

    model_config = ConfigDict(frozen=True)

    agent: str
    runs: tuple[str, ...] = Field(default=(), description="Runs the attempts came from.")
    attempts: int = Field(description="Scored attempts diagnosed (env errors left out).")
    failures: int
    env_errors: int = Field(default=0, description="Attempts left out as environment errors.")
    capabilities: tuple[CapabilityWeakness, ...] = Field(description="Weakest first.")
    findings: tuple[AttemptFinding, ...] = Field(default=(), description="Every rule finding, attempt by attempt.")
    diagnoser: str = Field(default="rules", description="'rules', or 'rules+llm:<model>' when an LLM refined the ranking.")
    summary: str = Field(default="", description="One paragraph in words (the LLM's, when one ran).")
    created_at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))

    def top(self, n: int = 1) -> list[str]:
        """The n weakest capabilities (only those with any blame)."""
        return [c.capability for c in self.capabilities if c.blame > 0][:n]

    def weights(self) -> dict[str, float]:
        """Capability -> weight for targeted synthesis: score x confidence, summing to 1 (empty when nothing failed)."""
        raw = {c.capability: c.score * c.confidence for c in self.capabilities if c.blame > 0}
        total = sum(raw.values())
        return {k: v / total for k, v in raw.items()} if total else {}
