"""The exported dataset: nested columns a trainer reads as they are, and a card whose run block really runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import datasets

from contracts.task import Task

ROOT = Path(__file__).resolve().parents[2]


def test_columns_are_nested_features_with_outcomes_versions_and_splits(dataset_folder, validated):
    tasks, _ = validated
    ds = datasets.load_dataset(str(dataset_folder))
    assert set(ds) == {"train", "heldout"} and (len(ds["train"]), len(ds["heldout"])) == (1, 1)
    row = ds["train"][0]
    task = Task.model_validate_json(row["task"])
    assert row["family"] == "mail.star_invoice_email" and ds["heldout"][0]["family"] == "drive.rename_document"
    assert row["criteria"] == [c.model_dump() for c in task.criteria]
    assert isinstance(row["seed"]["mail"]["message"], list) and row["seed"]["mail"]["message"][0]["id"] == task.seed["mail"]["message"][0]["id"]
    assert {k: v for k, v in row["answer_context"].items() if v is not None} == task.answer_context
    assert row["outcomes"]["accepted"] is True and row["outcomes"]["probes_failed"] > 0 and row["outcomes"]["golden_reward"] == 1.0
    assert row["app_versions"][0]["app"] == "mail" and len(row["app_versions"][0]["digest"]) == 64
    assert row["capabilities"] == list(task.meta.capabilities) == ["search", "disambiguate"]
    assert row["gymfactory_version"] and row["demonstration"] and row["demonstration"][0]["action"]
    features = ds["train"].features
    assert not isinstance(features["criteria"], datasets.Value) and not isinstance(features["seed"], datasets.Value)


def test_card_states_counts_reward_and_actions(dataset_folder):
    card = (dataset_folder / "README.md").read_text()
    assert "| mail.star_invoice_email | 1 | no |" in card and "| drive | 1 |" in card
    # star_invoice_email and rename_document both exercise search and disambiguate; only rename fills a form
    assert "| search | 2 |" in card and "| disambiguate | 2 |" in card and "| form_fill | 1 |" in card
    assert "reward = sum(w_j * b_j) / sum(w_j)" in card and "fill(12, \"text\")" in card
    assert "holds out whole families: drive.rename_document;" in card and "familys" not in card
    # each family's and app's tasks in train and in heldout, and how the held-out ones were chosen
    assert "| mail.star_invoice_email | 1 | no | 1 | 0 |" in card and "| drive.rename_document | 1 | no | 0 | 1 |" in card
    assert re.search(r"^\| drive \| 1 \| [^|]+ \| 0 \| 1 \|$", card, re.M) and "named when the dataset was exported" in card
    assert "license: cc-by-4.0" in card and "split: heldout" in card and "Validated 2 synthesized tasks, accepted 2" in card


def test_the_cards_run_block_runs_a_row_and_scores_it(dataset_folder):
    card = (dataset_folder / "README.md").read_text()
    block = re.search(r"## How to run a row.*?```python\n(.*?)```", card, re.S).group(1)
    done = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HF_DATASETS_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "status success reward 1.0" in done.stdout, done.stdout
