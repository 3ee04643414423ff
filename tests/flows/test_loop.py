"""Three rounds of the loop at toy scale, for real (apps, browser, validation, Prefect): an agent that never confirms
is diagnosed with `confirm`, the share of new tasks that exercise it rises round over round, and the round report
shows held-out success per capability."""

from __future__ import annotations

import json
import time

import pyarrow.parquet as pq

from contracts.taskfiles import load_tasks
from flows.loop import LoopConfig, loop_flow
from runtime.store import TrajectoryStore

FAMILIES = ("bank.transfer_to_savings", "calendar.rsvp_yes", "drive.rename_document", "mail.star_invoice_email",
            "calendar.book_meeting", "cross.pay_invoice_from_drive")


def test_three_rounds_target_the_weak_capability(prefect_server, tmp_path):
    config = LoopConfig(out=tmp_path / "run", rounds=3, agent="flawed-confirm", agents=("flawed-confirm",),
                        synth=dict(families=FAMILIES, personas=("alex",), scenarios=("month_end",), seed=3), base_tasks=4, heldout_tasks=3, new_tasks=6,
                        validation_runs=1, concurrency=2, batch=3, max_steps=30, screenshots=False)
    started = time.monotonic()
    summary = loop_flow(config)
    seconds = time.monotonic() - started
    rounds = summary["rounds"]
    shares = [r["targeted_share"] for r in rounds]
    print(f"loop: {seconds:.0f}s; targeted share per round {shares}; tops {[r['top'] for r in rounds]}; "
          f"held-out {[r['heldout_success'] for r in rounds]}")
    assert [r["top"] for r in rounds] == [["confirm"]] * 3
    assert shares[0] < shares[1] < shares[2], shares
    for r in range(1, 4):  # the measured share is the share of accepted new tasks that exercise confirm
        tasks = load_tasks(tmp_path / "run" / "loop" / f"round-{r}" / "tasks.jsonl")
        assert tasks and abs(sum("confirm" in t.meta.capabilities for t in tasks) / len(tasks) - shares[r - 1]) < 1e-3
        lineage = json.loads((tmp_path / "run" / "loop" / f"round-{r}" / "lineage.json").read_text())
        assert lineage["parent_run"] == str(tmp_path / "run") and lineage["top_capabilities"][0] == "confirm"
        dataset = tmp_path / "run" / "loop" / f"round-{r}" / "dataset"
        assert json.loads((dataset / "lineage.json").read_text()) == lineage and list((dataset / "data").glob("train-*.parquet"))
        targeted = [t for t in tasks if t.meta.provenance == "regenerated:targeted"]
        assert targeted and all(t.meta.parents for t in targeted)  # variants of the failed tasks
    report = json.loads((tmp_path / "run" / "loop" / "report.json").read_text())
    assert all(row["heldout_success"] for row in report["rounds"])
    md = (tmp_path / "run" / "loop" / "report.md").read_text()
    assert "| round |" in md and "confirm" in md and md.count("\n| ") >= 4


