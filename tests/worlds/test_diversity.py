"""Near-duplicate detection: planted near-duplicates are caught (rephrased fillers, the same change in
other words), distinct tasks are not flagged, synthesis drops them before validation, and the report
counts what it should."""

from __future__ import annotations

import pytest

from factory.tasks.diversity import NearDuplicateIndex, diversity_report, fingerprint, jaccard, shingles
from factory.tasks.families import FAMILIES
from factory.tasks.synthesize import SynthConfig, synthesize
from factory.worlds.catalog import SCENARIOS

N = 2 * len(FAMILIES)  # every family at least once, however many the apps bring (some skip some worlds)
TASKS = synthesize(SynthConfig(n=N, seed=9))


def _planted(task, instruction=None, **context):
    return task.model_copy(update={"id": task.id + "-copy", "instruction": instruction or task.instruction,
                                   "answer_context": {**task.answer_context, **context}})


def test_synthesized_tasks_are_distinct_and_counted():
    report = diversity_report(TASKS)
    assert report.tasks == N and report.near_duplicate_rate == 0.0 and report.near_duplicate_pairs == 0
    assert sum(report.by_family.values()) == N and set(report.by_family) == set(FAMILIES)
    assert set(report.by_scenario) <= set(SCENARIOS) and len(report.by_scenario) >= 20
    assert sum(report.by_difficulty.values()) == N and sum(report.similarity.values()) == N
    assert report.worlds >= 20  # tasks come from many generated worlds, not a handful


def test_planted_near_duplicates_are_caught():
    base = next(t for t in TASKS if t.meta.family == "mail.star_invoice_email")
    reworded = _planted(base, "Hey! " + base.instruction.replace(".", "").upper() + " Thanks a lot.", subject="other")
    same_change = _planted(base, "Completely different words, the same target, see the context.")
    report = diversity_report([*TASKS, reworded, same_change])
    assert report.near_duplicate_tasks == 3 and report.near_duplicate_pairs == 2  # each copy with the base, not with each other
    index = NearDuplicateIndex()
    index.add(base.id, fingerprint(base.meta.family, base.instruction, base.answer_context))
    assert index.match(fingerprint(base.meta.family, reworded.instruction, reworded.answer_context)) == base.id
    assert index.match(fingerprint(base.meta.family, same_change.instruction, same_change.answer_context)) == base.id


def test_distinct_tasks_are_not_flagged():
    a = "Star the email from Brightline Print Co with invoice BPC-1234 so I don't lose track of it."
    b = "Star the email from Inkwell Press with invoice IP-98765 so I don't lose track of it."
    assert jaccard(shingles(a), shingles(b)) < 0.5
    index = NearDuplicateIndex()
    for t in TASKS:
        fp = fingerprint(t.meta.family, t.instruction, t.answer_context)
        assert index.match(fp) is None, t.id
        index.add(t.id, fp)
    same_words_other_family = next(t for t in TASKS if t.meta.family != "mail.star_invoice_email")
    assert index.match(fingerprint("mail.star_invoice_email", same_words_other_family.instruction, {"x": 1})) is None


def test_synthesis_drops_near_duplicates_before_validation():
    one_world = SynthConfig(n=30, seed=2, personas=("rosa",), scenarios=("month_end",), worlds_per_pair=1,
                            families=("mail.star_invoice_email", "drive.rename_document", "calendar.rsvp_yes"))  # so they repeat
    dropped: list[str] = []
    tasks = synthesize(one_world, dropped=dropped)
    assert dropped and all("near-duplicate of" in line for line in dropped)
    assert diversity_report(tasks).near_duplicate_pairs == 0
    exact_only = synthesize(one_world.model_copy(update={"near_duplicate_threshold": 1.0}))
    assert diversity_report(exact_only, threshold=1.0).near_duplicate_pairs == 0


def test_a_bad_threshold_is_refused():
    with pytest.raises(ValueError, match="threshold must be in"):
        NearDuplicateIndex(threshold=0)


def test_the_dataset_card_reports_diversity(tmp_path):
    from flows.dataset import export

    card = (export(TASKS[:24], tmp_path / "ds") / "README.md").read_text()
    report = diversity_report(TASKS[:24])
    assert "## Diversity" in card and f"24 tasks from {report.worlds} distinct worlds in {len(report.by_scenario)} scenarios" in card
    assert "0.0% of the tasks" in card
