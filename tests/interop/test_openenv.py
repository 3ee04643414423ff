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


def test_openenv_concurrent_sessions_keep_their_own_episodes(validated, manager):
    """Two OpenEnv clients on one server, their steps interleaved and then run side by side: each session keeps
    its own task and browser session, so both golden runs score 1 (with one shared episode, the second reset
    would have replaced the first client's task)."""
    from concurrent.futures import ThreadPoolExecutor

    tasks, results = validated
    golden = {r.task_id: r.golden_actions for r in results}
    with OpenEnvServer(tasks, manager, max_steps=40, max_concurrent_envs=2) as server:
        with pytest.raises(IndexError, match="sessions 0-1"):
            server.session_url(2)
        clients = [GymfactoryEnvClient(server.session_url(k), request_timeout_s=120) for k in range(2)]
        firsts = [c.reset().observation for c in clients]
        assert {o.task_id for o in firsts} == {t.id for t in tasks}  # one shared round robin: two different tasks
        listed = requests.get(f"{server.url}/sessions", timeout=30).json()["sessions"]
        assert [(s["id"], s["task_id"]) for s in listed] == [(k, o.task_id) for k, o in enumerate(firsts)]
        plans = [[*golden[o.task_id], 'answer("done")'] for o in firsts]
        for k in range(max(map(len, plans))):  # interleaved: a step of session 0, then one of session 1
            for client, plan, first in zip(clients, plans, firsts):
                if k < len(plan):
                    step = client.step(GymAction(action=plan[k]))
                    assert step.observation.task_id == first.task_id and step.observation.last_action_error == ""
        assert step.done and step.reward == 1.0
        assert [c.state().step_count for c in clients] == [len(p) for p in plans]

        def episode(client: GymfactoryEnvClient) -> tuple[str, float]:
            task_id = client.reset().observation.task_id
            for action in [*golden[task_id], 'answer("done")']:
                end = client.step(GymAction(action=action))
            return task_id, end.reward

        with ThreadPoolExecutor(2) as pool:  # side by side, each on its own worker thread
            done = list(pool.map(episode, clients))
        assert sorted(done) == sorted((t.id, 1.0) for t in tasks)
        assert GymfactoryEnvClient(server.url, request_timeout_s=120).state().task_id == done[0][0]  # the root is session 0
        for c in clients:
            c.close()
