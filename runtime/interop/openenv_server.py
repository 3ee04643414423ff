"""An OpenEnv environment server (`openenv-core`'s HTTP protocol: /reset, /step, /state, /health) over gymfactory tasks.

Agents and trainers of the OpenEnv ecosystem drive gymfactory environments with their own client:
`reset()` opens the next task (round robin over the served tasks) in a fresh session, `step(GymAction)`
applies one action in gymfactory's action language, and the step that ends the episode (answer(...)
or the step limit) carries the reward of the task's own verifier. The episode runs through
`runtime.gym_env.GymEnv`, the same path as the Gymnasium env.

    server = OpenEnvServer(tasks, manager).start()      # http://127.0.0.1:PORT
    client = GymfactoryEnvClient(server.url)
    first = client.reset(); result = client.step(GymAction(action='answer("done")'))

Concurrent sessions: with `max_concurrent_envs=N` (`gymfactory serve openenv --sessions N`) one server holds N
episodes at once, each with its own browser session and its own worker thread. Session k answers the same
protocol under `/sessions/k` (`server.session_url(k)` is a client's base URL), the root paths are session 0, and
`GET /sessions` lists them. Every session's `reset` takes the next task of one shared round robin, so N
clients working side by side get N different tasks. openenv-core 0.1.1's protocol has no session of its own
(0.3.0's `max_concurrent_envs` needs the version move that docs/interop.md says is blocked), so a session is a
base URL: any OpenEnv client works unchanged.

With `screenshots=True` (`gymfactory serve openenv --screenshots`) every observation also carries the page
as a base64 PNG (`screenshot`, `screenshot_media_type`), read from the session as the Gymnasium `-image` ids
read it (`GymEnv.screenshot_png`). Off by default because it costs: the browser captures and encodes a PNG
at every reset and step and the session writes it to the object store (what made validation with
screenshots on about 18% slower, docs/interop.md), and each response grows by the base64 image (a PNG of
about 85 KB, 4/3 of that as text) where the text observation is a few KB. Text-only agents pay none of it.
"""

from __future__ import annotations

import base64
import itertools
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from openenv_core.client_types import StepResult
from fastapi import FastAPI
from openenv_core.env_server import Action, Environment, HTTPEnvServer, Observation, State
from openenv_core.http_env_client import HTTPEnvClient

from contracts.task import Task
from runtime.gym_env import GymEnv
from runtime.manager import EnvironmentManager


@dataclass(kw_only=True)
class GymAction(Action):
    """One action as text, e.g. click(12), fill(3, "Ada"), answer("42")."""

    action: str


@dataclass(kw_only=True)
class GymObservation(Observation):
    """What the agent sees; `outcome` (status, reward, verdicts) is set on the step that ends the episode.

    `screenshot` is the page as base64 PNG bytes (`screenshot_media_type` "image/png") when the server
    was made with screenshots on, else both are None.
    """

    task_id: str = ""
    instruction: str = ""
    axtree: str = ""
    url: str = ""
    last_action_error: str = ""
    step: int = 0
    outcome: dict[str, Any] = field(default_factory=dict)
    screenshot: str | None = None
    screenshot_media_type: str | None = None


@dataclass
class GymState(State):
    task_id: str = ""


class _RoundRobin:
    """The next task, shared by every session of one server (thread-safe)."""

    def __init__(self, tasks: list[Task]):
        if not tasks:
            raise ValueError("an OpenEnv server needs at least one task")
        self.tasks, self._count, self._lock = tasks, itertools.count(), threading.Lock()

    def next(self) -> Task:
        with self._lock:
            return self.tasks[next(self._count) % len(self.tasks)]


