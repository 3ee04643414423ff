"""`gymnasium.register` ids for gymfactory tasks: text and image observations, made by gymnasium.make."""

from __future__ import annotations

import gymnasium
import numpy as np

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
    assert set(obs) == {"axtree", "url", "last_action_error", "shell_output"} and isinstance(obs["axtree"], str)
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
