"""MiniWoB++ through gymfactory's harness: MiniWoB's own seeding and reward, agents of the one rollout loop."""

from __future__ import annotations

import pytest

from contracts.task import Task
from runtime.adapters.benchmark import EvalConfig, run, summary
from runtime.adapters.miniwob import MiniWoBSession, task_names
from runtime.axtree import find, parse_axtree
from runtime.backends.chromium import ChromiumHost
from runtime.rollout import run_attempt
from runtime.store import TrajectoryStore


class _ClickByName:
    """A test agent: clicks the button named `label`, then stops."""

    name, model, vision = "click-by-name", None, False

    def __init__(self, label: str):
        self.label, self.clicked = label, False

    def reset(self, task: Task) -> None:
        self.clicked = False

    def act(self, prompt, observation):
        if self.clicked:
            return None
        self.clicked = True
        return f"click({find(parse_axtree(observation.axtree), 'button', self.label).id})"

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def host():
    h = ChromiumHost()
    yield h
    h.close()


def test_task_list_is_the_packages_file_tasks():
    names = task_names()
    assert len(names) >= 100 and "click-button" in names and not any(n.startswith("flight.") for n in names)


def test_seed_fixes_the_utterance_and_miniwob_scores_the_episode(host, tmp_path):
    store = TrajectoryStore(str(tmp_path / "t.db"))
    session = MiniWoBSession(host, "click-test")
    try:
        task = session.prepare(seed=3)
        assert task.instruction == "Click the button." and session.prepare(seed=3).instruction == task.instruction
        result = run_attempt(session, task, _ClickByName("Click Me!"), store, max_steps=5)
        assert (result.status, result.reward, result.success) == ("success", 1.0, True)
        assert session.metadata.done and 0 < session.metadata.env_reward <= 1  # MiniWoB's time-scaled reward, kept
        steps = store.steps(result.attempt_id)
        assert steps[0].action.startswith("click(") and "Click Me!" in steps[0].axtree
        wrong = MiniWoBSession(host, "click-button")
        try:
            t = wrong.prepare(seed=0)
            target = t.instruction.split('"')[1] if '"' in t.instruction else ""
            obs = wrong.reset(t)
            others = [n.name for n in parse_axtree(obs.axtree) if n.role == "button" and n.name != target]
            miss = run_attempt(wrong, t, _ClickByName(others[0]), store, max_steps=3)
            assert (miss.status, miss.reward) == ("failure", -1.0)  # MiniWoB's own penalty for the wrong button
        finally:
            wrong.close()
    finally:
        session.close()
        store.close()


def test_with_the_timer_off_miniwob_never_ends_or_discounts_an_episode_for_time(host, tmp_path):
    """MiniWoB scales a reward down by the time taken over its 10-second limit; with the timer off the limit is a day."""
    store = TrajectoryStore(str(tmp_path / "t.db"))
    rewards = {}
    try:
        for timer in (True, False):
            session = MiniWoBSession(host, "click-test", timer=timer)
            try:
                task = session.prepare(seed=3)
                result = run_attempt(session, task, _ClickByName("Click Me!"), store, max_steps=5)
                assert result.status == "success"
                rewards[timer] = session.metadata.env_reward
            finally:
                session.close()
    finally:
        store.close()
    assert rewards[True] < 0.9999 and rewards[False] > 0.99999, rewards


def test_random_agent_over_several_tasks_with_env_errors_apart(tmp_path):
    names = ("click-button", "click-link", "enter-text", "focus-text")
    results = run(EvalConfig(agent="random", tasks=names, seeds=1, max_steps=5, concurrency=2, store=tmp_path / "t.db"))
    s = summary(results)
    assert s["episodes"] == 4 and s["env_errors"] == 0 and s["scored"] == 4
    assert all(-1.0 <= r.reward <= 1.0 and r.steps >= 1 for r in results)
    assert {r.task for r in results} == set(names)


def test_eval_command_prints_the_summary_table(tmp_path):
    from typer.testing import CliRunner

    from gymfactory.cli import build

    runner = CliRunner()
    done = runner.invoke(build(), ["eval", "miniwob", "--agent", "random", "--task", "click-test", "--task", "focus-text",
                                   "--out", str(tmp_path / "r.jsonl")])
    assert done.exit_code == 0, done.output
    assert "MiniWoB++" in done.output and "random" in done.output
    assert "MiniWoB++ episodes (random)" in done.output and "2/2" in done.output  # the progress while it runs
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 2
    typo = runner.invoke(build(), ["eval", "miniwob", "--task", "click-buton"])
    assert typo.exit_code == 2 and "did you mean click-button" in typo.output
    unknown = runner.invoke(build(), ["eval", "miniwob", "--task", "nosuch"])  # no near name: a few known ones, not all 125
    line = next(l for l in unknown.output.splitlines() if "nosuch" in l)
    assert unknown.exit_code == 2 and "unknown MiniWoB task 'nosuch'; known:" in line and "(125 in all;" in line and len(line) < 300, line


def test_agents_that_replay_golden_code_are_refused_not_scored_zero(tmp_path):
    from typer.testing import CliRunner

    from contracts.errors import InputError
    from gymfactory.cli import build

    done = CliRunner().invoke(build(), ["eval", "miniwob", "--agent", "golden", "--task", "click-test", "--out", str(tmp_path / "r.jsonl")])
    assert done.exit_code == 2, done.output
    assert done.output.startswith("error: eval miniwob: agent 'golden' replays a task's golden code"), done.output
    assert not (tmp_path / "r.jsonl").exists()
    with pytest.raises(InputError, match="replays a task's golden code"):  # the golden replay's test-only variants too
        run(EvalConfig(agent="flawed-search", tasks=("click-test",), store=tmp_path / "t.db"))


def test_a_cut_short_evaluation_keeps_what_it_finished_and_runs_only_the_rest(tmp_path):
    names = ("click-test", "click-button", "focus-text")
    config = EvalConfig(agent="random", tasks=names, seeds=2, max_steps=3, concurrency=2, store=tmp_path / "t.db")
    first = run(config)
    heard = []
    kept = [first[0], first[3], first[4].model_copy(update={"status": "env_error"})]  # an env error is run again
    again = run(config, on_episode=heard.append, done=kept + [first[5].model_copy(update={"agent": "reference"})])
    assert [(r.task, r.seed) for r in again] == [(r.task, r.seed) for r in first]  # the job order, whatever ran when
    assert again[0] == first[0] and again[3] == first[3]  # kept as they were, not run again
    assert sorted((r.task, r.seed) for r in heard) == sorted((r.task, r.seed) for r in (first[1], first[2], first[4], first[5]))
