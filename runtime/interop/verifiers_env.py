"""A `verifiers` environment (`load_environment`) over a gymfactory dataset, so prime-rl users can train on it.

Each dataset row is a task (its `task` column). A rollout opens the task's apps through
`runtime.gym_env.GymEnv` (fresh instances from the row's seed), shows the model gymfactory's own
system prompt (task and action language) and each observation as a user message, applies the last
line of every model reply as one action, and ends on answer(...) or the step limit. The reward is the
task's own verifier's: `reward = sum(w_j b_j) / sum(w_j)`, computed by the session, never re-derived here.

With `screenshots=True` each observation message is a list of OpenAI-style content parts: the same text,
then the page as an `image_url` part holding a `data:image/png;base64,...` URL (the session's PNG, as the
`-image` Gymnasium ids get it), for vision-language models. Off by default because it costs: a capture per
step in the browser, and every earlier screenshot stays in the conversation, so request `k` carries `k`
images (each about 85 KB of PNG, and a VLM's image tokens) where the text alone is a few KB.

    import verifiers as vf
    env = vf.load_environment("runtime.interop.verifiers_env", dataset="path/or/ORG/NAME")
    results = env.evaluate_sync(client=ClientConfig(...), model="m", num_examples=4)
"""

from __future__ import annotations

import asyncio
import base64
import threading

import verifiers as vf
from datasets import Dataset, load_dataset

from contracts.task import Task
from runtime.gym_env import GymEnv, observation_text
from runtime.harness import system_prompt
from runtime.manager import EnvironmentManager

_MANAGER: EnvironmentManager | None = None
_MANAGER_LOCK = threading.Lock()


def _manager() -> EnvironmentManager:
    """One environment manager per process, made on first use (app servers and Chromium start lazily)."""
    global _MANAGER
    with _MANAGER_LOCK:
        if _MANAGER is None:
            _MANAGER = EnvironmentManager()
        return _MANAGER


def _text(message) -> str:
    content = message.get("content") if isinstance(message, dict) else getattr(message, "content", "")
    if isinstance(content, list):
        return "\n".join(p.get("text", "") if isinstance(p, dict) else getattr(p, "text", "") for p in content)
    return content or ""


def _observation_message(obs: dict, png: bytes | None) -> vf.UserMessage:
    """One observation as a user message: its text, and the screenshot as an image part when there is one."""
    if png is None:
        return vf.UserMessage(content=observation_text(obs))
    url = f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}"
    return vf.UserMessage(content=[vf.TextContentPart(text=observation_text(obs)),
                                   vf.ImageUrlContentPart(image_url=vf.ImageUrlSource(url=url))])


def as_rows(rows: Dataset) -> Dataset:
    """A gymfactory dataset split -> the columns verifiers reads: prompt (system + instruction), info (the task)."""
    def convert(row: dict) -> dict:
        task = Task.model_validate_json(row["task"])
        return {"prompt": [{"role": "system", "content": system_prompt(task.instruction, task.form_factor)}],
                "answer": "", "info": {"gymfactory_task": row["task"], "task_id": task.id}}

    return rows.map(convert, remove_columns=rows.column_names)


class GymfactoryEnv(vf.MultiTurnEnv):
    """Multi-turn episodes in gymfactory's apps; one GymEnv (session) per rollout, closed at cleanup."""

    def __init__(self, dataset: Dataset, max_steps: int = 30, screenshots: bool = False, **kwargs):
        self.max_steps, self.screenshots = max_steps, screenshots
        self._episodes: dict[str, GymEnv] = {}
        super().__init__(dataset=dataset, max_turns=max_steps + 1, rubric=vf.Rubric(funcs=[self.task_reward]), **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        task = Task.model_validate_json(state["info"]["gymfactory_task"])
        env = await asyncio.to_thread(GymEnv, task, _manager(), self.max_steps, screenshots=self.screenshots)
        obs, _ = await asyncio.to_thread(env.reset)
        state["gym_key"] = f"{id(state)}"
        self._episodes[state["gym_key"]] = env
        state["prompt"] = [*state["prompt"], _observation_message(obs, await asyncio.to_thread(env.screenshot_png))]
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs) -> vf.Messages:
        env = self._episodes[state["gym_key"]]
        obs, reward, terminated, truncated, info = await asyncio.to_thread(env.step, _text(messages[-1]))
        reply = [_observation_message(obs, await asyncio.to_thread(env.screenshot_png))]
        if terminated or truncated:
            state["outcome"] = info["outcome"]
            state["final_env_response"] = reply
        return reply

    async def task_reward(self, state: vf.State) -> float:
        """The task's verifier's reward for the final state (evaluated now if the episode did not end itself)."""
        if "outcome" not in state and state.get("gym_key") in self._episodes:
            outcome = await asyncio.to_thread(self._episodes[state["gym_key"]].session.evaluate)
            state["outcome"] = outcome.model_dump()
        return float(state.get("outcome", {}).get("reward", 0.0))

    @vf.cleanup
    async def close_episode(self, state: vf.State) -> None:
        env = self._episodes.pop(state.get("gym_key"), None)
        if env is not None:
            if "outcome" not in state:
                state["outcome"] = (await asyncio.to_thread(env.session.evaluate)).model_dump()
            await asyncio.to_thread(env.close)


def load_environment(dataset: str = "", split: str = "train", max_steps: int = 30, screenshots: bool = False,
                     **kwargs) -> vf.Environment:
    """The verifiers entry point: a gymfactory dataset (a folder or a Hub repo id) and its split; `screenshots`
    adds each page as an image to its observation message."""
    if not dataset:
        raise ValueError("load_environment needs dataset=: a gymfactory dataset folder or Hub repo id")
    rows = load_dataset(dataset, split=split)
    return GymfactoryEnv(as_rows(rows), max_steps=max_steps, screenshots=screenshots, **kwargs)
