"""`gymfactory bench transfer` at toy scale: the held-out apps never trained on, nested training sets of the same size
from the dataset `gymfactory run` exports, and the check that no MiniWoB++ page or utterance reaches training."""

from __future__ import annotations

import json
import re

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from bench.transfer import TransferConfig, miniwob_leaks, split_apps, spread, training_rows
from contracts.taskfiles import load_tasks
from flows.dataset_columns import heldout_of
from gymfactory.cli import build
from mocked_apps.catalogue import compiled
from mocked_apps.registry import SHIPPED
from rl.policy import build_tiny_policy
from tests.rl.notes_instances import notes_instances

CORPUS = ['[1] link Inbox\n[2] button Star\nclick(2)\nanswer("")', "You operate web apps in a desktop browser"] * 50


def test_held_out_apps_follow_the_dataset_rule_and_no_training_set_holds_one():
    split = split_apps(seed=0)
    assert set(split.held_out_hand_made) == set(heldout_of(SHIPPED)) == {"mail", "projects", "travel"}
    assert set(split.held_out_compiled) <= set(heldout_of(compiled())) and len(split.held_out_compiled) >= 20
    assert not set(split.order) & set(split.held_out)
    assert len(split.order) == len(set(split.order)) > 150
    small, large = split.apps(8), split.apps(40)
    assert len(small) == 8 and large[:8] == small and split.apps(0) == split.order  # nested
    assert split_apps(seed=1).order != split.order and split_apps(seed=0) == split  # the seed draws the order


def test_spread_takes_apps_then_families_round_robin():
    tasks = notes_instances(6, seed=1)
    other = [t.model_copy(update={"id": f"x{i}", "apps": ("food",)}) for i, t in enumerate(notes_instances(2, seed=2))]
    picked = spread(tasks + other, 4)
    notes = tasks[0].apps[0]
    assert [t.apps[0] for t in picked] == [notes, "food", notes, "food"]
    assert len(spread(tasks, 100)) == 6


@pytest.mark.parametrize("sizes, why", [((40, 8), "must ascend"), ((0, 8), "must ascend"), ((-1,), "app counts")])
def test_bad_sizes_are_refused(sizes, why):
    with pytest.raises(ValidationError, match=why):
        TransferConfig(sizes=sizes)


def test_miniwob_in_training_is_caught_and_clean_data_passes():
    clean = {"task_id": "pawcare.appointment.move-1", "instruction": "Confirm appointment Kelly", "url": "http://127.0.0.1:5/i/ab/",
             "axtree": "[1] link Home"}
    utterance = "Select 7qPX and click Submit."
    assert miniwob_leaks([clean], [utterance]) == []
    page = clean | {"task_id": "a", "url": "file:///site-packages/miniwob/html/miniwob/click-test.html"}
    said = clean | {"task_id": "b", "instruction": " select 7qpx and click submit."}
    shown = clean | {"task_id": "c", "axtree": f"text: Please {utterance} now"}
    assert [x.split(":")[0] for x in miniwob_leaks([page, said, shown], [utterance])] == ["a", "b", "c"]
    assert miniwob_leaks([clean | {"axtree": "[4] button OK\ntext: Click OK."}], ["Click OK."]) == []  # too short to be MiniWoB's


