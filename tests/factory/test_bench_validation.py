"""`gymfactory bench validation` at toy scale (STYLE 11): it runs, validates with probes on, and reports its numbers."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gymfactory.cli import build


def test_bench_validation_at_toy_scale(tmp_path, monkeypatch):
    monkeypatch.setenv("GYMFACTORY_HOME", str(tmp_path / "home"))
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(build(), ["bench", "validation", "--tasks", "3", "--runs", "1", "--concurrency", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    assert numbers["tasks"] == 3 and numbers["probes_on"] is True
    assert numbers["accepted"] == 3, numbers["by_family"]
    assert numbers["tasks_per_min"] > 0 and numbers["probes_per_task"] > 5 and numbers["cpu_s_per_task"] > 0
    kinds = numbers["cpu_s_per_task_by_kind"]  # the browser is counted (it is no child we reap ourselves)
    assert kinds["chromium"] > 0 and kinds["this process"] > 0 and kinds["app servers"] > 0
    assert "tasks/min" in result.output
