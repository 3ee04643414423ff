"""Which worlds a run draws from: the generated population (the default — a persona of its own per
world, in every catalogue scenario in turn) or fixture personas x named scenarios x seeds.

World `index` of a pool is a pure function of the pool and the index: the same seed gives the same
worlds, built lazily one at a time, so a run of any size never holds more than the world at hand.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from contracts.registry import check_name

from .builder import build_world, generated_world
from .catalog import PERSONAS, SCENARIOS
from contracts.world import World
from .size import WorldSize

__all__ = ["WorldPool", "scenario_of"]


class WorldPool(BaseModel):
    """The worlds of a run; `world(i)` builds the i-th."""

    model_config = ConfigDict(frozen=True)

    seed: int = Field(default=0, description="Seed of the population; same seed, same worlds.")
    personas: tuple[str, ...] = Field(default=(), description="Fixture personas to use; empty: generated personas (unbounded).")
    scenarios: tuple[str, ...] = Field(default=(), description="Catalogue scenarios to use; empty: the whole catalogue.")
    worlds_per_pair: int = Field(default=1, gt=0, description="With fixture personas: worlds (seeds) per persona x scenario.")
    size: WorldSize = Field(default_factory=WorldSize, description="Size knobs of every world.")

    @model_validator(mode="after")
    def _known_names(self) -> "WorldPool":
        for p in self.personas:
            check_name("persona", p, PERSONAS)
        for s in self.scenarios:
            check_name("scenario", s, SCENARIOS)
        return self

    @property
    def count(self) -> int | None:
        """How many distinct worlds the pool has; None for the unbounded generated population."""
        if not self.personas:
            return None
        return len(self.personas) * len(self.scenarios or SCENARIOS) * self.worlds_per_pair

    def world(self, index: int) -> World:
        """World number `index` (taken modulo `count` for a fixture pool)."""
        if not self.personas:
            return generated_world(self.seed, index, self.size, self.scenarios or None)
        scenarios = self.scenarios or tuple(SCENARIOS)
        pairs = [(p, s) for p in self.personas for s in scenarios]
        index %= self.count
        persona, scenario = pairs[index % len(pairs)]
        return build_world(persona, scenario, self.seed * 1000 + index // len(pairs), self.size)


def scenario_of(world_id: str) -> str:
    """The scenario id in a world id `<persona>-<scenario>-<seed>` (as the builder writes them)."""
    parts = world_id.split("-")
    return parts[1] if len(parts) >= 3 else "unknown"
