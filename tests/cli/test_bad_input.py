"""Bad input through the real CLI: one line naming the input and the way out, a non-zero exit code, no traceback."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.providers import get_provider, provider_names
from factory.providers.scripted import ScriptedProvider
from contracts.taskfiles import TaskFileError, load_tasks
from flows.workdir import MarkerCorrupt, Workdir
from gymfactory.cli import build
from mocked_apps.registry import SHIPPED, register
from runtime.manager import Outcome
from runtime.store import StoreCorrupt, TrajectoryStore

TASK = Path(__file__).resolve().parents[1] / "fixtures" / "tasks" / "notes-create-rent.json"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("GYMFACTORY_HOME", str(folder))
    return folder


def cli(*args: str):
    result = CliRunner().invoke(build(), list(args), env={"COLUMNS": "300"})
    assert "Traceback" not in result.output, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


def error_line(result) -> str:
    """The one `error: ...` line, asserted to be the only one."""
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_an_unknown_app_suggests_the_near_name(home):
    result = cli("apps", "serve", "gmial")
    assert result.exit_code == 2
    assert error_line(result) == "error: unknown app 'gmial'; did you mean mail?"


@pytest.mark.parametrize("command", [["tasks", "synthesize", "--n", "1"], ["worlds", "build"]])
def test_an_unknown_provider_is_refused_before_anything_starts(home, tmp_path, command):
    out = tmp_path / "out"
    result = cli(*command, "--provider", "gpt", "--out", str(out / "x.jsonl" if command[0] == "tasks" else out))
    assert result.exit_code == 2
    assert error_line(result) == "error: unknown provider 'gpt'; known: anthropic, openai, template"
    assert not out.exists()  # nothing was written: the check ran first
    near = cli(*command, "--provider", "antropic", "--out", str(out / "x.jsonl" if command[0] == "tasks" else out))
    assert near.exit_code == 2 and "did you mean anthropic?" in error_line(near)


def test_the_test_only_provider_is_not_offered(home, tmp_path):
    assert "scripted" not in provider_names()
    result = cli("tasks", "synthesize", "--provider", "scripted", "--n", "1", "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and "unknown provider 'scripted'" in error_line(result)
    assert "scripted" not in error_line(result).split(";")[1]  # nor suggested
    assert isinstance(get_provider("scripted"), ScriptedProvider)  # tests still reach it from Python


def test_unknown_family_and_persona_get_did_you_mean(home, tmp_path):
    result = cli("tasks", "synthesize", "--family", "mail.star_invoice_emial", "--n", "1", "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and "did you mean mail.star_invoice_email" in error_line(result)
    result = cli("worlds", "build", "--persona", "nobody-at-all", "--out", str(tmp_path / "w"))
    assert result.exit_code == 2 and "unknown persona 'nobody-at-all'" in error_line(result)


def test_a_task_file_with_a_non_utf8_byte_names_the_file_and_line(home, tmp_path):
    bad = tmp_path / "tasks.jsonl"
    good = TASK.read_text().replace("\n", " ")
    bad.write_bytes(good.encode() + b"\n" + good.replace("Pay rent", "Pay r\xe9nt").encode("latin-1") + b"\n")
    with pytest.raises(TaskFileError, match=r"tasks.jsonl:2: byte 0xe9 at offset \d+ is not UTF-8"):
        load_tasks(bad)
    result = cli("rollout", "--agent", "golden", "--tasks", str(bad), "--store", str(tmp_path / "t.db"))
    assert result.exit_code == 2
    assert f"{bad}:2: byte 0xe9" in error_line(result) and "save the file as UTF-8" in error_line(result)
    assert not (tmp_path / "t.db").exists()  # refused before the store or any app was opened


def test_a_corrupt_trajectory_store_is_named_with_the_way_out(home, tmp_path):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(os.urandom(4096))
    result = cli("rollout", "--agent", "golden", "--tasks", str(TASK), "--store", str(garbage))
    assert result.exit_code == 2
    line = error_line(result)
    assert f"{garbage} is not a readable trajectory store" in line and "delete it" in line and "--store" in line
    # a real store cut in half (a disk full, a copy stopped midway)
    real = tmp_path / "real.db"
    store = TrajectoryStore(real)
    for i in range(200):
        attempt = store.start_attempt(f"task-{i}", "golden", info={"attempt": 0, "pad": "x" * 400})
        store.finish_attempt(attempt, Outcome(status="success", reward=1.0, success=True))
    store.close()
    with open(real, "r+b") as f:
        f.truncate(real.stat().st_size // 2)
    with pytest.raises(StoreCorrupt, match="real.db is not a readable trajectory store"):
        TrajectoryStore(real)


def test_a_truncated_stage_marker_is_named_with_fresh_as_the_way_out(home, tmp_path):
    out = tmp_path / "run"
    wd = Workdir(out)
    wd.finish("worlds", ["inputs"], {"worlds": 3}, 1.0)
    assert wd.done("worlds", ["inputs"]) == {"worlds": 3}
    assert [p.name for p in (out / "stages").iterdir()] == ["worlds.json"]  # written whole: no partial file left
    marker = out / "stages" / "worlds.json"
    marker.write_text(marker.read_text()[:20])
    with pytest.raises(MarkerCorrupt):
        wd.done("worlds", ["inputs"])
    result = cli("run", "--out", str(out), "--tasks", "8")
    assert result.exit_code == 2
    line = error_line(result)
    assert str(marker) in line and "--fresh" in line and "delete that file" in line
    assert "gymfactory run ->" not in result.output  # refused before the pipeline (and Prefect) started


def test_a_corrupt_apps_registry_still_lists_the_shipped_apps_and_names_the_file(home, tmp_path):
    register("notes", Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes")
    listed = cli("apps", "list")
    assert listed.exit_code == 0 and "notes" in listed.output
    (home / "apps.json").write_text('{"notes": "/some/where"')  # truncated
    result = cli("apps", "list")
    assert result.exit_code == 0, result.output
    for name in SHIPPED:
        assert name in result.output
    assert f"{home / 'apps.json'} is corrupt" in result.output and "delete it" in result.output
    serve = cli("apps", "serve", "mail")
    assert serve.exit_code == 2 and f"{home / 'apps.json'} is corrupt" in error_line(serve)
    (home / "apps.json").write_text(json.dumps(["not", "a", "mapping"]))
    assert "is not a JSON object" in cli("apps", "list").output
    shutil.rmtree(home)
    assert cli("apps", "list").exit_code == 0


def test_a_corrupt_store_in_a_run_folder_is_named_before_the_run_starts_and_fresh_clears_it(home, tmp_path):
    out = tmp_path / "run"
    store = out / "rollouts" / "trajectories.db"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"SQLite format 3\x00" + os.urandom(2000))  # a header, then garbage
    result = cli("run", "--out", str(out), "--tasks", "8")
    assert result.exit_code == 2
    line = error_line(result)
    assert f"{store} is not a readable trajectory store" in line and "--fresh" in line
    Workdir(out).reset()  # what --fresh does first: starting over also forgets the stored attempts
    assert not store.exists()
    Workdir(out).check()


@pytest.mark.parametrize("args, says", [
    (("rollout", "--agent", "golden", "--tasks", str(TASK), "--form-factor", "tablet"), "Invalid value for --form-factor"),
    (("rollout", "--tasks", str(TASK)), "Missing option '--agent'"),
], ids=["bad-value", "missing-option"])
def test_option_errors_are_one_line_naming_the_command(home, args, says):
    result = cli(*args)
    line = error_line(result)
    assert result.exit_code == 2 and says in line and "gymfactory rollout --help" in line


@pytest.mark.parametrize("args, says, where", [
    (("tasks", "validate", "--limit", "1"), "No such option: --limit", "gymfactory tasks validate"),
    (("tasks", "valdiate"), "No such command 'valdiate'", "gymfactory tasks"),
    (("--bogus", "apps", "list"), "No such option: --bogus", "gymfactory"),
], ids=["unknown-option", "unknown-command", "unknown-root-option"])
def test_unknown_options_and_commands_are_one_line_not_a_panel(home, args, says, where):
    result = cli(*args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [error_line(result)]  # no usage lines, no box
    assert says in error_line(result) and f"(see {where} --help)" in error_line(result)


@pytest.mark.parametrize("args, says", [
    (("--app", "nosuchapp"), "error: unknown app 'nosuchapp'; known: "),
    (("--app", "mial"), "error: unknown app 'mial'; did you mean mail"),
    (("--family", "nosuch.family"), "error: unknown task family 'nosuch.family'; known: "),
    (("--app", "mail", "--family", "bank.transfer_to_savings"), "error: no task family fits --app mail --family bank.transfer_to_savings"),
], ids=["unknown-app", "near-app", "unknown-family", "nothing-fits"])
def test_run_names_a_bad_app_or_family_in_one_line_before_anything_starts(home, tmp_path, args, says):
    out = tmp_path / "run"
    result = cli("run", *args, "--tasks", "1", "--out", str(out))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [error_line(result)]  # the line only: no Prefect log, no progress
    assert error_line(result).startswith(says), error_line(result)
    if "known: " in says and "app" in says:
        assert {"mail", "calendar", "drive"} <= set(error_line(result).split("known: ")[1].split(", "))
    assert not out.exists()  # refused before the pipeline made its folder


def test_the_dashboard_refuses_a_store_that_does_not_exist(home, tmp_path):
    missing = tmp_path / "nonexistent.db"
    result = cli("dashboard", "--store", str(missing))
    assert result.exit_code == 2
    assert f"--store {missing}: no such trajectory store" in error_line(result)
    assert not missing.exists()  # not created empty
    result = cli("dashboard", "--store", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in error_line(result)


def test_synthesize_makes_the_folders_of_out(home, tmp_path):
    out = tmp_path / "new" / "deeper" / "tasks.jsonl"
    result = cli("tasks", "synthesize", "--n", "1", "--family", "drive.rename_document", "--out", str(out))
    assert result.exit_code == 0, result.output
    [line] = out.read_text().splitlines()
    assert json.loads(line)["meta"]["family"] == "drive.rename_document"


def test_train_with_tasks_that_do_not_exist_leaves_no_empty_out_folder(home, tmp_path):
    out = tmp_path / "runs" / "t"
    result = cli("train", "--tasks", str(tmp_path / "nonexistent"), "--out", str(out), "--init-tiny")
    assert result.exit_code != 0 and "nonexistent: no such file or folder" in error_line(result)
    assert not out.exists() and not out.parent.exists()
