"""Measured difficulty: pass@k of real agents per task and per family, replacing the families' declared guesses.

The agents that measure are the models (the offline `reference` model, an OpenAI-compatible or Anthropic
endpoint, a trained `policy`); the golden oracle and the `random` baseline say nothing about how hard a
task is for a model. A task solved in every one of its k >= 2 attempts by a model is too easy and is
dropped; so is one the random agent solves more often than `easy_above`. A task a model attempted and that no
agent but the oracle ever solved is flagged, not dropped: it is where training has the most to gain, or a task to audit.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

from contracts.status import SCORED
from contracts.task import Measured, Task, difficulty_of
from runtime.rollout import AttemptResult

ORACLE = "golden"


class Verdict(BaseModel):
    """What the rollouts say about the task set: labels, drops and flags, and the per-family table."""

    model_config = ConfigDict(frozen=True)

    tasks: tuple[Task, ...] = Field(description="The kept tasks, with measured difficulty where an agent measured them.")
    too_easy: tuple[str, ...] = ()
    unsolved: tuple[str, ...] = Field(default=(), description="Attempted by a model agent and never solved by any agent but the oracle.")
    families: tuple[dict, ...] = Field(default=(), description="Per agent and family: tasks, k, pass@1, pass@k, label.")


def _scored(results: Iterable[AttemptResult]) -> dict[str, list[bool]]:
    by_task: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        if r.status in SCORED:
            by_task[r.task_id].append(r.success)
    return by_task


def _rates(outcomes: list[list[bool]]) -> tuple[float, float]:
    """(pass@1, pass@k) over tasks, each with its list of attempt outcomes."""
    attempts = [s for o in outcomes for s in o]
    return sum(attempts) / len(attempts), sum(any(o) for o in outcomes) / len(outcomes)


def judge(tasks: list[Task], by_agent: Mapping[str, list[AttemptResult]], models: Iterable[str], easy_above: float) -> Verdict:
    """Label, drop and flag `tasks` from the attempts of each agent (`models`: the agents whose pass rates measure)."""
    models = [m for m in models if m in by_agent]
    family_of = {t.id: t.meta.family for t in tasks}
    per_task = {m: _scored(by_agent[m]) for m in models}
    rows, family_measure = [], defaultdict(list)
    for m in models:
        by_family: dict[str, list[list[bool]]] = defaultdict(list)
        for task_id, outcomes in per_task[m].items():
            if task_id in family_of:
                by_family[family_of[task_id]].append(outcomes)
        for family, outcomes in sorted(by_family.items()):
            p1, pk = _rates(outcomes)
            k = max(len(o) for o in outcomes)
            family_measure[family].append(Measured(agent=m, scope="family", tasks=len(outcomes), k=k, pass_at_1=p1, pass_at_k=pk))
            rows.append({"agent": m, "family": family, "tasks": len(outcomes), "k": k, "pass@1": round(p1, 3),
                         "pass@k": round(pk, 3), "difficulty": difficulty_of(p1)})
    random_rate = {t: sum(s) / len(s) for t, s in _scored(by_agent.get("random", [])).items() if s}
    too_easy = {t for t, rate in random_rate.items() if rate > easy_above}
    too_easy |= {t for m in models for t, s in per_task[m].items() if len(s) >= 2 and all(s)}
    tried = {t for m in models for t in per_task[m]}  # a model's failures say something; the random agent's alone do not
    solved = {t for name, results in by_agent.items() if name != ORACLE for t, s in _scored(results).items() if any(s)}
    kept = []
    for task in tasks:
        if task.id in too_easy:
            continue
        own = [Measured(agent=m, scope="task", tasks=1, k=len(s), pass_at_1=sum(s) / len(s), pass_at_k=float(any(s)))
               for m in models if (s := per_task[m].get(task.id))]
        evidence = tuple(own) + tuple(family_measure.get(task.meta.family, ()))
        if evidence:  # the family's rate labels every task of it; the task's own attempts are kept beside it
            best = max(e.pass_at_1 for e in evidence if e.scope == "family")
            meta = task.meta.model_copy(update={"difficulty": difficulty_of(best), "difficulty_source": "measured", "measured": evidence})
            task = task.model_copy(update={"meta": meta})
        kept.append(task)
    return Verdict(tasks=tuple(kept), too_easy=tuple(sorted(too_easy)), unsolved=tuple(sorted(tried - solved - too_easy)),
                   families=tuple(rows))
