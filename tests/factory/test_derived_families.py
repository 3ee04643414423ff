"""Derived families of a compiled app: synthesized from a world, validated for real (golden, probes, footprint),
and cheated on: doing nothing, moving the wrong record, or answering every value scores no success."""

from __future__ import annotations

import pytest

from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, validate_tasks
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore

FAMILIES = ("pawcare.appointment.move", "pawcare.appointment.create", "pawcare.appointment.lookup",
            "cornerstore.delivery.move_two", "mediclinic.visit.to_calendar")


@pytest.fixture
def catalogue(monkeypatch):
    """The catalogue's families on; the registry's per-app cache emptied (an earlier test may have read it with them off)."""
    from factory.tasks.families import APP_FAMILIES

    monkeypatch.setenv("GYMFACTORY_CATALOGUE", "1")
    monkeypatch.setattr(APP_FAMILIES, "_loaded", {})


def test_derived_tasks_pass_validation_with_probes(catalogue, tmp_path):
    tasks = synthesize(SynthConfig(n=5, families=FAMILIES, personas=("alex",), scenarios=("month_end",), seed=2))
    assert sorted(t.meta.family for t in tasks) == sorted(FAMILIES)
    assert all(t.meta.capabilities and t.seed[t.apps[0]] for t in tasks)
    with EnvironmentManager(screenshots=ObjectStore(tmp_path / "shots")) as manager:
        results = validate_tasks(tasks, manager, ValidationConfig(verifier_timeout_s=5.0, golden_timeout_s=90.0))
    assert all(r.accepted for r in results), [(r.task_id, r.reason, r.detail[:300]) for r in results]
    assert all(r.probes > 0 for r in results)  # the probes (partial, wrong target, answer spam, ...) all failed
    assert all(r.verdicts["run1.initial"] and not all(r.verdicts["run1.initial"].values()) for r in results)



def test_a_derived_move_never_asks_for_a_move_whose_guard_fails_on_its_record():
    """feastly's `confirm` needs guests >= 20. With guests drawn from 10-30, some quoted events fail the guard; the
    detail page disables the move there, so a task asking for it could never be done. The plan never picks them."""
    import random

    from factory.worlds.pool import WorldPool
    from mocked_apps.catalogue import compiled
    from mocked_apps.kit.spec import read_spec
    from mocked_apps.kit.spec.derive.common import rows_of
    from mocked_apps.kit.spec.derive.move import _plan

    spec = read_spec(compiled()["feastly"])
    e = spec.entity("catering_event")
    fields = tuple(f.model_copy(update={"sample": [10, 30]}) if f.name == "guests" else f for f in e.fields)
    e = e.model_copy(update={"fields": fields})
    spec = spec.model_copy(update={"entities": tuple(e if x.name == e.name else x for x in spec.entities)})
    world = WorldPool(seed=2).world(0)
    rows = {r["id"]: r for r in rows_of(spec, world, e.name)}
    quoted = [r for r in rows.values() if r[e.state_field] == "quoted"]
    assert any(r["guests"] < 20 for r in quoted), "no quoted event fails the guard: the test would prove nothing"
    confirms = [p for p in (_plan(spec, e, world, random.Random(k), set()) for k in range(300)) if p and p["transition"] == "confirm"]
    assert confirms and all(rows[p["row_id"]]["guests"] >= 20 for p in confirms)


def test_a_number_the_task_asks_to_type_is_inside_the_fields_own_range():
    """bursarly's grade point average (0-4) was asked as 5.00: rounded to 5 whatever the range, so the form refused it
    and the create golden never reached its last step."""
    import random
    from datetime import datetime

    from mocked_apps.catalogue import compiled
    from mocked_apps.kit.spec import read_spec
    from mocked_apps.kit.spec.derive.common import choose_input

    spec = read_spec(compiled()["bursarly"])
    gpa = spec.entity("application").field("gpa")
    values = [choose_input(gpa, random.Random(k), datetime(2026, 3, 2), {}, spec)[0] for k in range(200)]
    assert all(0 <= v <= 4 for v in values) and len(set(values)) > 10
    wide = gpa.model_copy(update={"min": None, "max": None})  # the default 20-400: round fives, as before
    assert all(v % 5 == 0 and 20 <= v <= 400 for v in (choose_input(wide, random.Random(k), datetime(2026, 3, 2), {}, spec)[0]
                                                        for k in range(200)))
