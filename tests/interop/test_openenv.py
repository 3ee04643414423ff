"""OpenEnv episodes driven by openenv-core's own client (GenericEnvClient, through its sync wrapper) on gymfactory
tasks, scored by the task's verifier; with screenshots on, every observation also carries the page as a PNG; with
max_concurrent_envs=2, openenv-core's own sessions keep two episodes apart."""

from __future__ import annotations

import base64
import io
import json
import logging
import time

import pytest
import requests
from openenv import GenericEnvClient
from websockets.exceptions import ConnectionClosed

from runtime.interop.openenv_server import OpenEnvServer


def _client(server: OpenEnvServer):
    """What an OpenEnv user holds: openenv-core's generic client (a WebSocket session), synchronous."""
    return GenericEnvClient(base_url=server.url, message_timeout_s=120).sync()


@pytest.fixture(scope="module")
def served(validated, manager):
    tasks, results = validated
    with OpenEnvServer(tasks[:1], manager, max_steps=40) as server:
        yield server, tasks[0], results[0]


def test_openenv_client_episode_golden_scores_one_and_doing_nothing_zero(served):
    server, task, result = served
    with _client(server) as client:
        first = client.reset()
        assert (first.done, first.reward) == (False, None) and first.observation["task_id"] == task.id
        assert first.observation["instruction"] == task.instruction and "[" in first.observation["axtree"]
        assert client.state()["task_id"] == task.id
        for action in result.golden_actions:  # the golden run, in the action language, over OpenEnv
            step = client.step({"action": action})
            assert not step.done and step.observation["last_action_error"] == "", step.observation["last_action_error"]
        end = client.step({"action": 'answer("done")'})
        assert end.done and end.reward == 1.0 and end.observation["outcome"]["status"] == "success"
        assert end.observation["outcome"]["verdicts"] and all(end.observation["outcome"]["verdicts"].values())

        client.reset()  # a fresh episode on fresh instances: answering at once fails the verifier
        lazy = client.step({"action": 'answer("done")'})
        assert lazy.done and lazy.reward < 1.0 and lazy.observation["outcome"]["status"] == "failure"
        assert client.state()["step_count"] == 1


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png(observation: dict, form_factor: str) -> bytes:
    """The observation's screenshot as PNG bytes, checked to be a PNG of the page's size."""
    from PIL import Image

    from mocked_apps.kit.browser import DESKTOP_VIEWPORT, MOBILE_DEVICE

    assert observation["screenshot_media_type"] == "image/png" and observation["screenshot"]
    data = base64.b64decode(observation["screenshot"], validate=True)
    assert data.startswith(PNG_SIGNATURE)
    viewport = DESKTOP_VIEWPORT if form_factor == "desktop" else MOBILE_DEVICE["viewport"]
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (viewport["width"], viewport["height"])
        image.load()  # decodes the pixels: a truncated or corrupt PNG raises here
    return data


def test_openenv_screenshots_on_every_observation_and_changing_with_the_page(validated, manager):
    tasks, results = validated
    i = next(i for i, r in enumerate(results) if r.task_id.startswith("mail."))  # it opens a thread: a new page
    with OpenEnvServer(tasks[i:i + 1], manager, max_steps=40, screenshots=True) as server, _client(server) as client:
        first = client.reset().observation
        seen = [(first["url"], _png(first, tasks[i].form_factor))]
        for action in [*results[i].golden_actions, 'answer("done")']:
            step = client.step({"action": action})
            seen.append((step.observation["url"], _png(step.observation, tasks[i].form_factor)))  # every step, the last too
        assert step.done and step.reward == 1.0 and "[" in step.observation["axtree"]  # the text still comes with it
        moved = [k for k in range(1, len(seen)) if seen[k][0] != seen[k - 1][0]]  # steps that opened another page
        assert moved, [url for url, _ in seen]
        assert all(seen[k][1] != seen[k - 1][1] for k in moved)


def test_openenv_without_screenshots_sends_nothing_image_like(served):
    server, _, _ = served
    with _client(server) as client:
        for result in (client.reset(), client.step({"action": "scroll(0, 200)"})):
            assert result.observation["screenshot"] is None and result.observation["screenshot_media_type"] is None
            assert "iVBORw0KGgo" not in json.dumps(result.observation)  # the base64 of the PNG signature
    # openenv-core 0.3.0's stateless HTTP /reset and /step (a fresh environment per request) are not served
    assert requests.post(f"{server.url}/reset", json={}, timeout=30).status_code == 404
    assert requests.post(f"{server.url}/step", json={"action": {"action": "scroll(0, 200)"}}, timeout=30).status_code == 404
    assert requests.get(f"{server.url}/health", timeout=30).json()["status"] == "healthy"


