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
