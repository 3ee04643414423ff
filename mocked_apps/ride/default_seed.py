"""Writes seed.json: the projection of the default world the other hand-made apps' seeds come from.

That world is `build_world("alex", "month_end", 0)` moved 60 days on (its clock becomes 2026-03-02 09:00,
the seeds' clock) with the bank seed's card and checking account, so the ride app pays with the same cards as
the bank, rail and food. A maintainer's script (`python -m mocked_apps.ride.default_seed`); the app never imports it.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from contracts.world import World

from .projection import project

SHIFT = timedelta(days=60)
HERE = Path(__file__).parent
BANK_SEED = HERE.parent / "bank" / "seed.json"


def _shifted(value):
    """Every ISO date or datetime inside `value` moved by SHIFT."""
    if isinstance(value, dict):
        return {k: _shifted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shifted(v) for v in value]
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", value):
        return (datetime.fromisoformat(value) + SHIFT).isoformat()
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return (date.fromisoformat(value) + SHIFT).isoformat()
    return value


def default_world() -> World:
    from factory.worlds.builder import build_world  # the factory sits above the apps: only this script reaches up

    world = _shifted(build_world("alex", "month_end", 0).model_dump(mode="json"))
    bank = {a["kind"]: a for a in json.loads(BANK_SEED.read_text())["seed"]["account"]}
    for acc in world["accounts"]:
        if acc["kind"] in bank:
            acc["name"], acc["number"] = bank[acc["kind"]]["name"], bank[acc["kind"]]["number_masked"].split()[-1]
    return World.model_validate(world)


def main() -> None:
    world = default_world()
    seed = project(world)
    (HERE / "seed.json").write_text(json.dumps({"clock": world.scenario.clock.isoformat(), "seed": seed}, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
