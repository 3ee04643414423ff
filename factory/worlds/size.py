"""Size knobs of a generated world: how many people and documents, how much history, how many distractors.

Every knob has a range; a value outside it is a `WorldSizeError` naming the knob, the value and the
range (one line), raised before anything is built.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contracts.errors import InputError

__all__ = ["WorldSize", "WorldSizeError", "world_size"]


class WorldSizeError(InputError, ValueError):
    """A size knob outside its range; the message names the knob and the range."""


class WorldSize(BaseModel):
    """How big a generated world is. The defaults give worlds of about the fixtures' size."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    people: int = Field(default=14, ge=6, le=400, description="People besides the user: colleagues, family, vendors', clients' and services' contacts.")
    documents: int = Field(default=8, ge=0, le=1000, description="Routine documents in the drive besides the ones the scenario writes.")
    history_days: int = Field(default=60, ge=14, le=730, description="Days of bank and mail history before the clock.")
    distractor_rate: float = Field(default=0.3, ge=0.0, le=1.0, description="Chance of each distractor: near-duplicate names, similar amounts, outdated versions.")


def world_size(**knobs: object) -> WorldSize:
    """A `WorldSize` from knob values, or WorldSizeError in one line that names the bad knob and its range."""
    try:
        return WorldSize(**knobs)
    except ValidationError as err:
        first = err.errors()[0]
        knob = ".".join(str(p) for p in first["loc"]) or "world size"
        field = WorldSize.model_fields.get(knob)
        bounds = ""
        if field is not None:
            lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
            hi = next((m.le for m in field.metadata if hasattr(m, "le")), None)
            if lo is not None and hi is not None:
                bounds = f"; it must be between {lo:g} and {hi:g}"
        known = ", ".join(WorldSize.model_fields)
        hint = bounds if field is not None else f"; known knobs: {known}"
        raise WorldSizeError(f"world size knob {knob}={first.get('input')!r}: {first['msg']}{hint}") from None
