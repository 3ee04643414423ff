"""What a verifier sees (`Final`) and how its verdicts become reward and success (DESIGN.md)."""

from __future__ import annotations

from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from factory.tasks.schema import Criterion


class Final(BaseModel):
    """The end of an attempt as data: the verifier reads this and nothing else."""

    model_config = ConfigDict(frozen=True)

    state: dict[str, dict[str, list[dict[str, Any]]]] = Field(description="App -> state dump after the attempt.")
    initial_state: dict[str, dict[str, list[dict[str, Any]]]] = Field(description="App -> state dump at reset.")
    answer: str | None = Field(default=None, description="The agent's final answer text, if it gave one.")
    files: dict[str, str] = Field(default_factory=dict, description="Workspace files after the attempt: path -> text.")


class Score(BaseModel):
    """Reward = weighted share of criteria met; success = every required criterion met."""

    model_config = ConfigDict(frozen=True)

    reward: float
    success: bool
    verdicts: dict[str, bool]


class VerdictError(ValueError):
    """Verdicts that do not match the task's criteria."""


def score(criteria: Iterable[Criterion], verdicts: dict[str, bool]) -> Score:
    """reward = sum(w_j b_j) / sum(w_j); success = product of b_j over required criteria."""
    criteria = tuple(criteria)
    missing = [c.id for c in criteria if c.id not in verdicts]
    if missing:
        raise VerdictError(f"verdicts missing for criteria {missing}")
    extra = set(verdicts) - {c.id for c in criteria}
    if extra:
        raise VerdictError(f"verdicts for unknown criteria {sorted(extra)}")
    if not all(isinstance(verdicts[c.id], bool) for c in criteria):
        raise VerdictError("every verdict must be a bool")
    total = sum(c.weight for c in criteria)
    reward = sum(c.weight for c in criteria if verdicts[c.id]) / total
    success = all(verdicts[c.id] for c in criteria if c.required)
    return Score(reward=reward, success=success, verdicts={c.id: verdicts[c.id] for c in criteria})
