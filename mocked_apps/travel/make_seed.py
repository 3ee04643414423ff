"""Regenerate seed.json, the default instance: the projection of the default world that rail and food use
(persona 'alex', scenario 'conference_talk', seed 0), moved in time so its clock is the kit's default
2026-03-02T09:00 (every date and time of the world shifted by the same number of days), with the bank's
default accounts (names and last digits), as rail and food pay with them.

    .venv/bin/python -m mocked_apps.travel.make_seed
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

from contracts.world import World
from mocked_apps.kit.compiler import DEFAULT_CLOCK

from .projection import project

__all__ = ["default_world", "shifted"]


def shifted(world: World, to: datetime) -> World:
    """The same world with every date and datetime moved so its clock is `to` (whole days)."""
    delta = to.date() - world.scenario.clock.date()

    def move(value):
        if isinstance(value, dict):
            return {k: move(v) for k, v in value.items()}
        if isinstance(value, list):
            return [move(v) for v in value]
        if isinstance(value, str) and len(value) >= 10 and value[4:5] == "-" and value[7:8] == "-":
            try:
                return (datetime.fromisoformat(value) + delta).isoformat() if "T" in value else (date.fromisoformat(value) + delta).isoformat()
            except ValueError:
                return value
        return value

    return World.model_validate(move(world.model_dump(mode="json")))


def _bank_accounts(world: World) -> World:
    """The world with its accounts named and numbered as in the bank app's default seed."""
    bank = json.loads((Path(__file__).parents[1] / "bank" / "seed.json").read_text())["seed"]["account"]
    names = {a["kind"]: (a["name"], a["number_masked"][-4:]) for a in bank}
    accounts = tuple(a.model_copy(update=dict(zip(("name", "number"), names[a.kind]))) if a.kind in names else a for a in world.accounts)
    return world.model_copy(update={"accounts": accounts})


def default_world() -> World:
    from factory.worlds.builder import build_world

    return _bank_accounts(shifted(build_world("alex", "conference_talk", 0), datetime.fromisoformat(DEFAULT_CLOCK)))


def main() -> None:
    seed = {"clock": DEFAULT_CLOCK, "seed": project(default_world())}
    Path(__file__).with_name("seed.json").write_text(json.dumps(seed, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
