"""`gymfactory bench learn` end to end at toy scale: real synthesis, validation, apps, browser, SFT and GRPO, on a tiny
policy so it fits the suite (the benchmark's numbers come from the reference model, run by hand: docs/learning.md)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bench.learn import bootstrap, split_by_world
from contracts.taskfiles import load_tasks
from gymfactory.cli import build
from rl.policy import build_tiny_policy

CORPUS = ['[1] link "Inbox"\n[2] button "Star"\nclick(2)\nanswer("")', "You operate web apps in a desktop browser"] * 50


def test_bootstrap_interval_brackets_the_mean_and_shrinks_with_more_data():
    lo, hi = bootstrap([1.0, 0.0] * 10)
    assert lo < 0.5 < hi
    lo2, hi2 = bootstrap([1.0, 0.0] * 200)
    assert hi2 - lo2 < hi - lo
    assert bootstrap([1.0] * 8) == (1.0, 1.0)


def test_bench_learn_runs_end_to_end_and_resumes(tmp_path):
    policy = build_tiny_policy(tmp_path / "tiny", CORPUS, vocab_size=400, n_positions=4096, n_embd=32)
    out = tmp_path / "bench"
    args = ["bench", "learn", "--out", str(out), "--policy", str(policy), "--trainable-layers", "0", "--families",
            "mail.star_invoice_email", "--held-out-families", "notes.follow_by_place", "--train-instances", "2", "--held-out", "1",
            "--sft-epochs", "1", "--grpo-steps", "1", "--group-size", "2", "--tasks-per-step", "1", "--max-steps", "2",
            "--pass-k", "2", "--concurrency", "1"]
    result = CliRunner().invoke(build(), args, env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    learned = json.loads((out / "learn.json").read_text())
    cells = {(r["checkpoint"], r["split"]) for r in learned["rows"]}
    assert cells == {(c, s) for c in ("zero-shot", "sft", "sft+grpo") for s in ("worlds", "apps")}
    assert all(r["n"] == 1 and 0 <= r["greedy"] <= 1 for r in learned["rows"])
    assert set(learned["lifts"]) >= {"sft vs zero-shot (worlds)", "sft+grpo vs sft (apps)"}
    assert learned["train"]["demos"] == 2 and len(learned["train"]["grpo"]) == 1
    # held-out worlds never appear in training, held-out apps are other apps
    train = load_tasks(out / "tasks" / "train.jsonl")
    held = json.loads((out / "evals" / "zero-shot-worlds.json").read_text())["instances"]
    trained = {t.id: t for t in load_tasks(out / "tasks" / "trained-families.jsonl")}
    assert not {trained[i].world for i in held} & {t.world for t in train}
    apps = json.loads((out / "evals" / "zero-shot-apps.json").read_text())["instances"]
    assert all(i.startswith("notes.") for i in apps)
    assert "greedy success" in (out / "learn.md").read_text()

    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "evals").iterdir()}
    again = CliRunner().invoke(build(), args, env={"COLUMNS": "200"}, catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert {p.name: p.stat().st_mtime_ns for p in (out / "evals").iterdir()} == stamps  # nothing evaluated twice
    assert "validating" not in again.output  # the tasks were cached


def test_the_world_split_keeps_every_world_on_one_side():
    from tests.rl.notes_instances import notes_instances

    tasks = [t.model_copy(update={"world": f"w{i // 3}"}) for i, t in enumerate(notes_instances(12, seed=2))]
    train, held = split_by_world(tasks, 4, seed=0)
    assert len(held) == 4 and not {t.world for t in train} & {t.world for t in held}
