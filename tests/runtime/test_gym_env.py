"""The Gymnasium adapter passes Gymnasium's own env checker, and an episode earns the task's reward."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import check_env

from runtime.axtree import find, parse_axtree
from runtime.gym_env import GymEnv
from runtime.manager import EnvError, EnvironmentManager
from tests.runtime.notes_tasks import NOTES, create_note_task


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


def test_the_observation_carries_the_instruction(manager):
    task = create_note_task("Told")
    env = GymEnv(task, manager, max_steps=5)
    obs, _ = env.reset()
    assert obs["instruction"] == task.instruction and "Told" in obs["instruction"]
    assert env.step("scroll(0, 100)")[0]["instruction"] == task.instruction
    env.close()


def test_a_dead_app_is_an_env_error_raised_in_one_line_never_a_zero(manager):
    """The app server killed mid-episode: the step that needs it, and the step that would score, raise EnvError."""
    env = GymEnv(create_note_task("Dead"), manager, max_steps=10)
    obs, _ = env.reset()
    manager.backend.server(NOTES).kill()
    with pytest.raises(EnvError, match="the environment failed, the attempt is not scored: app server .* died") as caught:
        env.step('answer("done")')  # scoring dumps the app's state: the server is gone
    assert "\n" not in str(caught.value)
    env.close()

    env = GymEnv(create_note_task("Dead2"), manager, max_steps=10)  # the next episode restarts the server
    obs, _ = env.reset()
    manager.backend.server(NOTES).kill()
    with pytest.raises(EnvError, match="unreachable"):
        env.step(f"click({find(parse_axtree(obs['axtree']), 'link', 'New note').id})")  # the page loads from the server
    env.close()
