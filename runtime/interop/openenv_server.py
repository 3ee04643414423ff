"""An OpenEnv environment server (openenv-core 0.3.0's protocol: a session per WebSocket at /ws, /health, /schema) over
gymfactory tasks.

Agents and trainers of the OpenEnv ecosystem drive gymfactory environments with their own client: every OpenEnv
client (`EnvClient` subclasses, `GenericEnvClient`) holds one WebSocket, which is one session with its own
environment; `reset()` opens the next task (round robin over the served tasks) in a fresh browser session,
`step({"action": ...})` applies one action in gymfactory's action language, and the step that ends the episode
(answer(...) or the step limit) carries the reward of the task's own verifier. The episode runs through
`runtime.gym_env.GymEnv`, the same path as the Gymnasium env. An environment fault (a dead app server or browser,
a verifier that could not run) ends the episode unscored: `done`, reward None, outcome status `env_error` with the
cause in one line, never a 0.

    server = OpenEnvServer(tasks, manager).start()      # http://127.0.0.1:PORT, sessions at ws://127.0.0.1:PORT/ws
    with GenericEnvClient(base_url=server.url).sync() as client:
        first = client.reset(); result = client.step({"action": 'answer("done")'})

Concurrent sessions: openenv-core's own. With `max_concurrent_envs=N` (`gymfactory serve openenv --sessions N`) the
server holds up to N WebSocket sessions at once, each with its own `GymfactoryEnvironment` (its own browser session)
and its own worker thread; connection N+1 is refused (`CAPACITY_REACHED`) until one closes, and closing a
connection closes its environment. Every session's `reset` takes the next task of one shared round robin, so N
clients working side by side get N different tasks.

openenv-core 0.3.0's HTTP `/reset`, `/step` and `/state` are stateless (a fresh environment per request, closed
after it), which cannot hold a browser episode across requests; the routes are registered in openenv's production
mode, which leaves those three out, so an episode runs only over the WebSocket.

With `screenshots=True` (`gymfactory serve openenv --screenshots`) every observation also carries the page
as a base64 PNG (`screenshot`, `screenshot_media_type`), read from the session as the Gymnasium `-image` ids
read it (`GymEnv.screenshot_png`). Off by default because it costs: the browser captures and encodes a PNG
at every reset and step and the session writes it to the object store (what made validation with
screenshots on about 18% slower, docs/interop.md), and each response grows by the base64 image (a PNG of
about 85 KB, 4/3 of that as text) where the text observation is a few KB. Text-only agents pay none of it.
"""

from __future__ import annotations

import base64
import functools
import itertools
import socket
import threading
import time
import uuid
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocketDisconnect
from openenv.core.env_server import Action, Environment, HTTPEnvServer, Observation, ServerMode, State
from pydantic import Field

from contracts.task import Task
from runtime.backends.base import EnvError
from runtime.gym_env import GymEnv, env_error_outcome
from runtime.manager import EnvironmentManager

__all__ = ["GymAction", "GymObservation", "GymState", "GymfactoryEnvironment", "OpenEnvServer"]


class GymAction(Action):
    """One action as text, e.g. click(12), fill(3, "Ada"), answer("42")."""

    action: str


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
    outcome: dict[str, Any] = Field(default_factory=dict)
    screenshot: str | None = None
    screenshot_media_type: str | None = None


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


