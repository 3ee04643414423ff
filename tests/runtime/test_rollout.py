"""`gymfactory rollout` on the real browser: golden solves every hand-written task, random almost never does,
LLM agents finish a scripted episode through the real SDK clients, env errors are counted apart."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gymfactory.cli import build
from runtime.harness import Harness
from runtime.objectstore import ObjectStore
from contracts.taskfiles import load_tasks
from runtime.rollout import recorded_turns
from runtime.store import TrajectoryStore
from tests.support.scripted_llm import Request, ScriptedLLM

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"
NOTES_TASKS = sorted(TASKS.glob("notes-*.json"))
APP_TASKS = sorted((TASKS / "apps").glob("*.json"))  # one or two per shipped app


def _rollout(tmp_path: Path, *args: str, env: dict | None = None):
    db = tmp_path / "trajectories.db"
    result = CliRunner().invoke(
        build(), ["rollout", *args, "--store", str(db), "--screenshots", str(tmp_path / "objects")],
        env={"COLUMNS": "400", **(env or {})}, catch_exceptions=False,
    )
    return result, TrajectoryStore(db)


def test_golden_solves_every_hand_written_task_and_env_errors_are_counted_apart(tmp_path):
    folder = tmp_path / "tasks"
    folder.mkdir()
    for path in NOTES_TASKS + APP_TASKS:
        shutil.copy(path, folder)
    broken = json.loads(NOTES_TASKS[0].read_text())
    broken.update(id="notes-broken-verifier", verifier="def verify(final):\n    raise RuntimeError('verifier bug')\n")
    (folder / "broken.json").write_text(json.dumps(broken))

    result, store = _rollout(tmp_path, "--agent", "golden", "--tasks", str(folder), "--concurrency", "3")
    assert result.exit_code == 0, result.output
    attempts = {a.task_id: a for a in store.attempts()}
    assert set(attempts) == {p.stem for p in NOTES_TASKS + APP_TASKS} | {"notes-broken-verifier"}
    for path in NOTES_TASKS + APP_TASKS:
        outcome = attempts[path.stem].outcome
        assert outcome.status == "success" and outcome.reward == 1.0, (path.stem, outcome)
    assert attempts["notes-broken-verifier"].outcome.status == "env_error"
    assert "verifier bug" in attempts["notes-broken-verifier"].outcome.error
    # the golden run is a demonstration in the agent's own action language
    steps = store.steps(attempts["notes-create-rent"].id)
    assert [re.sub(r"^(\w+)\(\d+", r"\1(N", s.action) for s in steps] == ["click(N)", "fill(N, 'Pay rent')", "fill(N, 'Transfer 1200 to the landlord by Friday')", "click(N)"]
    assert all('link "New note"' in steps[0].axtree and s.url.startswith("http://127.0.0.1") for s in steps[:1])
    assert store.steps(attempts["notes-read-dentist"].id)[-1].action == "answer('Reschedule to next week')"
    # summary: rates over scored attempts only, env errors in their own column
    overall = [line for line in result.output.splitlines() if re.search(r"\ball\b", line)][-1]
    total = len(NOTES_TASKS + APP_TASKS) + 1
    assert re.search(rf"\b{total}\b.*100%.*1\.00.*\b1\b", overall), result.output


def test_random_agent_almost_never_succeeds(tmp_path):
    result, store = _rollout(
        tmp_path, "--agent", "random", "--tasks", str(TASKS), "--attempts", "2", "--max-steps", "6", "--concurrency", "3", "--seed", "7",
    )
    assert result.exit_code == 0, result.output
    outcomes = [a.outcome for a in store.attempts()]
    assert len(outcomes) == 2 * len(load_tasks(TASKS))
    assert all(o.status in ("success", "failure") for o in outcomes), outcomes
    assert sum(o.success for o in outcomes) <= 1, outcomes
    steps = store.steps(store.attempts()[0].id)
    assert 1 <= len(steps) <= 6 and all(s.raw_output == s.action for s in steps)
    # a text-only agent's rollout still keeps every screenshot and its final state, for replay; and says where they went
    assert all(s.screenshot and (tmp_path / "objects" / s.screenshot).is_file() for s in steps)
    assert (tmp_path / "objects" / store.attempts()[0].info["final"]).is_file()
    assert f"in {store.url}" in result.output and str(tmp_path / "objects") in result.output and "gymfactory dashboard" in result.output


def _scripted_pin(request: Request) -> str:
    """Play the 'pin Book club' task by reading element ids off the compact tree in the prompt: the current step's page,
    or, when it is told as the changes of the step before, the pages before it."""
    current = request.text().split("## Step")[-1]
    pin = re.search(r"^\[(\d+)\] button Pin$", current, re.M)
    if pin:
        return f"The note is open; pin it.\nclick({pin.group(1)})"
    if re.search(r"^\[\d+\] button Unpin$", current, re.M):
        return 'answer("")'
    link = re.findall(r"^\[(\d+)\] link Book club$", request.text(), re.M)
    return f"Open the note first.\nclick({link[-1]})" if link else "I am lost"


@pytest.mark.parametrize("agent", ["openai", "anthropic"])
def test_llm_agents_complete_a_scripted_episode_on_the_real_browser(tmp_path, agent):
    with ScriptedLLM(["Let me look around first.", *[_scripted_pin] * 5]) as llm:
        env = {
            "OPENAI_BASE_URL": llm.openai_base_url, "OPENAI_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": llm.anthropic_base_url, "ANTHROPIC_API_KEY": "test-key",
        }
        result, store = _rollout(tmp_path, "--agent", agent, "--model", "scripted", "--tasks", str(TASKS / "notes-pin-book-club.json"), env=env)
    assert result.exit_code == 0, result.output
    [attempt] = store.attempts()
    assert attempt.outcome.status == "success", attempt.outcome
    assert attempt.agent == agent and attempt.model == "scripted"
    steps = store.steps(attempt.id)
    assert steps[0].action is None and "no action found" in steps[0].error  # a parse error is feedback
    assert [s.action for s in steps[1:]][-1] == "answer('')"
    requests = [r for r in llm.requests if r.api == agent]
    assert len(requests) == len(steps)
    assert 'link Book club' in requests[0].text() and "Pin the note 'Book club'" in requests[0].text()
    assert "not a valid action" in requests[1].text()
    images = requests[-1].images()
    assert len(images) == len(steps)  # one screenshot per step, all inside the first window
    assert all(img.split(",")[-1].startswith("iVBORw0KGgo") for img in images)  # base64 of a PNG signature
    # the stored trajectory rebuilds the exact prompt the model saw (training samples come from it)
    task = load_tasks(TASKS / "notes-pin-book-club.json")[0]
    turns = recorded_turns(store, attempt.id)
    replay = Harness.replay(task.instruction, turns[:-1], vision=True, images=ObjectStore(tmp_path / "objects"))
    rebuilt = replay.prompt(turns[-1].observation)
    assert [p.key for p in rebuilt.images()] == [s.screenshot for s in steps]
    if agent == "openai":
        from runtime.agents.openai_agent import to_openai

        assert to_openai(rebuilt) == requests[-1].body["messages"]
    else:
        from runtime.agents.anthropic_agent import to_anthropic

        assert to_anthropic(rebuilt) == (requests[-1].body["system"], requests[-1].body["messages"])


def test_usage_errors_exit_non_zero(tmp_path):
    result, _ = _rollout(tmp_path, "--agent", "goldne", "--tasks", str(TASKS))
    assert result.exit_code == 2 and "did you mean golden" in result.output
    result, _ = _rollout(tmp_path, "--agent", "golden", "--tasks", str(tmp_path / "missing"))
    assert result.exit_code == 2 and "no such file" in result.output


def test_a_dead_model_server_is_an_env_error_not_a_failure(tmp_path):
    from tests.support.scripted_llm import Reply

    with ScriptedLLM([Reply(status=503, text="overloaded")] * 3) as llm:  # the SDK's first try and two retries
        env = {"OPENAI_BASE_URL": llm.openai_base_url, "OPENAI_API_KEY": "k"}
        result, store = _rollout(tmp_path, "--agent", "openai", "--model", "m", "--tasks", str(TASKS / "notes-pin-book-club.json"), env=env)
    assert result.exit_code == 1, result.output  # every attempt an env_error: the run failed, and says so in one line
    assert "all 1 attempts ended in env_error" in result.output
    [attempt] = store.attempts()
    assert attempt.outcome.status == "env_error" and "overloaded" in attempt.outcome.error
    assert "agent infrastructure" in attempt.outcome.error
