"""An OpenEnv client episode (openenv-core's own HTTP client) on a gymfactory task, scored by the task's verifier."""

from __future__ import annotations

import pytest

from runtime.interop.openenv_server import GymAction, GymfactoryEnvClient, OpenEnvServer


@pytest.fixture(scope="module")
def served(validated, manager):
    tasks, results = validated
    with OpenEnvServer(tasks[:1], manager, max_steps=40) as server:
        yield server, tasks[0], results[0]


def test_openenv_client_episode_golden_scores_one_and_doing_nothing_zero(served):
    server, task, result = served
    client = GymfactoryEnvClient(server.url, request_timeout_s=120)
    first = client.reset()
    assert (first.done, first.reward) == (False, None) and first.observation.task_id == task.id
    assert first.observation.instruction == task.instruction and "[" in first.observation.axtree
    assert client.state().task_id == task.id
    for action in result.golden_actions:  # the golden run, in the action language, over OpenEnv
        step = client.step(GymAction(action=action))
        assert not step.done and step.observation.last_action_error == "", step.observation.last_action_error
    end = client.step(GymAction(action='answer("done")'))
    assert end.done and end.reward == 1.0 and end.observation.outcome["status"] == "success"
    assert end.observation.outcome["verdicts"] and all(end.observation.outcome["verdicts"].values())

    client.reset()  # a fresh episode on fresh instances: answering at once fails the verifier
    lazy = client.step(GymAction(action='answer("done")'))
    assert lazy.done and lazy.reward < 1.0 and lazy.observation.outcome["status"] == "failure"
    assert client.state().step_count == 1
    client.close()
