"""Shared, built once per session: two validated tasks, exported as a dataset folder with the run's evidence."""

from __future__ import annotations

import pytest

from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, accepted_task, validate_task
from flows.dataset import ExportOptions, export
from flows.dataset_columns import SplitOptions
from flows.run_evidence import RunEvidence
from runtime.manager import EnvironmentManager

FAMILIES = ("mail.star_invoice_email", "drive.rename_document")


@pytest.fixture(scope="session")
def manager(tmp_path_factory):
    with EnvironmentManager(screenshots=tmp_path_factory.mktemp("shots")) as m:
        yield m


@pytest.fixture(scope="session")
def validated(manager):
    """(accepted tasks, their validation results): validated for real, one run each."""
    tasks = synthesize(SynthConfig(n=2, families=FAMILIES, personas=("alex",), scenarios=("month_end",), worlds_per_pair=1, seed=5))
    results = [validate_task(t, manager, ValidationConfig(runs=1)) for t in tasks]
    assert all(r.accepted for r in results), [(r.reason, r.detail) for r in results]
    return [accepted_task(t, r) for t, r in zip(tasks, results)], results


@pytest.fixture(scope="session")
def dataset_folder(validated, tmp_path_factory):
    """The two tasks exported with their validation evidence, one family held out."""
    tasks, results = validated
    evidence = RunEvidence(validation={r.task_id: r for r in results},
                           demonstrations={r.task_id: [{"action": a} for a in r.golden_actions] for r in results})
    folder = tmp_path_factory.mktemp("export") / "dataset"
    return export(tasks, folder, evidence=evidence, options=ExportOptions(split=SplitOptions(by="family", heldout=(FAMILIES[1],))))
