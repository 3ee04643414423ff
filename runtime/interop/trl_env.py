"""A TRL environment (`GRPOTrainer(environment_factory=GymfactoryToolEnv)`) over gymfactory tasks.

TRL's contract (1.16): a no-argument constructor; `reset(**row) -> str | None`, whose text is appended
to the row's last user message; every public method is a tool the model calls (its typed signature and
docstring become the tool schema); `get_reward()` scores the finished rollout.

Here the tools are the agent's actions (`runtime.actions`; each tool's description is that action's
own docstring, the line the harness prompt uses), applied through `runtime.gym_env.GymEnv`; each
returns the next observation as text. `reset` opens the row's task (a dataset row's `task` column, or
a `task_file` path) in fresh app instances. `get_reward` is `session.evaluate()`, the project's one
scoring path (footprint guard included); an attempt that ends in `env_error` (an app or the browser died,
at reset, at a step or at scoring) scores None, which TRL treats as unscorable: left out of the group
baseline, advantage 0, so it never enters the loss. The model is told so in one line ("Environment error: ...").

    from trl import GRPOConfig, GRPOTrainer
    trainer = GRPOTrainer(model=model, processing_class=with_tool_template(tokenizer), args=GRPOConfig(...),
                          train_dataset=trl_dataset(rows), environment_factory=GymfactoryToolEnv)
"""

from __future__ import annotations

from typing import Any

from datasets import Dataset
from pydantic import ValidationError

from contracts.task import Task
from runtime.actions import ACTION_TYPES, format_action
from runtime.backends.base import EnvError
from runtime.gym_env import GymEnv, env_error_outcome, observation_text
from runtime.interop.gym_register import shared_manager, task_in_file

__all__ = ["GymfactoryToolEnv", "SYSTEM_PROMPT", "trl_dataset"]

SYSTEM_PROMPT = ("You operate web apps in a browser to complete a task for the user. Each observation shows the page's "
                 "accessibility tree; elements you can act on carry an id [n]. Act by calling the tools, one action per "
                 "call, and call answer when the task is done.")


def trl_dataset(rows: Dataset | list[Task]) -> Dataset:
    """A gymfactory dataset split (or tasks) as TRL rows: `prompt` (system + instruction) and `task` (read by reset)."""
    tasks = rows if isinstance(rows, list) else [Task.model_validate_json(r) for r in rows["task"]]
    return Dataset.from_list([{"prompt": [{"role": "system", "content": SYSTEM_PROMPT},
                                          {"role": "user", "content": f"Task: {t.instruction}\n\n"}],
                               "task": t.model_dump_json()} for t in tasks])


def _task_of(row: dict[str, Any]) -> Task:
    if row.get("task"):
        return Task.model_validate_json(row["task"]) if isinstance(row["task"], str) else Task.model_validate(row["task"])
    if row.get("task_file"):
        return task_in_file(row["task_file"], row.get("task_id"))
    raise ValueError("reset needs a row with `task` (a gymfactory dataset's task JSON) or `task_file` (a task file path)")


def _doc(kind: str, args: str = "") -> str:
    """A tool's docstring: the action's own docstring, then the Google-style Args TRL reads for the schema."""
    return f"{ACTION_TYPES[kind].__doc__.strip()}\n\nArgs:\n{args}\n\nReturns:\n    The page after the action." if args \
        else f"{ACTION_TYPES[kind].__doc__.strip()}\n\nReturns:\n    The page after the action."


class GymfactoryToolEnv:
    """One gymfactory episode per rollout; TRL constructs it without arguments and resets it per row."""

    max_steps: int = 30

    def __init__(self) -> None:
        self._env: GymEnv | None = None
        self.outcome: dict | None = None  # the last episode's Outcome (status, reward, verdicts), once scored
        self.task_id: str | None = None

    def reset(self, **row) -> str:
        """Open the row's task in fresh app instances; the first observation, appended to the user message."""
        self._close()
        task = _task_of(row)
        self.outcome, self.task_id = None, task.id
        try:
            self._env = GymEnv(task, shared_manager(), max_steps=self.max_steps)
            obs, _ = self._env.reset()
        except EnvError as err:  # the episode is over before it began: unscored
            self.outcome = env_error_outcome(err)
            return f"Environment error: {err}"
        return observation_text(obs)

    def get_reward(self) -> float | None:
        """The task verifier's reward for the final state; None on env_error (infrastructure), which TRL leaves out."""
        if self.outcome is None and self._env is not None:
            self.outcome = self._env.session.evaluate().model_dump()
        if self.outcome is None or self.outcome["status"] == "env_error":
            return None
        return float(self.outcome["reward"])

    def _act(self, kind: str, **fields) -> str:
        if self.outcome is not None:
            return "The episode has ended; no more actions."
        if self._env is None:
            raise RuntimeError("reset() first")
        try:
            text = format_action(ACTION_TYPES[kind](**{k: v for k, v in fields.items() if v is not None}))
        except ValidationError as err:
            return f"Invalid action: {err.errors()[0]['msg']}"
        try:
            obs, _, terminated, truncated, info = self._env.step(text)
        except EnvError as err:  # a dead app or browser, or a verifier that could not run: unscored
            self.outcome = env_error_outcome(err)
            return f"Environment error: {err}"
        if terminated or truncated:
            self.outcome = info["outcome"]
            return "The episode has ended." if terminated else "The step limit is reached; the episode has ended."
        return observation_text(obs)

    def _close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    def click(self, element: int | None = None, x: float | None = None, y: float | None = None) -> str:
        return self._act("click", element=element, x=x, y=y)

    def type(self, text: str) -> str:
        return self._act("type", text=text)

    def fill(self, element: int, text: str) -> str:
        return self._act("fill", element=element, text=text)

    def press(self, key: str) -> str:
        return self._act("press", key=key)

    def scroll(self, dx: float, dy: float) -> str:
        return self._act("scroll", dx=dx, dy=dy)

    def select(self, element: int, value: str) -> str:
        return self._act("select", element=element, value=value)

    def back(self) -> str:
        return self._act("back")

    def wait(self, seconds: float) -> str:
        return self._act("wait", seconds=seconds)

    def answer(self, text: str) -> str:
        return self._act("answer", text=text)

    def shell(self, command: str) -> str:
        return self._act("shell", command=command)

    click.__doc__ = _doc("click", "    element: The id n of element [n] to click.\n    x: Or the x pixel of a point to click.\n"
                                  "    y: And its y pixel.")
    type.__doc__ = _doc("type", "    text: The text to type.")
    fill.__doc__ = _doc("fill", "    element: The id n of input [n].\n    text: Its new content.")
    press.__doc__ = _doc("press", "    key: The key or chord.")
    scroll.__doc__ = _doc("scroll", "    dx: Pixels to the right.\n    dy: Pixels down.")
    select.__doc__ = _doc("select", "    element: The id n of drop-down [n].\n    value: The option's label.")
    back.__doc__ = _doc("back")
    wait.__doc__ = _doc("wait", "    seconds: Seconds to wait, at most 10.")
    answer.__doc__ = _doc("answer", "    text: The final answer, or an empty string.")
    shell.__doc__ = _doc("shell", "    command: The shell command.")
