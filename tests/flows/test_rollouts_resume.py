"""The rollouts stage resumes per attempt: rerun before its marker was written (as after a Ctrl-C mid-stage), it
keeps every attempt already finished under its run and redoes none; a different stage input is a new run."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from contracts.taskfiles import load_tasks, save_tasks
from flows.config import PipelineConfig
from flows.rollouts import rollouts_flow

TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"


def _finished(db: Path) -> Counter:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT task_id, agent, json_extract(info, '$.attempt'), json_extract(info, '$.run'), status "
                            "FROM gym_attempt").fetchall()
    assert not [r for r in rows if r[4] is None], rows  # nothing left unfinished
    return Counter((task, agent, k, run) for task, agent, k, run, status in rows if status != "interrupted")


def test_a_rerun_of_the_rollouts_stage_keeps_its_finished_attempts(prefect_server, tmp_path):
    out = tmp_path / "run"
    tasks = [t for name in ("notes-create-rent.json", "notes-pin-book-club.json") for t in load_tasks(TASKS / name)]
    (out / "tasks").mkdir(parents=True)
    save_tasks(tasks, out / "tasks" / "reviewed.jsonl")
    config = PipelineConfig(out=out, agents=("random",), attempts=2, max_steps=3, concurrency=1, batch=1)
    first = rollouts_flow(config)
    assert first["agents"][0]["attempts"] == 4 and first["agents"][0]["resumed"] == 0
    db = out / "rollouts" / "trajectories.db"
    before = _finished(db)
    assert len(before) == 4 and set(before.values()) == {1}

    (out / "stages" / "rollouts.json").unlink()  # the stage had not finished: its marker is written last
    again = rollouts_flow(config)
    assert again["agents"][0]["attempts"] == 4 and again["agents"][0]["resumed"] == 4
    assert _finished(db) == before  # no attempt redone, none duplicated

    (out / "stages" / "rollouts.json").unlink()
    more = rollouts_flow(config.model_copy(update={"max_steps": 4}))  # other inputs: other work, a new run
    assert more["agents"][0]["resumed"] == 0
    runs = {run for _task, _agent, _k, run in _finished(db)}
    assert len(runs) == 2 and all(run.startswith("rollouts-random-") for run in runs)
