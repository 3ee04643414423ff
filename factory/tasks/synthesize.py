"""Task synthesis: worlds x families -> requirements -> golden and verifier (apart) -> `Task`s."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from pydantic import BaseModel, ConfigDict, Field

from contracts.errors import InputError
from contracts.registry import check_name
from factory.providers.base import ProviderError
from mocked_apps.registry import UnknownApp, available
from mocked_apps.kit.variant import drawn_variant
from contracts.world import World
from factory.worlds.pool import WorldPool
from factory.worlds.seeds import seeds_for

from .diversity import DEFAULT_THRESHOLD, NearDuplicateIndex, fingerprint
from .families import FAMILIES, spread_over_apps, with_catalogue
from contracts.taskfiles import save_tasks as save_jsonl
from contracts.family import Family, Requirements, lookup
from contracts.task import Task, TaskMeta


class SynthConfig(BaseModel):
    """What to synthesize; the CLI and the flow read the same model."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(default=120, gt=0, description="How many tasks to write.")
    personas: tuple[str, ...] = Field(default=(), description="Fixture personas to build worlds from; empty: generated personas, a new one per world.")
    scenarios: tuple[str, ...] = Field(default=(), description="Catalogue scenarios to build worlds from; empty: all of them.")
    worlds_per_pair: int = Field(default=2, gt=0, description="With fixture personas: worlds (seeds) per persona x scenario.")
    tasks_per_world: int = Field(default=3, gt=0, description="Tasks taken from a world before moving to the next one.")
    near_duplicate_threshold: float = Field(default=DEFAULT_THRESHOLD, gt=0, le=1, description="Instruction similarity (shingle Jaccard) "
                                            "from which a task of the same family is a near-duplicate and is dropped; 1 drops exact repeats only.")
    apps: tuple[str, ...] | None = Field(default=None, description="Only families whose apps are all in this set.")
    families: tuple[str, ...] | None = Field(default=None, description="Only these families (names).")
    catalogue: bool = Field(default=False, description="Also the families derived from the compiled catalogue apps' specs "
                            "(201 apps, docs/compiler.md), taken round-robin over hand-made and compiled apps, then "
                            "families, so a small --tasks reaches both; off: the hand-made apps' families only.")
    seed: int = Field(default=0, description="Seed of the whole synthesis; same seed -> same tasks.")
    variants: int = Field(default=1, ge=1, le=64, description="Appearance variants per task: the task as drawn and K-1 "
                          "copies, each in a variant of its apps' theme, layout and wording (mocked_apps/kit/variant.py); "
                          "`n` counts the tasks before they are multiplied.")


class Author:
    """Writes golden and verifier code for requirements. The template author renders the family's
    templates; an LLM author (factory.providers) writes both from prompts, in separate calls."""

    name = "template"

    def golden(self, family: Family, req: Requirements) -> str:
        return family.golden(req)

    def verifier(self, family: Family, req: Requirements) -> str:
        return family.verifier(req)


class NoFamily(InputError, ValueError):
    """The chosen apps and families leave no task family to synthesize."""


def select_families(config: SynthConfig) -> list[Family]:
    """The families a synthesis takes turns over; an unknown family or app name is an `UnknownName` with did-you-mean."""
    known = with_catalogue() if config.catalogue else FAMILIES
    chosen = [lookup(known, n) for n in config.families] if config.families else list(known.values())
    if config.apps is not None:
        apps = available()
        for app in config.apps:
            check_name("app", app, apps, UnknownApp)
        chosen = [f for f in chosen if set(f.apps) <= set(config.apps)]
    if config.catalogue and not config.families:  # a small --n reaches hand-made and compiled apps alike
        chosen = spread_over_apps(chosen, config.seed)
    if not chosen:
        raise NoFamily(f"no task family fits {_chosen(config)}; `gymfactory tasks families` lists each family's apps"
                       + ("" if config.catalogue or config.families else " (--catalogue adds the compiled apps' families)"))
    return chosen


def _chosen(config: SynthConfig) -> str:
    """The options that chose the families, as typed."""
    return " ".join([f"--app {a}" for a in config.apps or ()] + [f"--family {f}" for f in config.families or ()])


def world_pool(config: SynthConfig) -> WorldPool:
    """The worlds a synthesis draws from (the same pool the worlds flow saves)."""
    return WorldPool(seed=config.seed, personas=config.personas, scenarios=config.scenarios, worlds_per_pair=config.worlds_per_pair)


