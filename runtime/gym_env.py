"""A Gymnasium `Env` over one session: text observations, text actions (parsed by `runtime.actions.parse_action`)."""

from __future__ import annotations

import re
import string
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from contracts.task import Task
from runtime.axtree import compact_tree
from runtime.backends.base import EnvError
from runtime.manager import EnvironmentManager
from runtime.session import Lease, Outcome, SessionSpec

MAX_TEXT = 100_000
_INSTANCE_URL = re.compile(r"^https?://127\.0\.0\.1:\d+/i/[0-9a-f]+")


class UnicodeText(spaces.Text):
    """Text of any Unicode characters up to `max_length`; `sample()` draws printable ASCII."""

    def __init__(self, max_length: int, min_length: int = 0, seed: int | None = None):
        super().__init__(max_length=max_length, min_length=min_length, charset=string.printable, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"


def observation_text(obs: dict[str, str]) -> str:
    """A GymEnv observation as one text message: URL, the last action's error, shell output, then the page as the compact
    view shows it (runtime.axtree.compact_tree: every element, fewer tokens; the observation's `axtree` stays whole)."""
    parts = [f"URL: {obs['url']}"]
    if obs["last_action_error"]:
        parts.append(f"Last action failed: {obs['last_action_error']}")
    if obs["shell_output"]:
        parts.append(f"Shell output:\n{obs['shell_output']}")
    parts.append(compact_tree(obs["axtree"]))
    return "\n".join(parts)


def env_error_outcome(err: BaseException | str) -> dict:
    """The outcome of an attempt the environment failed (an app, the browser, the model endpoint): never scored."""
    return Outcome(status="env_error", error=str(err)).model_dump()


class GymEnv(gym.Env):
    """One task in a session: `reset()` starts the task, `step(text)` applies one action, reward at the end.

    Observation: {"instruction", "axtree", "url", "last_action_error", "shell_output"} as text; the URL shows
    the app and its path (`notes:/note/4`) rather than a server port and instance id, so equal states look equal.
    The episode terminates on answer(...) with the task's reward; it is truncated after `max_steps`.
    An environment fault (a dead app server or browser, a failed verifier) raises `EnvError` with the cause in
    one line, from `reset`, `step`, or the step that ends the episode: such an attempt has no reward, never a 0.
    With `screenshots`, each observation's page is also captured; `screenshot_png()` returns it.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, task: Task, manager: EnvironmentManager, max_steps: int = 30, render_mode: str | None = None,
                 screenshots: bool = False):
        self.task = task
        self.manager = manager
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.session = manager.request(SessionSpec.for_task(task, screenshots=screenshots), Lease(seconds=3600))
        text = UnicodeText(MAX_TEXT)
        self.observation_space = spaces.Dict(
            {"instruction": UnicodeText(MAX_TEXT), "axtree": text, "url": UnicodeText(2048), "last_action_error": UnicodeText(4096), "shell_output": UnicodeText(MAX_TEXT)}
        )
        self.action_space = UnicodeText(1000, min_length=1)
        self._obs = None

    def _convert(self, obs) -> dict[str, str]:
        url = obs.url
        for inst in self.session.instances:
            if url.startswith(inst.url):
                url = f"{inst.app.rsplit('/', 1)[-1]}:/{url[len(inst.url):]}"
        return {
            "instruction": self.task.instruction[:MAX_TEXT],
            "axtree": obs.axtree[:MAX_TEXT],
            "url": url[:2048],
            "last_action_error": (obs.last_action_error or "")[:4096],
            "shell_output": (obs.shell_output or "")[:MAX_TEXT],
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._obs = self.session.reset(self.task)
        return self._convert(self._obs), {"step": 0}

    def step(self, action: str):
        self._obs = self.session.step(action)
        terminated = self._obs.done
        truncated = not terminated and self._obs.step >= self.max_steps
        reward, info = 0.0, {"step": self._obs.step}
        if terminated or truncated:
            outcome = self.session.evaluate()
            if outcome.status == "env_error":
                raise EnvError(f"the environment failed, the attempt is not scored: {outcome.error}")
            reward = float(outcome.reward)
            info["outcome"] = outcome.model_dump()
        return self._convert(self._obs), reward, terminated, truncated, info

    def screenshot_png(self) -> bytes | None:
        """The PNG of the page at the last observation; None before reset or when made without `screenshots`."""
        key = self._obs.screenshot if self._obs is not None else None
        return self.manager.screenshots.get(key) if key is not None else None

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self._obs is not None:
            return f"{self._obs.url}\n{self._obs.axtree}"
        return None

    def close(self) -> None:
        self.session.close()
        super().close()
