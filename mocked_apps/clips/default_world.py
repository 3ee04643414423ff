"""The default seed of a hand-made app: its projection of Alex Morgan's month-end world
(`build_world('alex', 'month_end', 0)`) moved in time so its clock is the kit's default clock, as rail's
and food's default seeds are. Regenerate (the builder lives upstairs in factory/, so it is passed in):

    .venv/bin/python -c "from factory.worlds.builder import build_world; from mocked_apps.clips.default_world \\
        import write_seed; write_seed('clips', build_world('alex', 'month_end', 0))"
"""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from importlib import import_module
from pathlib import Path

from contracts.world import World

__all__ = ["CLOCK", "moved", "write_seed"]

CLOCK = datetime(2026, 3, 2, 9, 0)
"""The kit's default clock (the clock of every default seed)."""


def _shift(value, delta: timedelta):
    """Every ISO date and datetime inside a JSON value, `delta` later."""
    if isinstance(value, dict):
        return {k: _shift(v, delta) for k, v in value.items()}
    if isinstance(value, list):
        return [_shift(v, delta) for v in value]
    if isinstance(value, str) and len(value) >= 10 and value[4:5] == "-" and value[7:8] == "-":
        try:
            return (datetime.fromisoformat(value) + delta).isoformat() if len(value) > 10 else (date.fromisoformat(value) + delta).isoformat()
        except ValueError:
            return value
    return value


def moved(world: World, clock: datetime = CLOCK) -> World:
    """The same world with every date and time moved so that its clock is `clock`."""
    return World.model_validate(_shift(world.model_dump(mode="json"), clock - world.scenario.clock))


def write_seed(app: str, world: World) -> Path:
    """Write `mocked_apps/<app>/seed.json`: the app's projection of `world` moved to the default clock."""
    records = import_module(f"mocked_apps.{app}.projection").project(moved(world))
    path = Path(__file__).resolve().parents[1] / app / "seed.json"
    path.write_text(json.dumps({"clock": CLOCK.isoformat(), "seed": records}, indent=1, ensure_ascii=False) + "\n")
    return path