def _wait_for(condition, what: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_openenv_concurrent_sessions_keep_their_own_episodes(validated, manager):
    """Two OpenEnv clients on one server with max_concurrent_envs=2, their steps interleaved and then run side by side:
    each WebSocket session keeps its own task and browser session, so both golden runs score 1. A third connection is
    refused while two are open and served once one closes; closing a connection, or stopping the server, closes the
    browser sessions behind it."""
    from concurrent.futures import ThreadPoolExecutor

    tasks, results = validated
    golden = {r.task_id: r.golden_actions for r in results}
    before = {s.id for s in manager.sessions()}  # other tests' sessions, some maybe still closing
    with OpenEnvServer(tasks, manager, max_steps=40, max_concurrent_envs=2) as server:
        clients = [_client(server).connect() for _ in range(2)]
        firsts = [c.reset().observation for c in clients]
        assert {o["task_id"] for o in firsts} == {t.id for t in tasks}  # one shared round robin: two different tasks
        plans = [[*golden[o["task_id"]], 'answer("done")'] for o in firsts]
        for k in range(max(map(len, plans))):  # interleaved: a step of session 0, then one of session 1
            for client, plan, first in zip(clients, plans, firsts):
                if k < len(plan):
                    step = client.step({"action": plan[k]})
                    assert step.observation["task_id"] == first["task_id"] and step.observation["last_action_error"] == ""
                    assert step.done == (k == len(plan) - 1) and step.reward == (1.0 if step.done else None)
        assert [c.state()["step_count"] for c in clients] == [len(p) for p in plans]
        assert [c.state()["task_id"] for c in clients] == [o["task_id"] for o in firsts]

        def episode(client) -> tuple[str, float]:
            task_id = client.reset().observation["task_id"]
            for action in [*golden[task_id], 'answer("done")']:
                end = client.step({"action": action})
            return task_id, end.reward

        with ThreadPoolExecutor(2) as pool:  # side by side, each on its own worker thread on the server
            done = list(pool.map(episode, clients))
        assert sorted(done) == sorted((t.id, 1.0) for t in tasks)

        third = _client(server)
        # openenv-core refuses it: its CAPACITY_REACHED error, or the socket it closed before the reset went out
        with pytest.raises((RuntimeError, ConnectionClosed)) as refused:
            third.reset()
        assert isinstance(refused.value, ConnectionClosed) or "CAPACITY_REACHED" in str(refused.value)
        third.close()
        ours = {s.id for s in manager.sessions()} - before  # the two open episodes' browser sessions
        assert len(ours) == 2
        clients.pop().close()  # its environment closes with its connection, and the slot is free again
        _wait_for(lambda: len(ours & {s.id for s in manager.sessions()}) == 1, "a closed connection left its browser session open")
        clients.append(_client(server))
        assert clients[-1].reset().observation["task_id"] in {t.id for t in tasks}
    assert {s.id for s in manager.sessions()} <= before  # stopped with two connections open: both browser sessions closed
    for c in clients:
        c.close()


def test_clean_closes_log_no_error(validated, manager):
    """openenv-core 0.3.0's /ws closes the socket again after the client has closed it, which raises and would make
    uvicorn log an error with a traceback at every clean end of a session (huggingface/OpenEnv#1159); the server
    drops that one exception, so three sessions that end normally log nothing."""
    tasks, _ = validated
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    server = OpenEnvServer(tasks[:1], manager, max_steps=40)  # uvicorn sets up its loggers here
    log = logging.getLogger("uvicorn.error")  # uvicorn's own: it does not reach the root logger
    log.addHandler(handler)
    try:
        with server:  # stopping waits for each session's handler to finish
            for _ in range(3):
                with _client(server) as client:
                    assert client.reset().observation["task_id"] == tasks[0].id
    finally:
        log.removeHandler(handler)
    assert not [r for r in records if r.levelno >= logging.WARNING], [r.getMessage() for r in records]


def test_bad_input_is_an_error_in_the_observation_not_a_reward(served, manager):
    """An action outside the language, or one naming no element, is reported and the episode goes on unscored; the
    server refuses a session count below 1."""
    server, task, result = served
    with pytest.raises(ValueError, match="at least 1"):
        OpenEnvServer([task], manager, max_concurrent_envs=0)
    with _client(server) as client:
        client.reset()
        for bad in ("rm -rf /", "click(99999)", ""):
            step = client.step({"action": bad})
            assert not step.done and step.reward is None and step.observation["last_action_error"], bad
        for action in result.golden_actions:  # the episode still completes honestly after the bad steps
            client.step({"action": action})
        end = client.step({"action": 'answer("done")'})
        assert end.done and end.reward == 1.0


def test_a_dead_app_ends_the_episode_unscored_with_the_cause_in_one_line(served, manager):
    """The app server killed mid-episode: the next step ends the episode with reward None and status env_error."""
    server, task, result = served
    with _client(server) as client:
        client.reset()
        manager.backend.server(task.apps[0]).kill()
        end = client.step({"action": 'answer("done")'})  # scoring dumps the app's state: the server is gone
        outcome = end.observation["outcome"]
        assert end.done and end.reward is None and outcome["status"] == "env_error", outcome
        assert "died" in outcome["error"] and "\n" not in outcome["error"]
        assert end.observation["last_action_error"].startswith("environment error: ")
        again = client.reset()  # the next episode runs on a restarted server
        assert not again.done and again.observation["task_id"] == task.id
