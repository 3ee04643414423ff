"""Task synthesis: worlds x families -> requirements -> golden and verifier (apart) -> `Task`s."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator

from pydantic import BaseModel, ConfigDict, Field

from factory.providers.base import ProviderError
from factory.worlds.builder import build_world
from factory.worlds.catalog import PERSONAS, SCENARIOS
from factory.worlds.model import World
from factory.worlds.seeds import seeds_for

from .families import FAMILIES
from .io import save_tasks as save_jsonl
from .family import Family, Requirements, lookup
from .schema import Task, TaskMeta


class SynthConfig(BaseModel):
    """What to synthesize; the CLI and the flow read the same model."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(default=120, gt=0, description="How many tasks to write.")
    personas: tuple[str, ...] = Field(default=tuple(PERSONAS), description="Shipped personas to build worlds from.")
    scenarios: tuple[str, ...] = Field(default=tuple(SCENARIOS), description="Shipped scenarios to build worlds from.")
    worlds_per_pair: int = Field(default=2, gt=0, description="Worlds (seeds) per persona x scenario.")
    apps: tuple[str, ...] | None = Field(default=None, description="Only families whose apps are all in this set.")
    families: tuple[str, ...] | None = Field(default=None, description="Only these families (names).")
    seed: int = Field(default=0, description="Seed of the whole synthesis; same seed -> same tasks.")


class Author:
    """Writes golden and verifier code for requirements. The template author renders the family's
    templates; an LLM author (factory.providers) writes both from prompts, in separate calls."""

    name = "template"

    def golden(self, family: Family, req: Requirements) -> str:
        return family.golden(req)

    def verifier(self, family: Family, req: Requirements) -> str:
        return family.verifier(req)


def select_families(config: SynthConfig) -> list[Family]:
    chosen = [lookup(FAMILIES, n) for n in config.families] if config.families else list(FAMILIES.values())
    if config.apps is not None:
        chosen = [f for f in chosen if set(f.apps) <= set(config.apps)]
    if not chosen:
        raise ValueError("no task family fits the chosen apps/families")
    return chosen


def worlds(config: SynthConfig) -> Iterator[World]:
    for k in range(config.worlds_per_pair):
        for persona in config.personas:
            for scenario in config.scenarios:
                yield build_world(persona, scenario, config.seed * 1000 + k)


def synthesize(
    config: SynthConfig,
    author: Author | None = None,
    on_task: Callable[[Task], None] | None = None,
    failures: list[str] | None = None,
) -> list[Task]:
    """`config.n` tasks, round-robin over families and worlds, deterministic for a seed.

    A provider that fails on one task (ProviderError) costs that task only: the reason goes into
    `failures` (when given; else the error is raised) and synthesis goes on.
    """
    author = author or Author()
    families = select_families(config)
    pool = list(worlds(config))
    rng = random.Random(config.seed)
    tasks: list[Task] = []
    seen: set[str] = set()
    for round_ in range(config.n * 4):
        if len(tasks) >= config.n:
            break
        family = families[round_ % len(families)]
        world = pool[(round_ // len(families)) % len(pool)]
        req = family.requirements(world, random.Random(f"{config.seed}/{family.name}/{world.id}/{round_}"))
        if req is None:
            continue
        key = hashlib.sha256(req.model_dump_json().encode()).hexdigest()[:12]
        if key in seen:
            continue
        seen.add(key)
        try:
            task = build_task(family, req, world, author, key)
        except ProviderError as err:
            if failures is None:
                raise
            failures.append(f"{family.name} in {world.id}: {err}")
            if len(failures) >= 3 and not tasks:  # the provider is down, not one bad answer
                break
            continue
        tasks.append(task)
        if on_task:
            on_task(task)
    rng.shuffle(tasks)
    return tasks


def build_task(family: Family, req: Requirements, world: World, author: Author, key: str) -> Task:
    """A `Task` from requirements: golden and verifier written in two independent calls."""
    golden = author.golden(family, req)
    verifier = author.verifier(family, req)
    return Task(
        id=f"{family.name}-{key}",
        apps=req.apps,
        form_factor=req.form_factor,
        world=world.id,
        clock=world.scenario.clock.isoformat(),
        seed=seeds_for(world, req.apps),
        instruction=req.instruction,
        answer_context=req.answer_context,
        criteria=req.criteria,
        verifier=verifier,
        golden=golden,
        meta=TaskMeta(family=family.name, difficulty=req.difficulty, provenance=author.name, cross_app=family.cross_app),
    )
