"""The Gymnasium adapter passes Gymnasium's own env checker, and an episode earns the task's reward."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import check_env

from runtime.axtree import find, parse_axtree
from runtime.gym_env import GymEnv
from runtime.manager import EnvironmentManager
from tests.runtime.notes_tasks import create_note_task


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    with EnvironmentManager(screenshots=tmp_path_factory.mktemp("shots")) as m:
        yield m


def test_check_env(manager):
    env = GymEnv(create_note_task("Check"), manager, max_steps=5)
    check_env(env)  # includes the close check


def test_episode_reward_and_termination(manager):
    env = GymEnv(create_note_task("Gym"), manager, max_steps=10)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and obs["url"] == "notes:/" and info == {"step": 0}
    for role, name, action in (("link", "New note", "click({})"), ("textbox", "Title", 'fill({}, "Gym")'), ("button", "Save note", "click({})")):
        obs, reward, terminated, truncated, _ = env.step(action.format(find(parse_axtree(obs["axtree"]), role, name).id))
        assert (reward, terminated, truncated) == (0.0, False, False)
    assert obs["url"].startswith("notes:/note/4")
    obs, reward, terminated, truncated, info = env.step('answer("done")')
    assert (reward, terminated, truncated) == (1.0, True, False) and info["outcome"]["status"] == "success"
    env.close()


def test_truncation_after_max_steps(manager):
    env = GymEnv(create_note_task("Trunc"), manager, max_steps=2)
    env.reset()
    assert env.step("click(99)")[0]["last_action_error"].startswith("there is no element [99]")
    obs, reward, terminated, truncated, info = env.step("scroll(0, 100)")
    assert (reward, terminated, truncated) == (0.0, False, True) and info["outcome"]["status"] == "failure"
    env.close()
