"""Regenerate seed.json: `python -m mocked_apps.shop.make_seed`.

The default instance is the projection of the default world the other hand-made apps use (persona
'alex', scenario 'month_end', seed 0), moved to the shared default clock 2026-03-02 09:00 (every dated
record shifts by the same amount) and paying with the bank's default card and checking account.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from factory.worlds.builder import build_world

from .projection import project

CLOCK = datetime(2026, 3, 2, 9, 0)
BANK = {"credit": ("Business Platinum Card", "1009"), "checking": ("Business Checking", "4821")}


def default_world():
    world = build_world("alex", "month_end", 0)
    shift = CLOCK - world.scenario.clock
    accounts = tuple(a.model_copy(update=dict(zip(("name", "number"), BANK[a.kind]))) if a.kind in BANK else a for a in world.accounts)
    return world.model_copy(update={
        "scenario": world.scenario.model_copy(update={"clock": CLOCK}), "accounts": accounts,
        "transactions": tuple(t.model_copy(update={"posted": t.posted + shift}) for t in world.transactions),
        "meetings": tuple(m.model_copy(update={"start": m.start + shift, "end": m.end + shift}) for m in world.meetings)})


if __name__ == "__main__":
    seed = json.loads(json.dumps(project(default_world()), default=str))
    Path(__file__).with_name("seed.json").write_text(json.dumps({"clock": CLOCK.isoformat(), "seed": seed}, indent=1, ensure_ascii=False) + "\n")
