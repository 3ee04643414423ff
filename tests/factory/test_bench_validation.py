"""`gymfactory bench validation` at toy scale (STYLE 11): it runs, validates with probes on, without and with the recall
checks, and on the path before and the default path side by side, and reports its numbers: tasks per minute, recall and
precision per family, and per path CPU seconds per task, tasks per CPU-hour, recall, precision and plants rejected."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gymfactory.cli import build


def test_bench_validation_at_toy_scale(tmp_path, monkeypatch):
    monkeypatch.setenv("GYMFACTORY_HOME", str(tmp_path / "home"))
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(build(), ["bench", "validation", "--tasks", "3", "--runs", "2", "--concurrency", "2", "--out", str(out),
                                          "--plants", "1", "--family", "drive.invoice_due_date", "--family", "ride.rate_trip"])
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    assert numbers["tasks"] == 3 and numbers["probes_on"] is True and numbers["recall_on"] is True
    assert numbers["accepted"] == numbers["accepted_without_recall"] == 3, numbers["by_family"]
    assert numbers["tasks_per_min"] > 0 and numbers["tasks_per_min_without_recall"] > 0 and numbers["recall_cost"] < 1
    assert numbers["probes_per_task"] > 5 and numbers["recall_variants_per_task"] >= 1 and numbers["cpu_s_per_task"] > 0
    kinds = numbers["cpu_s_per_task_by_kind"]  # the browser is counted (it is no child we reap ourselves)
    assert kinds["chromium"] > 0 and kinds["this process"] > 0 and kinds["app servers"] > 0
    due = numbers["by_family"]["drive.invoice_due_date"]
    assert due["recall"] == 1.0 and due["variants"] >= 10 and due["precision"] == 1.0 and due["probes"] > 5
    assert numbers["by_family"]["ride.rate_trip"]["recall"] == 1.0  # the note beside the rating
    planted = [row for row in numbers["by_family"].values() if row["plants"]]  # --plants 1: one task's defects, all rejected
    assert len(planted) == 1 and planted[0]["plants"] >= 10 and planted[0]["plants_rejected"] == 1.0
    assert "tasks/min with recall" in result.output and "recall costs" in result.output
    before, default = numbers["paths"]["before"], numbers["paths"]["default"]
    assert before["replayed_runs"] == 0 and default["replayed_runs"] == 3 and not default["replay_misses"]  # 2 runs: run 2 replayed
    for path in (before, default):
        assert path["accepted"] == 3 and path["recall"] == 1.0 and path["precision"] == 1.0 and path["plants_rejected"] == 1.0
        assert path["cpu_s_per_task"] > 0 and path["tasks_per_cpu_hour"] > 0 and path["cpu_s_per_task_by_kind"]["chromium"] > 0
    assert numbers["same_verdicts"] == 3 and numbers["speedup_per_cpu_hour"] > 0
    assert "side by side" in result.output and "tasks per CPU-hour of the path before" in result.output
