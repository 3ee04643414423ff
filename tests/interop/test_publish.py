"""`gymfactory publish` through the real `huggingface_hub` client against a loopback Hub; then `datasets` loads it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contracts.taskfiles import save_tasks
from flows.dataset_columns import SplitOptions
from flows.publish import PublishConfig, PublishError, publish
from tests.support.local_hub import LocalHub

ROOT = Path(__file__).resolve().parents[2]
REPO = "gym-org/tasks"


@pytest.fixture(scope="module")
def hub():
    with LocalHub() as h:
        yield h


@pytest.fixture(scope="module")
def run_folder(validated, tmp_path_factory):
    """A run folder as `gymfactory run` leaves it: final tasks and their validation verdicts."""
    tasks, results = validated
    run = tmp_path_factory.mktemp("run")
    (run / "tasks").mkdir()
    save_tasks(tasks, run / "tasks" / "final.jsonl")
    (run / "tasks" / "validation.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    return run


@pytest.fixture
def hub_env(hub, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_TOKEN", "hf_local_test_token")
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return {**os.environ, "HF_HOME": str(tmp_path / "hf-home"), "HF_HUB_OFFLINE": "0"}


def test_publish_creates_commits_tags_then_is_idempotent_and_loads(hub, hub_env, run_folder, tmp_path):
    cli = subprocess.run([sys.executable, "-m", "gymfactory.cli", "publish", str(run_folder), "--repo", REPO, "--private"],
                         cwd=ROOT, env=hub_env, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr[-3000:]
    repo = hub.repos[f"dataset/{REPO}"]
    assert repo.private and len(repo.commits) == 2  # the initial commit, then the dataset
    files = repo.commits[-1].files
    assert "README.md" in files and any(p.startswith("data/train-") for p in files) and any(p.startswith("data/") for p in files)
    assert b'datasets.load_dataset("gym-org/tasks"' in files["README.md"]
    assert str(run_folder).encode() not in files["README.md"]  # no path of this machine under "Reproduce"
    (tag,) = repo.tags
    assert tag.startswith("gymfactory-") and repo.tags[tag] == repo.commits[-1].oid

    again = publish(PublishConfig(run=run_folder, repo=REPO))  # same content: no commit, no tag
    assert (again.new_commit, again.tagged, again.uploaded, again.tag) == (False, False, (), tag)
    assert len(repo.commits) == 2 and len(repo.tags) == 1

    code = (f"import datasets; ds = datasets.load_dataset({REPO!r}, revision={tag!r}); "
            "import json; print(json.dumps({s: [r['id'] for r in ds[s]] for s in ds}))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=hub_env, capture_output=True, text=True, timeout=300)
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    ids = json.loads(loaded.stdout.strip().splitlines()[-1])
    assert sorted(ids["train"]) == sorted(t.id for t in __import__("contracts.taskfiles", fromlist=["x"]).load_tasks(run_folder / "tasks" / "final.jsonl"))


def test_changed_content_dry_run_writes_nothing_then_one_commit_replaces_the_data(hub, hub_env, run_folder):
    publish(PublishConfig(run=run_folder, repo=REPO))
    repo = hub.repos[f"dataset/{REPO}"]
    commits, old = len(repo.commits), {p for p in repo.commits[-1].files if p.startswith("data/")}
    split = SplitOptions(by="family", heldout=("drive.rename_document",))
    plan = publish(PublishConfig(run=run_folder, repo=REPO, split=split, dry_run=True))
    assert plan.dry_run and plan.new_commit and "README.md" in plan.uploaded and set(plan.deleted) == old
    assert len(repo.commits) == commits  # nothing written
    done = publish(PublishConfig(run=run_folder, repo=REPO, split=split, revision="v2"))
    assert done.new_commit and done.tagged and len(repo.commits) == commits + 1 and repo.tags["v2"] == repo.commits[-1].oid
    data = {p for p in repo.commits[-1].files if p.startswith("data/")}
    assert not data & old and {p.split("-")[0] for p in data} == {"data/train", "data/heldout"}
    with pytest.raises(PublishError, match="already names commit"):  # a tag is never moved to other content
        publish(PublishConfig(run=run_folder, repo=REPO, revision="v2"))


def test_no_token_is_one_line_before_anything_is_written(hub, hub_env, run_folder, monkeypatch, tmp_path):
    from huggingface_hub import constants, get_token

    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(tmp_path / "no-login" / "token"))  # hide any real login
    monkeypatch.setattr(constants, "HF_STORED_TOKENS_PATH", str(tmp_path / "no-login" / "stored_tokens"))
    assert get_token() is None
    before = list(hub.requests)
    with pytest.raises(PublishError, match="HF_TOKEN"):
        publish(PublishConfig(run=run_folder, repo="gym-org/other"))
    assert hub.requests == before


def test_the_prefect_flow_publishes_the_same_way(prefect_server, hub, hub_env, run_folder):
    from flows.publish import publish_flow

    state = publish_flow(PublishConfig(run=run_folder, repo="gym-org/from-flow"), return_state=True)
    assert state.is_completed(), state.message
    result = state.result()
    assert result["created_repo"] and result["new_commit"] and result["tagged"]
    assert hub.repos["dataset/gym-org/from-flow"].tags == {result["tag"]: result["commit"]}


@pytest.mark.parametrize("offline", ["unreachable", "HF_HUB_OFFLINE"])
def test_a_dry_run_without_the_hub_is_one_line_naming_the_exported_folder(run_folder, tmp_path, offline):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf-home"), "HF_ENDPOINT": closed,
           "HF_HUB_OFFLINE": "1" if offline == "HF_HUB_OFFLINE" else "0"}
    cli = subprocess.run([sys.executable, "-m", "gymfactory.cli", "publish", str(run_folder), "--repo", "gym-org/offline",
                          "--dry-run"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 2, cli.stderr[-3000:]
    assert "Traceback" not in cli.stderr and len(cli.stderr.strip().splitlines()) == 1, cli.stderr[-3000:]
    assert "cannot reach the Hub" in cli.stderr and str(run_folder / "publish" / "gym-org--offline") in cli.stderr


def test_the_card_names_the_runs_command_not_its_folder(run_folder, tmp_path):
    from flows.publish import stage

    run = tmp_path / "run"
    (run / "dataset").mkdir(parents=True)
    (run / "tasks").mkdir()
    (run / "tasks" / "final.jsonl").write_text((run_folder / "tasks" / "final.jsonl").read_text())
    (run / "dataset" / "README.md").write_text("# x\n\n## Reproduce\n\n`gymfactory run --tasks 7 --seed 3`, then ...\n")
    card = (stage(PublishConfig(run=run, repo=REPO)) / "README.md").read_text()
    reproduce = card.split("## Reproduce", 1)[1]
    assert "`gymfactory run --tasks 7 --seed 3`, then `gymfactory publish RUN --repo ORG/NAME`" in reproduce
    assert str(run) not in reproduce
