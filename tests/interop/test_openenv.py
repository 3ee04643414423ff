"""An OpenEnv client episode (openenv-core's own HTTP client) on a gymfactory task, scored by the task's verifier;
with screenshots on, every observation also carries the page as a PNG."""

from __future__ import annotations

import base64
import io
import json

import pytest
import requests

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


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png(observation, form_factor: str) -> bytes:
    """The observation's screenshot as PNG bytes, checked to be a PNG of the page's size."""
    from PIL import Image

    from mocked_apps.kit.browser import DESKTOP_VIEWPORT, MOBILE_DEVICE

    assert observation.screenshot_media_type == "image/png" and observation.screenshot
    data = base64.b64decode(observation.screenshot, validate=True)
    assert data.startswith(PNG_SIGNATURE)
    viewport = DESKTOP_VIEWPORT if form_factor == "desktop" else MOBILE_DEVICE["viewport"]
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (viewport["width"], viewport["height"])
        image.load()  # decodes the pixels: a truncated or corrupt PNG raises here
    return data


def test_openenv_screenshots_on_every_observation_and_changing_with_the_page(validated, manager):
    tasks, results = validated
    i = next(i for i, r in enumerate(results) if r.task_id.startswith("mail."))  # it opens a thread: a new page
    with OpenEnvServer(tasks[i:i + 1], manager, max_steps=40, screenshots=True) as server:
        client = GymfactoryEnvClient(server.url, request_timeout_s=120)
        first = client.reset().observation
        seen = [(first.url, _png(first, tasks[i].form_factor))]
        for action in [*results[i].golden_actions, 'answer("done")']:
            step = client.step(GymAction(action=action))
            seen.append((step.observation.url, _png(step.observation, tasks[i].form_factor)))  # every step, the last included
        assert step.done and step.reward == 1.0 and "[" in step.observation.axtree  # the text still comes with it
        moved = [k for k in range(1, len(seen)) if seen[k][0] != seen[k - 1][0]]  # steps that opened another page
        assert moved, [url for url, _ in seen]
        assert all(seen[k][1] != seen[k - 1][1] for k in moved)
        client.close()


def test_openenv_without_screenshots_sends_nothing_image_like(served):
    server, _, _ = served
    for body in (requests.post(f"{server.url}/reset", json={}, timeout=120).json(),
                 requests.post(f"{server.url}/step", json={"action": {"action": "scroll(0, 200)"}}, timeout=120).json()):
        observation = body["observation"]
        assert observation["screenshot"] is None and observation["screenshot_media_type"] is None
        assert "iVBORw0KGgo" not in json.dumps(body)  # the base64 of the PNG signature
    client = GymfactoryEnvClient(server.url, request_timeout_s=120)
    assert client.reset().observation.screenshot is None
    client.close()
