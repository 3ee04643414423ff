"""`gymnasium.register` ids for gymfactory tasks: text and image observations, made by gymnasium.make."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from runtime.interop.gym_register import register_tasks


def test_registered_ids_make_text_and_image_envs_that_score(validated):
    tasks, results = validated
    (ids,) = register_tasks(tasks[:1], max_steps=40)
    assert ids["text"] in gymnasium.registry and ids["image"] in gymnasium.registry
    env = gymnasium.make(ids["image"])
    obs, _ = env.reset()
    assert env.observation_space.contains(obs) and obs["screenshot"].shape == (800, 1280, 3) and obs["screenshot"].std() > 0
    for action in results[0].golden_actions:
        obs, reward, terminated, truncated, info = env.step(action)
    obs, reward, terminated, truncated, info = env.step('answer("done")')
    assert terminated and reward == 1.0 and info["outcome"]["status"] == "success"
    env.close()
    text = gymnasium.make(ids["text"])
    obs, _ = text.reset()
    assert set(obs) == {"instruction", "axtree", "url", "last_action_error", "shell_output"} and isinstance(obs["axtree"], str)
    assert obs["instruction"] == tasks[0].instruction  # the agent is told the task in its observation
    assert text.step('answer("done")')[1] < 1.0
    text.close()
    assert np.issubdtype(env.observation_space["screenshot"].dtype, np.uint8)


def test_importing_gymfactory_registers_the_shipped_ids_and_task_v0(tmp_path):
    """A fresh interpreter: no register_tasks call; gymfactory.make, the gymfactory.envs import, and gymnasium's module:id."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = """
import json, gymnasium, gymfactory
assert "gymfactory/Task-v0" not in gymnasium.registry          # nothing registered before it is asked for
env = gymfactory.make("gymfactory/mail-answer-he-48622-v0")
obs, _ = env.reset()
good = env.step('answer("172.00")')
env.close()
import gymfactory.envs
other = gymnasium.make("gymfactory.envs:gymfactory/Task-v0", task_file="mocked_apps/mail/tasks/answer-he-48622.json")
other.reset()
bad = other.step('answer("99")')
other.close()
print(json.dumps({"url": obs["url"], "good": good[1:3], "bad": bad[1:3], "ids": len(gymfactory.envs.IDS),
                  "image": "gymfactory/mail-answer-he-48622-image-v0" in gymnasium.registry}))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["url"].startswith("mail:/") and out["good"] == [1.0, True] and out["bad"] == [0.0, True]
    assert out["image"] and out["ids"] == 2 + 2 * len(list(root.glob("mocked_apps/*/tasks/*.json")))


def test_a_file_of_several_tasks_needs_a_task_id(validated, tmp_path):
    """Task-v0 on a file of several tasks without task_id is refused (it once opened the first); a wrong id gets near names."""
    from contracts.taskfiles import save_tasks
    from runtime.interop.gym_register import register_shipped

    tasks, _ = validated
    register_shipped()
    path = tmp_path / "two.jsonl"
    save_tasks(tasks, path)
    with pytest.raises(ValueError, match=rf"two.jsonl holds 2 tasks: give task_id= to choose one \({tasks[0].id}, {tasks[1].id}\)"):
        gymnasium.make("gymfactory/Task-v0", task_file=str(path))
    with pytest.raises(ValueError, match=rf"no task '{tasks[1].id}x'; did you mean {tasks[1].id}\?"):
        gymnasium.make("gymfactory/Task-v0", task_file=str(path), task_id=tasks[1].id + "x")
    env = gymnasium.make("gymfactory/Task-v0", task_file=str(path), task_id=tasks[1].id)
    assert env.unwrapped.task.id == tasks[1].id
    env.close()
