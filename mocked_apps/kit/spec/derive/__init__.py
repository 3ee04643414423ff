"""Task families derived from a spec's state machine: moves (one record or a chain of two), creations, lookups, and
cross-app ones where the spec maps a field to the world's people."""

from __future__ import annotations

from contracts.family import Family

from ..model import AppSpec
from .create import CreateRecord, create_families
from .cross import EventFromRecord, cross_families
from .lookup import LookupValue, lookup_families
from .move import MoveRecord, move_families


def derive_families(spec: AppSpec, ref: str = "") -> tuple[Family, ...]:
    """Every family the spec supports (an entity needs a table page to be found by search)."""
    return tuple(move_families(spec) + create_families(spec) + lookup_families(spec) + cross_families(spec))


__all__ = ["CreateRecord", "EventFromRecord", "LookupValue", "MoveRecord", "derive_families"]