class GymfactoryEnvironment(Environment[GymAction, GymObservation, GymState]):
    """The OpenEnv `Environment` of one session: one GymEnv episode at a time, with screenshots if asked.

    Sessions of one server share `order`, so their resets take successive tasks; they share nothing else but the
    environment manager, which hands each its own browser session."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, manager: EnvironmentManager, order: _RoundRobin, max_steps: int = 30, screenshots: bool = False):
        super().__init__()
        self.manager, self.order, self.max_steps, self.screenshots = manager, order, max_steps, screenshots
        self._env: GymEnv | None = None
        self._state = GymState()
        self._lock = threading.Lock()

    def reset(self, seed: int | None = None, episode_id: str | None = None) -> GymObservation:
        """Open the next task in fresh app instances. `seed` changes nothing: the task fixes its world; `episode_id`
        names the episode in `state` (a random id if not given)."""
        with self._lock:
            if self._env is not None:
                self._env.close()
            task = self.order.next()
            self._env = GymEnv(task, self.manager, max_steps=self.max_steps, screenshots=self.screenshots)
            self._state = GymState(episode_id=episode_id or uuid.uuid4().hex, step_count=0, task_id=task.id)
            try:
                obs, _ = self._env.reset()
            except EnvError as err:
                return self._env_error(err)
            return self._observation(obs, done=False, reward=None, outcome={})

    def step(self, action: GymAction, timeout_s: float | None = None) -> GymObservation:
        """Apply one action; the step that ends the episode carries the verifier's reward and the outcome.

        `timeout_s` is not applied: the manager's deadlines (`Deadlines.step`, `.evaluate`) bound each step."""
        with self._lock:
            if self._env is None:
                raise RuntimeError("reset() first")
            self._state.step_count += 1
            try:
                obs, reward, terminated, truncated, info = self._env.step(action.action)
            except EnvError as err:
                return self._env_error(err)
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

    def _env_error(self, err: EnvError) -> GymObservation:
        """The episode ends unscored (reward None), the fault said in the outcome and as the last action's error."""
        task = self._env.task
        return GymObservation(task_id=task.id, instruction=task.instruction, last_action_error=f"environment error: {err}",
                              step=self._state.step_count, done=True, reward=None, outcome=env_error_outcome(err))

    def _observation(self, obs: dict, done: bool, reward: float | None, outcome: dict) -> GymObservation:
        task, png = self._env.task, self._env.screenshot_png()
        return GymObservation(task_id=task.id, instruction=task.instruction, axtree=obs["axtree"], url=obs["url"],
                              last_action_error=obs["last_action_error"], step=self._state.step_count, done=done,
                              reward=reward, outcome=outcome,
                              screenshot=base64.b64encode(png).decode("ascii") if png is not None else None,
                              screenshot_media_type="image/png" if png is not None else None)


class _QuietDisconnect:
    """ASGI wrapper: a WebSocketDisconnect escaping a WebSocket route means the peer already left, not an error.

    openenv-core 0.3.0's /ws closes the socket in a `finally` that catches only RuntimeError, so a client that has
    already closed (its own `close()` always has) makes starlette raise WebSocketDisconnect there, and uvicorn logs
    "Exception in ASGI application" with a traceback for every clean end of a session (huggingface/OpenEnv#1159).
    The session's environment is closed before that `finally` reaches the socket."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope["type"] != "websocket":
                raise


class OpenEnvServer:
    """openenv-core's routes over up to `max_concurrent_envs` sessions of GymfactoryEnvironment, served by uvicorn in
    a thread. A client's base URL is `url`; its session is its WebSocket connection."""

    def __init__(self, tasks: list[Task], manager: EnvironmentManager, max_steps: int = 30, host: str = "127.0.0.1",
                 port: int = 0, screenshots: bool = False, max_concurrent_envs: int = 1):
        if max_concurrent_envs < 1:
            raise ValueError(f"max_concurrent_envs must be at least 1, not {max_concurrent_envs}")
        factory = functools.partial(GymfactoryEnvironment, manager, _RoundRobin(tasks), max_steps, screenshots)
        self.app = FastAPI(title="gymfactory OpenEnv server")
        # each session: its own environment, made, stepped and closed on its own worker thread
        HTTPEnvServer(factory, GymAction, GymObservation, max_concurrent_envs=max_concurrent_envs).register_routes(
            self.app, mode=ServerMode.PRODUCTION)  # no stateless /reset, /step, /state (see the module docstring)
        if port == 0:
            with socket.socket() as s:
                s.bind((host, 0))
                port = s.getsockname()[1]
        self.host, self.port = host, port
        self._server = uvicorn.Server(uvicorn.Config(_QuietDisconnect(self.app), host=host, port=port, log_level="warning"))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL an OpenEnv client takes (it connects to `ws://HOST:PORT/ws`)."""
        return f"http://{self.host}:{self.port}"

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
        """Stop serving: uvicorn closes the open WebSockets, and openenv-core closes each one's environment."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=30)

    def __enter__(self) -> "OpenEnvServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
