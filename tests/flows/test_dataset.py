"""Dataset export: the Hub layout loads with `datasets`, and two exports never share a cache entry."""

from __future__ import annotations

import json
import math
import re

import datasets
import pyarrow as pa
import pytest

from factory.tasks.synthesize import SynthConfig, synthesize
from flows.dataset import export
from tests.support.sampling import sample


def test_two_exports_named_dataset_each_load_their_own_rows(tmp_path):
    tasks = synthesize(SynthConfig(n=5, seed=11))
    export(tasks[:2], tmp_path / "a" / "dataset", {tasks[0].id: ["click(3)"]})
    export(tasks, tmp_path / "b" / "dataset")
    a = datasets.load_dataset(str(tmp_path / "a" / "dataset"), split="train")
    b = datasets.load_dataset(str(tmp_path / "b" / "dataset"), split="train")
    assert (len(a), len(b)) == (2, 5)
    assert a[0]["demonstration"] == [{"action": "click(3)", "url": "", "axtree": ""}] and json.loads(a[0]["task"])["id"] == tasks[0].id
    assert "configs:" in (tmp_path / "b" / "dataset" / "README.md").read_text()


def test_the_card_says_how_untrusted_code_ran(tmp_path, monkeypatch):
    from runtime import confine

    tasks = synthesize(SynthConfig(n=2, seed=3))
    card = (export(tasks, tmp_path / "dataset") / "README.md").read_text()
    assert f"ran {confine.mode()}" in card and "workspace_within_limits" in card
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine without bwrap, where the user opted out
    monkeypatch.setenv(confine.UNSAFE_ENV, "1")
    confine._probe.cache_clear()
    try:
        card = (export(tasks, tmp_path / "unsafe") / "README.md").read_text()
    finally:
        monkeypatch.undo()
        confine._probe.cache_clear()
    assert "UNCONFINED (--unsafe-no-confinement" in card


def test_a_key_that_mixes_text_and_numbers_across_families_is_stored_as_text_and_other_conflicts_stop():
    from flows.dataset_columns import ColumnConflict, _nested

    column = _nested("answer_context", [{"expected": 12.5, "kind": "number"}, {"expected": "Theatre Premiere", "kind": "text"}])
    assert column.to_pylist() == [{"expected": "12.5", "kind": "number"}, {"expected": "Theatre Premiere", "kind": "text"}]
    with pytest.raises(ColumnConflict, match="answer_context"):
        _nested("answer_context", [{"expected": {"a": 1}}, {"expected": "x"}])


def test_the_catalogue_lookups_answer_context_is_one_column_as_synthesized():
    from factory.tasks.families import with_catalogue

    lookups = tuple(sample([n for n in with_catalogue() if n.endswith(".lookup")], 12))  # every one under --full
    tasks = synthesize(SynthConfig(n=2 * len(lookups), seed=4, families=lookups, catalogue=True))
    assert {type(t.answer_context["expected"]) for t in tasks} == {str}
    assert len(pa.array([t.answer_context for t in tasks])) == len(tasks)


def test_the_catalogue_lookups_pass_the_review_rules():
    """Their verifiers once held the kind ('number', 'date') as a literal the review took for a hidden answer."""
    from factory.tasks.families import with_catalogue
    from factory.verifiers.review import rule_findings

    lookups = tuple(sample([n for n in with_catalogue() if n.endswith(".lookup")], 12))  # every one under --full
    tasks = synthesize(SynthConfig(n=2 * len(lookups), seed=4, families=lookups, catalogue=True))
    found = {t.id: f for t in tasks if (f := [x for x in rule_findings(t) if "'number'" in x or "'date'" in x])}
    assert not found, found


def test_a_nested_field_that_mixes_text_and_numbers_is_stored_as_text():
    from flows.dataset_columns import _nested

    column = _nested("answer_context", [{"values": [{"field": "amount", "value": 12}]},
                                        {"values": [{"field": "owner", "value": "Mr. Todd Miller"}]}])
    assert [v["values"][0]["value"] for v in column.to_pylist()] == ["12", "Mr. Todd Miller"]


def test_the_card_counts_each_app_and_family_in_either_split_and_states_the_held_out_rule(tmp_path):
    """A held-out split by app or by family, chosen by a hash of the names when none are named: the card lists the held-out
    ones, the rule, and each app's and each family's tasks in train and in heldout."""
    from flows.dataset import ExportOptions
    from flows.dataset_columns import SplitOptions, heldout_groups, split_of

    tasks = synthesize(SynthConfig(n=12, seed=11))
    plain = (export(tasks, tmp_path / "none") / "README.md").read_text()
    assert "No held-out split: `gymfactory publish RUN --repo ORG/NAME --holdout-by app`" in plain and "SHA-256" in plain
    for by, plural in (("app", "apps"), ("family", "families")):
        split = SplitOptions(by=by)
        card = (export(tasks, tmp_path / by, options=ExportOptions(split=split)) / "README.md").read_text()
        groups = {g for t in tasks for g in (t.apps if by == "app" else (t.meta.family,))}
        held = heldout_groups(tasks, split)
        assert len(held) == math.ceil(0.2 * len(groups)) and held == heldout_groups(tasks[::-1], split)  # not the tasks' order
        assert f"`heldout` holds out whole {plural}: {', '.join(held)};" in card
        assert f"the first ceil(20%) of the export's {plural}, ordered by the SHA-256 hex digest of each name" in card
        part = {t.id: split_of(t, by, held) for t in tasks}
        for app in {a for t in tasks for a in t.apps}:
            mine = [part[t.id] for t in tasks if app in t.apps]
            assert re.search(rf"^\| {re.escape(app)} \| {len(mine)} \| [^|]+ \| {mine.count('train')} \| {mine.count('heldout')} \|$",
                             card, re.M), app
            assert by != "app" or app not in held or mine.count("train") == 0
        for family in {t.meta.family for t in tasks}:
            mine = [part[t.id] for t in tasks if t.meta.family == family]
            assert re.search(rf"^\| {re.escape(family)} \| {len(mine)} \| (yes|no) \| {mine.count('train')} \| "
                             rf"{mine.count('heldout')} \|$", card, re.M), family


def test_the_card_tells_variants_apart_from_near_duplicates_and_says_only_what_holds(tmp_path):
    """A variants run's card: copies in another appearance are variants, not near-duplicates; install steps; no
    'actions only' line without such tasks; `--catalogue` with no compiled app among the tasks is explained."""
    from factory.tasks.synthesize import with_variants
    from flows.dataset import ExportOptions

    originals = synthesize(SynthConfig(n=4, seed=7))
    tasks = [v for t in originals for v in with_variants(t, 2)]
    card = (export(tasks, tmp_path / "dataset", options=ExportOptions(reproduce="gymfactory run --tasks 4 --catalogue"))
            / "README.md").read_text()
    assert "0.0% of the 4 distinct tasks" in card and "4 tasks are appearance variants of another" in card, card
    assert "100.0%" not in card
    assert "scripts/install.sh" in card and "actions only" not in card
    assert "though none of these tasks came from one" in card and "compiled from the catalogue" not in card
    with_actions = (export(originals, tmp_path / "plain", {originals[0].id: ["click(3)"]}) / "README.md").read_text()
    assert "the others actions only" in with_actions and "appearance variants" not in with_actions
    assert "of the tasks; synthesis drops those it finds before validation" in with_actions
