"""`gymnasium.register` ids for gymfactory tasks, with text observations or text plus a screenshot image.

    ids = register_tasks(tasks)                       # 'gymfactory/<task id>-v0' and 'gymfactory/<task id>-image-v0'
    env = gymnasium.make(ids[0]["text"])              # runtime.gym_env.GymEnv: a fresh session on reset
    env = gymnasium.make(ids[0]["image"])             # the same, observation["screenshot"]: uint8 HxWx3

Environments share one EnvironmentManager per process (app servers and Chromium start on first use).
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from contracts.registry import suggest
from contracts.task import Task
from contracts.taskfiles import load_tasks
from mocked_apps.kit.browser import DESKTOP_VIEWPORT, MOBILE_DEVICE
from runtime.gym_env import GymEnv
from runtime.manager import EnvironmentManager

NAMESPACE = "gymfactory"
_MANAGER: EnvironmentManager | None = None
_LOCK = threading.Lock()


def shared_manager() -> EnvironmentManager:
    """The process's environment manager for registered envs, made on first use."""
    global _MANAGER
    with _LOCK:
        if _MANAGER is None:
            _MANAGER = EnvironmentManager()
        return _MANAGER


class ScreenshotObservation(gym.ObservationWrapper):
    """Adds `screenshot`, the page as an RGB array (the session's PNG), to GymEnv's text observation."""

    def __init__(self, env: GymEnv):
        super().__init__(env)
        size = DESKTOP_VIEWPORT if env.task.form_factor == "desktop" else MOBILE_DEVICE["viewport"]
        self.observation_space = spaces.Dict({**env.observation_space.spaces,
                                              "screenshot": spaces.Box(0, 255, (size["height"], size["width"], 3), np.uint8)})

    def observation(self, observation: dict) -> dict:
        from PIL import Image

        png = self.env.unwrapped.screenshot_png()
        shape = self.observation_space["screenshot"].shape
        if png is None:
            return {**observation, "screenshot": np.zeros(shape, np.uint8)}
        image = Image.open(io.BytesIO(png)).convert("RGB").resize((shape[1], shape[0]))
        return {**observation, "screenshot": np.asarray(image, dtype=np.uint8)}


def make(task_json: str | None = None, max_steps: int = 30, image: bool = False, render_mode: str | None = None, *,
         task: Task | dict | None = None, task_file: str | None = None, task_id: str | None = None) -> gym.Env:
    """Entry point of the registered ids: the task (JSON, a Task, or a task file and id) in a GymEnv, with screenshots when `image`."""
    env = GymEnv(_task(task_json, task, task_file, task_id), shared_manager(), max_steps=max_steps, render_mode=render_mode,
                 screenshots=image)
    return ScreenshotObservation(env) if image else env


def _task(task_json: str | None, task: Task | dict | None, task_file: str | None, task_id: str | None) -> Task:
    if task_json is not None:
        return Task.model_validate_json(task_json)
    if task is not None:
        return task if isinstance(task, Task) else Task.model_validate(task)
    if task_file is not None:
        return task_in_file(task_file, task_id)
    raise ValueError("gymfactory/Task-v0 needs task= (a Task or its dict), task_json=, or task_file= (and task_id=)")


def task_in_file(task_file: str | Path, task_id: str | None = None) -> Task:
    """The task `task_id` of a task file; a file of one task needs no id, and a file of several is refused without one
    (opening its first task unasked would train or evaluate on a task nobody chose)."""
    tasks = load_tasks(Path(task_file))
    listed = ", ".join(t.id for t in tasks[:3]) + (", ..." if len(tasks) > 3 else "")
    if task_id is None:
        if len(tasks) == 1:
            return tasks[0]
        raise ValueError(f"{task_file} holds {len(tasks)} tasks: give task_id= to choose one ({listed})")
    found = next((t for t in tasks if t.id == task_id), None)
    if found is None:
        near = suggest(task_id, [t.id for t in tasks])
        raise ValueError(f"{task_file}: no task {task_id!r}; " + (f"did you mean {', '.join(near)}?" if near else f"it holds {listed}"))
    return found


def env_id(task: Task, image: bool = False) -> str:
    return f"{NAMESPACE}/{task.id}{'-image' if image else ''}-v0"


def register_tasks(tasks: list[Task], max_steps: int = 30) -> list[dict[str, str]]:
    """Register a text and an image id per task; returns [{"text": id, "image": id}] in task order."""
    out = []
    for task in tasks:
        ids = {}
        for kind, image in (("text", False), ("image", True)):
            ids[kind] = env_id(task, image)
            gym.register(id=ids[kind], entry_point="runtime.interop.gym_register:make", max_episode_steps=max_steps,
                         kwargs={"task_json": task.model_dump_json(), "max_steps": max_steps, "image": image},
                         disable_env_checker=True)
        out.append(ids)
    return out


def register_shipped(max_steps: int = 30) -> list[str]:
    """Register `gymfactory/Task-v0` (any task, given to make) and an id per fixture task of every shipped app.

    `gymnasium.make("gymfactory/Task-v0", task_file="tasks.jsonl", task_id=...)` runs any task;
    `gymnasium.make("gymfactory/mail-answer-he-48622-v0")` a shipped one. Each has an `-image` twin with
    screenshots. Fixture files are read for their ids only; a task is loaded when its env is made. Idempotent.
    """
    import json
    from importlib.util import find_spec

    from mocked_apps.registry import shipped

    ids = []
    for image in (False, True):
        ids.append(f"{NAMESPACE}/Task{'-image' if image else ''}-v0")
        if ids[-1] not in gym.registry:
            gym.register(id=ids[-1], entry_point="runtime.interop.gym_register:make", max_episode_steps=max_steps,
                         kwargs={"max_steps": max_steps, "image": image}, disable_env_checker=True)
    for module in shipped().values():
        folder = Path(find_spec(module).origin).parent  # the app's folder, without importing the app
        for path in sorted((folder / "tasks").glob("*.json")):
            task_id = json.loads(path.read_text())["id"]
            for image in (False, True):
                ids.append(f"{NAMESPACE}/{task_id}{'-image' if image else ''}-v0")
                if ids[-1] not in gym.registry:
                    gym.register(id=ids[-1], entry_point="runtime.interop.gym_register:make", max_episode_steps=max_steps,
                                 kwargs={"task_file": str(path), "max_steps": max_steps, "image": image}, disable_env_checker=True)
    return ids