def test_the_loops_attempts_keep_their_screenshots_sampled_under_the_runs_bound(prefect_server, tmp_path):
    """As the run's rollouts do (`--replay-sample`, `--replay-max-mb`): every attempt drawn, under a 1 KB bound that the
    first one exceeds, so the later ones keep none; the round's dataset embeds its golden screenshots from OUT/objects."""
    out = tmp_path / "run"
    config = LoopConfig(out=out, rounds=1, agent="random", agents=("random",), base_tasks=2, heldout_tasks=1, new_tasks=1,
                        synth=dict(families=("drive.rename_document", "mail.star_invoice_email"), personas=("alex",),
                                   scenarios=("month_end",), seed=5),
                        validation_runs=1, concurrency=1, batch=2, max_steps=3, replay_sample=1.0, replay_max_mb=0.001)
    summary = loop_flow(config)
    store = TrajectoryStore(out / "loop" / "trajectories.db")
    try:
        attempts = store.attempts(agent="random")
        steps = {a.id: store.steps(a.id) for a in attempts}
    finally:
        store.close()
    n = len(load_tasks(out / "loop" / "base.jsonl"))  # the validated pool: training tasks and the held-out one
    assert n >= 2 and len(attempts) == n  # one browser slot: one attempt after the other
    assert [a.info["screenshots"] for a in attempts] == ["kept"] + ["over_bound"] * (n - 1)
    kept, *later = attempts
    assert kept.info["objects"] == "../objects" and kept.info["screenshot_bytes"] > 1000
    assert steps[kept.id] and all(s.screenshot and (out / "objects" / s.screenshot).is_file() for s in steps[kept.id])
    assert all(steps[a.id] and not any(s.screenshot for s in steps[a.id]) for a in later)
    replay = summary["replay"]
    assert (replay["attempts"], replay["kept"], replay["over_bound"], replay["sampled_out"]) == (n, 1, n - 1, 0)
    assert f"of the non-golden agents' {n} attempts, 1 kept theirs" in (out / "loop" / "report.md").read_text()
    assert summary["rounds"][0]["new_tasks"] >= 1
    demos = [r for p in (out / "loop" / "round-1" / "dataset" / "demonstrations").glob("*.parquet") for r in pq.read_table(p).to_pylist()]
    assert demos and all(r["screenshot"]["path"].startswith("objects/")
                         and (out / r["screenshot"]["path"]).read_bytes() == r["screenshot"]["bytes"] for r in demos)


def test_regenerate_and_loop_commands_name_a_bad_option(tmp_path):
    from typer.testing import CliRunner

    from gymfactory.cli import build

    result = CliRunner().invoke(build(), ["regenerate", "--from", str(tmp_path)], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "no rollouts/trajectories.db there" in result.output
    result = CliRunner().invoke(build(), ["loop", "--agent", "goldne", "--out", str(tmp_path)], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "did you mean golden" in result.output
    result = CliRunner().invoke(build(), ["loop", "--agent", "random", "--rounds", "0", "--out", str(tmp_path)], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "--rounds" in result.output


def test_the_loop_trains_the_policy_between_rounds(prefect_server, tmp_path):
    """--train at toy scale (a tiny policy so it fits the suite; the reference model's rounds are in docs/learning.md): each
    round's regenerated tasks train the policy, the next round rolls out the new checkpoint, and the final one is measured."""
    from rl.policy import build_tiny_policy

    corpus = ['[1] link "Inbox"\n[2] button "Star"\nclick(2)\nanswer("")', "You operate web apps in a desktop browser"] * 50
    tiny = build_tiny_policy(tmp_path / "tiny", corpus, vocab_size=400, n_positions=4096, n_embd=32)
    config = LoopConfig(out=tmp_path / "run", rounds=2, agent="policy", agents=("policy",), model=str(tiny), train=True,
                        train_sft_epochs=1, train_steps=1, train_lr=2e-3, train_layers=0,
                        synth=dict(families=("mail.star_invoice_email", "calendar.rsvp_yes"), personas=("alex",),
                                   scenarios=("month_end",), seed=5),
                        base_tasks=2, heldout_tasks=2, new_tasks=2, validation_runs=1, concurrency=2, batch=2, max_steps=3,
                        screenshots=False)
    rounds = loop_flow(config)["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, "final"]
    assert rounds[0]["policy"] == str(tiny)
    for before, after in zip(rounds, rounds[1:]):  # each round rolls out what the previous round trained
        assert before["training"]["from"] == before["policy"] and after["policy"] == before["training"]["checkpoint"]
        assert before["training"]["demos"] >= 1 and before["training"]["grpo_steps"] == 1
        assert (tmp_path / "run" / "loop" / f"round-{before['round']}" / "train" / "checkpoints").is_dir()
    assert all(r["heldout_success"] and r["heldout_overall"] is not None for r in rounds)
    md = (tmp_path / "run" / "loop" / "report.md").read_text()
    assert "| final |" in md and "| demonstrations |" in md and "GRPO steps" in md


def test_loop_training_needs_a_model_agent(tmp_path):
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="--agent must be one of reference, policy"):
        LoopConfig(out=tmp_path, agent="random", train=True)
