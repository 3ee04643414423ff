"""Targeted synthesis: a weakness profile -> new tasks aimed at the weak capabilities.

A share of the new tasks equal to the top capability's confidence is targeted: families are
weighted by the profile's weights of the capabilities they declare, and each targeted task is a
variant of the failed tasks of its family (`meta.parents`) in a new world with harder distractors.
The rest explores: the families targeting leaves out, in turn, so capabilities not yet failed are
still checked. As
evidence accumulates round over round, confidence, and so the targeted share, grows.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter

from pydantic import BaseModel, ConfigDict, Field

from contracts.family import Family
from contracts.task import Task
from factory.tasks.diversity import DEFAULT_THRESHOLD, NearDuplicateIndex, fingerprint
from factory.tasks.synthesize import Author, build_task
from factory.worlds.pool import WorldPool
from factory.worlds.size import WorldSize

from .profile import WeaknessProfile

__all__ = ["TargetConfig", "TargetPlan", "plan", "targeted_tasks", "all_families"]


class TargetConfig(BaseModel):
    """How many targeted tasks to write, from which worlds."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(default=16, gt=0, description="New tasks to synthesize (before the gates).")
    seed: int = Field(default=0, description="Seed of the new worlds (use a new one per round: new worlds, not the old ones).")
    personas: tuple[str, ...] = Field(default=(), description="Fixture personas of the new worlds; empty: generated personas.")
    scenarios: tuple[str, ...] = Field(default=(), description="Scenarios of the new worlds; empty: all.")
    distractor_rate: float = Field(default=0.8, ge=0, le=1, description="Distractor rate of the new worlds of targeted tasks "
                                   "(the default worlds use 0.3): near-identical vendors, amounts, documents and namesakes.")
    families: tuple[str, ...] | None = Field(default=None, description="Only these families (default: every discovered family).")


class TargetPlan(BaseModel):
    """Which families the new tasks come from, and why."""

    model_config = ConfigDict(frozen=True)

    targeted: tuple[str, ...] = Field(description="Family of each targeted task.")
    explore: tuple[str, ...] = Field(description="Family of each exploring task.")
    focus: float = Field(description="Share of targeted tasks: the top capability's confidence.")
    weights: dict[str, float] = Field(description="Capability weights from the profile.")


def all_families(only: tuple[str, ...] | None = None) -> list[Family]:
    """Every family the registry discovers now (re-read on each call, so new apps' families count)."""
    from factory.tasks.families import FAMILIES

    found = dict(FAMILIES)
    return [found[n] for n in only if n in found] if only else [found[n] for n in sorted(found)]


def _apportion(weights: dict[str, float], n: int) -> list[str]:
    """n slots shared by weight (largest remainder, ties by name)."""
    total = sum(weights.values())
    if n <= 0 or total <= 0:
        return []
    quotas = {k: n * w / total for k, w in weights.items()}
    counts = {k: int(q) for k, q in quotas.items()}
    for k in sorted(quotas, key=lambda k: (-(quotas[k] - counts[k]), k))[: n - sum(counts.values())]:
        counts[k] += 1
    return [k for k in sorted(counts) for _ in range(counts[k])]


def plan(profile: WeaknessProfile, families: list[Family], n: int, seed: int = 0) -> TargetPlan:
    """Families for n new tasks: round(n x focus) by weakness, the rest round-robin over the untargeted families."""
    weights = profile.weights()
    focus = profile.capabilities[0].confidence if weights else 0.0
    by_family = {f.name: sum(weights.get(c, 0.0) for c in f.capabilities) for f in families}
    n_target = round(n * focus) if any(by_family.values()) else 0
    targeted = _apportion({k: v for k, v in by_family.items() if v > 0}, n_target)
    names = [f.name for f in families if not by_family[f.name]] or [f.name for f in families]  # explore what targeting leaves out
    start = seed % len(names) if names else 0
    explore = [names[(start + i) % len(names)] for i in range(n - len(targeted))]
    return TargetPlan(targeted=tuple(targeted), explore=tuple(explore), focus=round(focus, 3), weights=weights)


def targeted_tasks(profile: WeaknessProfile, failed_by_family: dict[str, list[str]], config: TargetConfig) -> tuple[list[Task], TargetPlan]:
    """The new tasks of `plan`: targeted ones in harder worlds with their family's failed tasks as parents.

    A family whose worlds yield nothing new within a bounded number of tries gives fewer tasks.
    """
    families = {f.name: f for f in all_families(config.families)}
    chosen = plan(profile, list(families.values()), config.n, config.seed)
    index = NearDuplicateIndex(DEFAULT_THRESHOLD)
    author = Author()
    harder = WorldPool(seed=config.seed, personas=config.personas, scenarios=config.scenarios,
                       size=WorldSize(distractor_rate=config.distractor_rate))
    usual = WorldPool(seed=config.seed, personas=config.personas, scenarios=config.scenarios)
    out: list[Task] = []
    visits: Counter[str] = Counter()
    for kind, names in (("targeted", chosen.targeted), ("explore", chosen.explore)):
        for name in names:
            family, pool = families[name], harder if kind == "targeted" else usual
            for _ in range(12):
                visit = visits[name]
                visits[name] += 1
                world = pool.world(visit * 7 + len(out))
                req = family.requirements(world, random.Random(f"{config.seed}/{name}/{world.id}/{visit}"))
                if req is None:
                    continue
                fp = fingerprint(name, req.instruction, req.answer_context)
                if index.match(fp) is not None:
                    continue
                key = hashlib.sha256((req.model_dump_json() + kind).encode()).hexdigest()[:12]
                index.add(f"{name}-{key}", fp)
                task = build_task(family, req, world, author, key)
                parents = tuple(failed_by_family.get(name, ())[:5]) if kind == "targeted" else ()
                meta = task.meta.model_copy(update={"parents": parents, "provenance": f"regenerated:{kind}"})
                out.append(task.model_copy(update={"meta": meta}))
                break
    return out, chosen
