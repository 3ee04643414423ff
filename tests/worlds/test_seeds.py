"""World seeds load into the real apps: the kit validates every row against the app's models.

Every app's projection is loaded by the kit's own instance store, in process (a second or less an app); the
hand-made apps, and a sample of the compiled ones drawn per commit (all with `--full`), through a real app server's
admin API too (seconds an app to start: all 216 through servers took 7.5 of the suite's 22 minutes).
"""

from __future__ import annotations

import functools

import pytest

from factory.worlds.builder import build_world
from factory.worlds.catalog import PERSONAS
from mocked_apps.kit.identity import IDENTITY_KEY
from factory.worlds.seeds import NoProjection, PROJECTIONS, seeds_for
from mocked_apps.kit import AppServer, load_package
from mocked_apps.kit.instances import InstanceStore
from mocked_apps.registry import resolve, shipped
from tests.support.sampling import sample

HAND_MADE = sorted(set(shipped()) & set(PROJECTIONS))
SERVED = sample(PROJECTIONS, 3, always=HAND_MADE)


@functools.cache
def _world(persona: str):
    return build_world(persona, "month_end", 11)


def _same_rows(app: str, records: dict, dump: dict) -> None:
    for table, rows in records.items():
        if table != IDENTITY_KEY:  # the signed-in user: kept by the kit, not a table of the dump
            assert len(dump[table]) == len(rows), (app, table)


@pytest.mark.parametrize("app", sorted(PROJECTIONS))
def test_every_apps_world_seeds_load_through_the_kit(app, tmp_path):
    store = InstanceStore(load_package(resolve(app)), tmp_path)
    for persona in sorted(PERSONAS):
        records = seeds_for(_world(persona), [app])[app]
        _same_rows(app, records, store.dump(store.create(records, _world(persona).scenario.clock.isoformat())))


@pytest.fixture(scope="module", params=SERVED)
def server(request):
    with AppServer(request.param) as s:
        yield request.param, s


def test_world_seeds_create_instances_on_the_real_app(server):
    app, srv = server
    for persona in sorted(PERSONAS):
        records = seeds_for(_world(persona), [app])[app]
        inst = srv.admin.create(records, _world(persona).scenario.clock.isoformat())
        _same_rows(app, records, srv.admin.state(inst["instance_id"]))


def test_cross_app_facts_agree():
    world = build_world("alex", "client_kickoff", 4)
    seeds = seeds_for(world, ["mail", "drive", "bank", "calendar"])
    open_invoice = next(i for i in world.invoices if not i.paid)
    drive_inv = next(r for r in seeds["drive"]["invoice"] if r["number"] == open_invoice.number)
    assert drive_inv["amount"] == open_invoice.amount
    assert open_invoice.filename in {a["filename"] for a in seeds["mail"]["attachment"]}
    vendor = world.org(open_invoice.vendor).name
    assert vendor in {p["name"] for p in seeds["bank"]["payee"]}
    kickoff = next(m for m in world.meetings if m.title.endswith("kickoff"))
    event = next(e for e in seeds["calendar"]["event"] if e["title"] == kickoff.title)
    assert event["start"] == kickoff.start.isoformat()


def test_unknown_app_has_no_projection():
    with pytest.raises(NoProjection, match="did you mean mail"):
        seeds_for(build_world("alex", "month_end", 0), ["mial"])
