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
