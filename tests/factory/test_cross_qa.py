"""Cross-app question families (`factory.tasks.families.cross_qa`): each validates through the real apps, browser and
sandbox, with the answer-spam probes and the answer-form recall."""

from __future__ import annotations

import pytest

from contracts.task import Task
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, ValidationResult, validate_tasks

FAST = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)
FAMILIES = ("cross.total_of_emailed_invoice", "cross.who_sent_invoice")


@pytest.fixture(scope="module")
def validated(manager) -> dict[str, tuple[Task, ValidationResult]]:
    """One instance of each family, validated once with every probe and recall on; family -> (task, result)."""
    tasks = [synthesize(SynthConfig(n=1, seed=11, families=(family,)), Author())[0] for family in FAMILIES]
    return {t.meta.family: (t, r) for t, r in zip(tasks, validate_tasks(tasks, manager, FAST, concurrency=2))}


@pytest.mark.parametrize("family", FAMILIES)
def test_the_family_validates_with_spam_probes_and_answer_forms(validated, family):
    task, result = validated[family]
    assert task.meta.cross_app and len(task.apps) == 2 and result.task_id == task.id
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert "answer_spam" in result.probe_kinds
    assert "answer_form" in result.recall_kinds and result.recall_paid == result.recall_tried >= 5
