"""What a verifier sees (`Final`) and how its verdicts become reward and success (DESIGN.md).

`score_final` is the one place a final is scored, for rollouts and validation alike: the footprint
guard first (the required system criterion `no_collateral_changes`), then the verifier's verdicts.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Criterion, Task
from .footprint import collateral

GUARD_CRITERION = "no_collateral_changes"


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
    collateral: tuple[str, ...] = Field(default=(), description="Changes outside the task's footprint, in words.")


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


def score_final(task: Task, final: Final, verdicts: Callable[[], dict[str, bool]] | dict[str, bool]) -> Score:
    """Score an attempt's final: the footprint guard, then the verifier's verdicts (`verdicts()` runs it).

    With a footprint (accepted tasks carry one): any change outside it fails the required system
    criterion `no_collateral_changes`, and then success and reward are 0 and the verifier is not
    run. Otherwise reward follows the criteria, except that criteria the untouched initial state
    already meets ("nothing else changed") carry no reward on their own: when no other criterion is
    met, reward is 0. Without a footprint (a task not yet validated) the criteria alone decide.
    """
    footprint = task.footprint
    if footprint is not None:
        outside = collateral(footprint, final.initial_state, final.state)
        if outside:
            return Score(reward=0.0, success=False, verdicts={GUARD_CRITERION: False}, collateral=outside)
    given = verdicts() if callable(verdicts) else verdicts
    result = score(task.criteria, given)
    if footprint is None:
        return result
    progress = any(result.verdicts[c.id] for c in task.criteria if c.id not in footprint.met_at_start)
    return Score(reward=result.reward if progress else 0.0, success=result.success,
                 verdicts={**result.verdicts, GUARD_CRITERION: True})
