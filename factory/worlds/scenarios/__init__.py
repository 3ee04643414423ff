"""The scenario catalogue: each a `ScenarioSpec` (data) that `factory.worlds.beats` expands."""

from __future__ import annotations

from .life import LIFE
from .spec import Beat, Bill, Booking, Cast, Doc, Mail, Meet, ScenarioSpec, Spend
from .trouble import TROUBLE
from .work import WORK

CATALOGUE: dict[str, ScenarioSpec] = {s.id: s for s in (*WORK, *LIFE, *TROUBLE)}
assert len(CATALOGUE) == len(WORK) + len(LIFE) + len(TROUBLE), "scenario ids must be unique"

__all__ = ["Beat", "Bill", "Booking", "CATALOGUE", "Cast", "Doc", "Mail", "Meet", "ScenarioSpec", "Spend"]
