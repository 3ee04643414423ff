"""Regenerate seed.json: `python -m mocked_apps.projects.make_seed`.

The default instance is the projection of the default world the other hand-made apps use (persona
'alex', scenario 'month_end', seed 0), moved to the shared default clock 2026-03-02 09:00: every dated
record (transactions, meetings, invoices, documents, messages) shifts by the same amount.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from factory.worlds.builder import build_world

from .projection import project

CLOCK = datetime(2026, 3, 2, 9, 0)


def default_world():
    world = build_world("alex", "month_end", 0)
    shift = CLOCK - world.scenario.clock
    days = shift.days
    return world.model_copy(update={
        "scenario": world.scenario.model_copy(update={"clock": CLOCK}),
        "transactions": tuple(t.model_copy(update={"posted": t.posted + shift}) for t in world.transactions),
        "meetings": tuple(m.model_copy(update={"start": m.start + shift, "end": m.end + shift}) for m in world.meetings),
        "invoices": tuple(i.model_copy(update={"issued": i.issued + timedelta(days=days), "due": i.due + timedelta(days=days)}) for i in world.invoices),
        "documents": tuple(d.model_copy(update={"modified": d.modified + shift}) for d in world.documents),
        "messages": tuple(m.model_copy(update={"sent": m.sent + shift}) for m in world.messages)})


if __name__ == "__main__":
    seed = json.loads(json.dumps(project(default_world()), default=str))
    Path(__file__).with_name("seed.json").write_text(json.dumps({"clock": CLOCK.isoformat(), "seed": seed}, indent=1, ensure_ascii=False) + "\n")