def worlds(config: SynthConfig, limit: int | None = None) -> Iterator[World]:
    """The pool's worlds in order: all of a fixture pool, or the first `limit` generated ones."""
    pool = world_pool(config)
    for i in range(pool.count or limit or config.n):
        yield pool.world(i)


def synthesize(
    config: SynthConfig,
    author: Author | None = None,
    on_task: Callable[[Task], None] | None = None,
    failures: list[str] | None = None,
    dropped: list[str] | None = None,
) -> list[Task]:
    """`config.n` tasks, deterministic for a seed: world after world of the pool, `tasks_per_world`
    from each, the families taken round-robin.

    A near-duplicate of a task already written (factory.tasks.diversity) is dropped before any code
    is written for it; `dropped` (when given) gets one line per drop.
    A provider that fails on one task (ProviderError) costs that task only: the reason goes into
    `failures` (when given; else the error is raised) and synthesis goes on.
    """
    author = author or Author()
    families = select_families(config)
    pool = world_pool(config)
    rng = random.Random(config.seed)
    tasks: list[Task] = []
    index = NearDuplicateIndex(config.near_duplicate_threshold)
    attempts, turn, made = 0, 0, 0  # made: tasks written, before their variant copies
    written: Counter[str] = Counter()
    misses: Counter[str] = Counter()  # near-duplicates in a row: a family that keeps repeating itself is saturated
    for visit in range(config.n * 4):
        if made >= config.n or attempts >= config.n * 4:
            break
        world = pool.world(visit)
        taken = 0
        order = sorted(range(len(families)), key=lambda k: (written[families[k].name], (k - turn) % len(families)))
        for k in order:  # the families with the fewest tasks first, so each gets its share
            family = families[k]
            if taken >= config.tasks_per_world or made >= config.n:
                break
            if misses[family.name] >= _SATURATED:
                continue
            attempts += 1
            req = family.requirements(world, random.Random(f"{config.seed}/{family.name}/{world.id}/{visit}"))
            if req is None:
                continue
            key = hashlib.sha256(req.model_dump_json().encode()).hexdigest()[:12]
            fp = fingerprint(family.name, req.instruction, req.answer_context)
            twin = index.match(fp)
            if twin is not None:
                misses[family.name] += 1
                if dropped is not None:
                    dropped.append(f"{family.name}-{key} in {world.id}: near-duplicate of {twin}")
                continue
            misses[family.name] = 0
            written[family.name] += 1
            index.add(f"{family.name}-{key}", fp)
            taken += 1
            task = _written(family, req, world, author, key, failures)
            if task is None:
                if failures is not None and len(failures) >= 3 and not tasks:  # the provider is down, not one bad answer
                    return tasks
                continue
            made += 1
            for copy in with_variants(task, config.variants):
                tasks.append(copy)
                if on_task:
                    on_task(copy)
        turn = (turn + max(taken, 1)) % len(families)
    rng.shuffle(tasks)
    return tasks


_SATURATED = 25


def with_variants(task: Task, k: int) -> list[Task]:
    """The task and k-1 copies in appearance variants, ids `<id>-v<j>`, each with a variant seed drawn from its id
    (so two tasks' copies look different, and the same task always gets the same looks)."""
    out = [task]
    for j in range(1, k):
        out.append(task.model_copy(update={"id": f"{task.id}-v{j}", "variant": drawn_variant(task.id, j)}))
    return out


def _written(family: Family, req: Requirements, world: World, author: Author, key: str, failures: list[str] | None) -> Task | None:
    """The task for `req`, or None (the reason in `failures`) when the provider fails on it."""
    try:
        return build_task(family, req, world, author, key)
    except ProviderError as err:
        if failures is None:
            raise
        failures.append(f"{family.name} in {world.id}: {err}")
        return None


def build_task(family: Family, req: Requirements, world: World, author: Author, key: str) -> Task:
    """A `Task` from requirements: golden and verifier written in two independent calls, both knowing the task's clock."""
    req = req.model_copy(update={"clock": world.scenario.clock})
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
        meta=TaskMeta(family=family.name, difficulty=req.difficulty, provenance=author.name, cross_app=family.cross_app,
                      capabilities=family.capabilities),
    )