class GymfactoryEnvironment(Environment):
    """The OpenEnv `Environment` over gymfactory tasks: one GymEnv episode at a time, with screenshots if asked.

    Sessions of one server share `order`, so their resets take successive tasks."""

    def __init__(self, tasks: list[Task], manager: EnvironmentManager, max_steps: int = 30, screenshots: bool = False,
                 order: _RoundRobin | None = None):
        super().__init__()
        self.order = order or _RoundRobin(tasks)
        self.tasks, self.manager, self.max_steps, self.screenshots = self.order.tasks, manager, max_steps, screenshots
        self._env, self._state = None, GymState()
        self._lock = threading.Lock()

    def reset(self) -> GymObservation:
        with self._lock:
            if self._env is not None:
                self._env.close()
            task = self.order.next()
            self._env = GymEnv(task, self.manager, max_steps=self.max_steps, screenshots=self.screenshots)
            obs, _ = self._env.reset()
            self._state = GymState(episode_id=uuid.uuid4().hex, step_count=0, task_id=task.id)
            return self._observation(obs, done=False, reward=None, outcome={})

    def step(self, action: GymAction) -> GymObservation:
        with self._lock:
            if self._env is None:
                raise RuntimeError("reset() first")
            obs, reward, terminated, truncated, info = self._env.step(action.action)
            self._state.step_count += 1
            done = terminated or truncated
            return self._observation(obs, done=done, reward=reward if done else None, outcome=info.get("outcome", {}))

    @property
    def state(self) -> GymState:
        return self._state

    def close(self) -> None:
        with self._lock:
            if self._env is not None:
                self._env.close()
                self._env = None

    def _observation(self, obs: dict, done: bool, reward: float | None, outcome: dict) -> GymObservation:
        task, png = self._env.task, self._env.screenshot_png()
        return GymObservation(task_id=task.id, instruction=task.instruction, axtree=obs["axtree"], url=obs["url"],
                              last_action_error=obs["last_action_error"], step=self._state.step_count, done=done,
                              reward=reward, outcome=outcome,
                              screenshot=base64.b64encode(png).decode("ascii") if png is not None else None,
                              screenshot_media_type="image/png" if png is not None else None)


class GymfactoryEnvClient(HTTPEnvClient[GymAction, GymObservation]):
    """The OpenEnv HTTP client for this server (what an OpenEnv agent or trainer holds)."""

    def _step_payload(self, action: GymAction) -> dict:
        return {"action": action.action}

    def _parse_result(self, payload: dict) -> StepResult[GymObservation]:
        obs = GymObservation(**payload["observation"], done=payload["done"], reward=payload["reward"])
        return StepResult(observation=obs, reward=payload["reward"], done=payload["done"])

    def _parse_state(self, payload: dict) -> GymState:
        return GymState(**payload)


class OpenEnvServer:
    """openenv-core's HTTP routes over `max_concurrent_envs` GymfactoryEnvironments, served by uvicorn in a thread.

    Session k is at `/sessions/k`; the root paths are session 0, so a plain client needs no path."""

    def __init__(self, tasks: list[Task], manager: EnvironmentManager, max_steps: int = 30, host: str = "127.0.0.1",
                 port: int = 0, screenshots: bool = False, max_concurrent_envs: int = 1):
        if max_concurrent_envs < 1:
            raise ValueError(f"max_concurrent_envs must be at least 1, not {max_concurrent_envs}")
        order = _RoundRobin(tasks)
        self.envs = [GymfactoryEnvironment(tasks, manager, max_steps, screenshots=screenshots, order=order)
                     for _ in range(max_concurrent_envs)]
        self.env = self.envs[0]
        self.app = FastAPI(title="gymfactory OpenEnv server")
        routes = [HTTPEnvServer(env, GymAction, GymObservation) for env in self.envs]  # each: its own worker thread
        routes[0].register_routes(self.app)
        for k, server in enumerate(routes):
            session = FastAPI(title=f"gymfactory OpenEnv session {k}")
            server.register_routes(session)
            self.app.mount(f"/sessions/{k}", session)

        @self.app.get("/sessions")
        def sessions() -> dict:
            return {"sessions": [{"id": k, "path": f"/sessions/{k}", "task_id": env.state.task_id, "step_count": env.state.step_count}
                                 for k, env in enumerate(self.envs)]}

        if port == 0:
            with socket.socket() as s:
                s.bind((host, 0))
                port = s.getsockname()[1]
        self.host, self.port = host, port
        self._server = uvicorn.Server(uvicorn.Config(self.app, host=host, port=port, log_level="warning"))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def session_url(self, k: int) -> str:
        """Base URL of session k, for an OpenEnv client."""
        if not 0 <= k < len(self.envs):
            raise IndexError(f"session {k} does not exist: this server has sessions 0-{len(self.envs) - 1}")
        return f"{self.url}/sessions/{k}"

    def start(self) -> "OpenEnvServer":
        self._thread = threading.Thread(target=self._server.run, daemon=True, name="openenv-server")
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the OpenEnv server did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        for env in self.envs:
            env.close()

    def __enter__(self) -> "OpenEnvServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
