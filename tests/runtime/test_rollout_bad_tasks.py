"""A bad task fails only its own attempt, a run of nothing but env errors fails, and a manager leaves no temp folder."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from contracts.taskfiles import load_tasks
from gymfactory.cli import build
from runtime import confine
from runtime.manager import EnvironmentManager, SessionSpec
from runtime.objectstore import ObjectStore
from runtime.store import TrajectoryStore

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"
GOOD = TASKS / "notes-create-rent.json"


def _variant(folder: Path, task_id: str, **changes) -> None:
    task = json.loads(GOOD.read_text())
    task.update(id=task_id, **changes)
    (folder / f"{task_id}.json").write_text(json.dumps(task))


def _rollout(tmp_path: Path, folder: Path):
    db = tmp_path / f"{folder.name}.db"
    result = CliRunner().invoke(build(), ["rollout", "--agent", "golden", "--tasks", str(folder), "--store", str(db),
                                          "--screenshots", str(tmp_path / "objects")],
                                env={"COLUMNS": "300", "GYMFACTORY_HOME": str(tmp_path / "home")})
    assert "Traceback" not in result.output, result.output
    return result, {a.task_id: a.outcome for a in TrajectoryStore(db).attempts()}


def test_a_bad_seed_or_an_escaping_workspace_path_fails_only_its_own_attempt(tmp_path):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / GOOD.name).write_text(GOOD.read_text())
    app = json.loads(GOOD.read_text())["apps"][0]
    _variant(folder, "bad-seed", seed={app: {"no_such_table": [{"x": 1}]}})
    _variant(folder, "escaping-file", files={"../../escaped.txt": "out of the workspace"})
    result, outcomes = _rollout(tmp_path, folder)
    assert result.exit_code == 0, result.output
    assert outcomes[GOOD.stem].status == "success"  # the rest of the rollout went on
    assert outcomes["bad-seed"].status == "env_error"
    assert outcomes["bad-seed"].error.startswith("task: ") and "bad seed" in outcomes["bad-seed"].error
    assert "no_such_table" in outcomes["bad-seed"].error
    assert outcomes["escaping-file"].status == "env_error"
    assert "outside the workspace" in outcomes["escaping-file"].error
    assert not list(Path(tempfile.gettempdir()).glob("escaped.txt"))


def test_a_rollout_whose_attempts_were_all_env_errors_exits_non_zero(tmp_path):
    folder = tmp_path / "only_bad"
    folder.mkdir()
    app = json.loads(GOOD.read_text())["apps"][0]
    _variant(folder, "bad-seed-1", seed={app: {"note": [{"no_such_field": 1}]}})
    _variant(folder, "bad-seed-2", seed={app: {"no_such_table": []}})
    result, outcomes = _rollout(tmp_path, folder)
    assert result.exit_code == 1, result.output
    assert {o.status for o in outcomes.values()} == {"env_error"}
    [line] = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert line.startswith("error: all 2 attempts ended in env_error (first: task: ")


@pytest.fixture
def scratch():
    """A private temp root the confined shell can reach (pytest's tmp_path is not searchable by other users)."""
    folder = Path(tempfile.mkdtemp(prefix="tmp-scratch-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_manager_removes_the_temporary_folders_it_made_when_it_closes(tmp_path, scratch, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # this process's mkdtemp
    monkeypatch.setenv("TMPDIR", str(scratch))  # and its children's
    [task] = load_tasks(GOOD)
    task = task.model_copy(update={"files": {"notes/todo.txt": "buy milk"}})
    manager = EnvironmentManager(screenshots=ObjectStore(tmp_path / "objects"))
    session = manager.request(SessionSpec.for_task(task, screenshots=False))
    session.reset(task)
    made = sorted(p.name.rsplit("-", 1)[0] for p in scratch.glob("gym-*"))
    assert made == ["gym-apps"], made  # the app server's instance files are in the backend's folder
    assert manager.workspace_root.parent == confine.scratch_root()  # workspaces: where the confined uid can reach, not TMPDIR
    assert any(manager.backend.data_dir.rglob("*.db"))
    assert (session.workspace / "notes" / "todo.txt").read_text() == "buy milk"
    session.close()
    manager.close()
    assert not list(scratch.glob("gym-*")), list(scratch.iterdir())
    assert not manager.workspace_root.exists()
    given = tmp_path / "mine"
    given.mkdir()
    EnvironmentManager(workspace_root=given, screenshots=ObjectStore(tmp_path / "objects")).close()
    assert given.is_dir()  # a folder the caller gave is the caller's