def test_bench_transfer_runs_end_to_end_and_resumes(tmp_path):
    policy = build_tiny_policy(tmp_path / "tiny", CORPUS, vocab_size=400, n_positions=4096, n_embd=32)
    out = tmp_path / "bench"
    args = ["bench", "transfer", "--out", str(out), "--policy", str(policy), "--trainable-layers", "0", "--sizes", "1",
            "--demos", "2", "--held-out", "2", "--held-out-worlds", "1", "--sft-epochs", "1", "--max-steps", "2", "--concurrency", "2",
            "--miniwob-tasks", "click-test", "--miniwob-timers", "off", "--miniwob-timers", "on", "--refs", "name"]
    result = CliRunner().invoke(build(), args, env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    done = json.loads((out / "transfer.json").read_text())
    split = done["split"]
    label = "apps-1"
    assert {(r["checkpoint"], r["split"]) for r in done["rows"]} == {(c, s) for c in ("zero-shot", label) for s in ("apps", "worlds")}
    held = load_tasks(out / "tasks" / "held-out-apps.picked.jsonl")
    assert len(held) == 2 and all(t.apps[0] in split["held_out_hand_made"] + split["held_out_compiled"] for t in held)
    picked = load_tasks(out / "data" / label / "picked.jsonl")
    assert len(picked) == 2 and {t.apps[0] for t in picked} == {split["order"][0]}  # the set's one app, from its dataset
    assert "--catalogue" in (out / "data" / label / "command.txt").read_text()
    worlds = json.loads((out / "evals" / f"{label}-worlds.json").read_text())["instances"]
    world_of = {t.id: t.world for t in load_tasks(out / "tasks" / "held-out-worlds.jsonl")}
    assert not {world_of[i] for i in worlds} & {t.world for t in picked}  # held-out worlds are not trained on
    assert done["sets"][label]["demos"] == 2 and done["sets"][label]["train"]["loss_after"] is not None
    assert done["sets"][label]["held_out_worlds_trained"] == 0
    assert {(m["agent"], m["timer"]) for m in done["miniwob"]} == {(a, t) for a in ("random", "zero-shot", label) for t in ("on", "off")}
    assert json.loads((out / "leaks.json").read_text()) == {"utterances_checked": 6, "leaks": []}
    golden = json.loads((out / "tasks" / "golden-steps.json").read_text())  # each held-out instance's golden, run once
    assert set(golden) == {t.id for t in held} | set(worlds) and all(n >= 1 for n in golden.values())
    for row in done["rows"]:  # success within the step budget counts only the instances whose golden fits it
        assert row["within_budget"]["n"] == sum(golden[i] <= 2 for i in json.loads(
            (out / "evals" / f"{row['checkpoint']}-{row['split']}.json").read_text())["instances"])
    report = (out / "transfer.md").read_text()
    assert len(training_rows(out)) >= 2 and "held-out" in report and "elements named by name" in report
    assert json.loads((out / "train" / label / "config.json").read_text())["refs"] == "name"  # the SFT read names, not ids
    assert "target >= 20%" in report and "target >= 10 points" in report and "target < 3 h" in report
    # every checkpoint scored on each held-out golden step within the budget, in names as it was trained
    assert {(r["checkpoint"], r["split"]) for r in done["steps"]} == {(c, s) for c in ("zero-shot", label) for s in ("apps", "worlds")}
    demos = [json.loads(x) for x in (out / "tasks" / "golden-demos.jsonl").read_text().splitlines()]
    assert {d["task_id"] for d in demos} == {t.id for t in held} | set(worlds)
    for r in done["steps"]:
        scores = json.loads((out / "evals" / f"{r['checkpoint']}-{r['split']}-steps.json").read_text())["scores"]
        assert scores and all(s["step"] < 2 for s in scores) and r["steps"] + r["stop_steps"] == len(scores)
        assert not any(re.match(r"(click|fill|select)\(\d", s["golden"]) for s in scores)  # names, as the checkpoints learnt
        assert 0 <= r["action"] <= r["element"] <= r["kind"] <= 1 and r["action_ci"][0] <= r["action"] <= r["action_ci"][1]
    assert "teacher-forced" in report
    for label_, row in done["failures"].items():  # every failed held-out-app attempt is read back from the store
        evaluated = json.loads((out / "evals" / f"{label_}-apps.json").read_text())["instances"].values()
        assert row["attempts"] == 2 and row["failed"] == sum(not i["greedy"] for i in evaluated)
        assert all(n <= row["failed"] for n in row["traits"].values())

    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "evals").iterdir()}
    again = CliRunner().invoke(build(), args, env={"COLUMNS": "200"}, catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert {p.name: p.stat().st_mtime_ns for p in (out / "evals").iterdir()} == stamps  # nothing evaluated twice
    assert f"{label}: gymfactory run" in result.output and f"{label}: gymfactory run" not in again.output  # the data was cached

    # a MiniWoB++ phase cut short keeps the episodes it finished (OUT/miniwob/*.partial.jsonl) and runs only the rest
    phase = out / "miniwob" / f"{label}-timer-on.json"
    finished = json.loads(phase.read_text())["episodes"]
    phase.unlink()
    partial = phase.with_suffix(".partial.jsonl")
    partial.write_text("".join(json.dumps(e) + "\n" for e in finished))
    third = CliRunner().invoke(build(), args, env={"COLUMNS": "200"}, catch_exceptions=False)
    assert third.exit_code == 0, third.output
    assert "1 episode kept from an earlier sitting" in third.output and not partial.exists()
    assert json.loads(phase.read_text())["episodes"] == finished


def test_training_on_a_folder_that_is_no_dataset_is_refused_naming_it(tmp_path):
    from rl.config import TrainConfig
    from rl.demos import DemonstrationsError, dataset_demos

    with pytest.raises(ValidationError, match="--demonstrations .*not a dataset folder"):
        TrainConfig(tasks=tmp_path / "t.jsonl", out=tmp_path / "o", demonstrations=tmp_path)
    with pytest.raises(DemonstrationsError, match="no demonstrations config"):
        dataset_demos(tmp_path, notes_instances(1, seed=1))
