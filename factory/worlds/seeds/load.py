"""Projections put to the real apps: each world's seed records create an instance on the app's own
server (the kit validates every row against the app's models), and the instance's state dump holds
every row the projection wrote. A bad seed is a 422 from the app, recorded with its reason."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from mocked_apps.kit import AppServer
from mocked_apps.kit.client import AdminError
from mocked_apps.kit.identity import IDENTITY_KEY

from contracts.world import World
from . import PROJECTIONS, seeds_for

__all__ = ["AppLoad", "load_on_apps"]


class AppLoad(BaseModel):
    """What one app made of the projections of many worlds."""

    app: str
    worlds: int = 0
    created: int = Field(default=0, description="Instances created and dumped with every projected row.")
    seed_errors: list[str] = Field(default_factory=list, description="'<world>: <the app's reason>' for each rejected seed.")
    row_mismatches: list[str] = Field(default_factory=list, description="'<world>: <table> has N rows, projected M'.")
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.created == self.worlds and not self.seed_errors and not self.row_mismatches


def load_on_apps(worlds: Iterable[World], apps: Sequence[str] | None = None) -> dict[str, AppLoad]:
    """Every world's projection for every app in `apps` (default: all with a projection) loaded into
    a real instance on one server per app; instances are deleted after their dump."""
    import time

    worlds = list(worlds)
    out: dict[str, AppLoad] = {}
    for app in apps or sorted(PROJECTIONS):
        result = AppLoad(app=app)
        started = time.monotonic()
        with AppServer(app) as server:
            for world in worlds:
                result.worlds += 1
                records = seeds_for(world, [app])[app]
                try:
                    inst = server.admin.create(records, world.scenario.clock.isoformat())
                except AdminError as err:
                    result.seed_errors.append(f"{world.id}: {err}")
                    continue
                dump = server.admin.state(inst["instance_id"])
                server.admin.delete(inst["instance_id"])
                wrong = [f"{world.id}: {table} has {len(dump.get(table, []))} rows, projected {len(rows)}"
                         for table, rows in records.items() if table != IDENTITY_KEY and len(dump.get(table, [])) != len(rows)]
                result.row_mismatches += wrong
                result.created += not wrong
        result.seconds = round(time.monotonic() - started, 2)
        out[app] = result
    return out
