"""gymfactory as a `verifiers` 0.4 environment (`verifiers.v1`), so prime-rl users can evaluate and train on it.

verifiers 0.4 finds an environment by a taskset id, a top-level package exporting its plug-ins: here
`gymfactory_verifiers` (the package of that name re-exports the three classes below).

- `GymfactoryTaskset` reads a gymfactory dataset (a folder or a Hub repo id): one task per row (its `task` column),
  carrying gymfactory's own system prompt (the task and the action language).
- `GymfactoryEnv` is the run's user, as verifiers' game environments are: it opens the task's apps through
  `runtime.gym_env.GymEnv` (fresh instances from the task's seed), sends each observation as a user turn, applies
  the last line of every reply as one action, and ends on answer(...) or the step limit.
- `GymfactoryTask` scores the episode: the reward is the task's own verifier's, `sum(w_j b_j) / sum(w_j)`, computed
  by the session (the whole outcome is under `trace.info["gymfactory_outcome"]`) and recorded as `task_reward`. An
  env_error outcome fails the trace's scoring instead of scoring it 0: a dead app server or browser, a verifier that
  could not run, or a model endpoint that did not answer (the rollout's own ProviderError); `trace.ok` is then
  False and `trace.errors[-1]` says why in one line.
- `GymfactoryHarness` is the model side: one chat completion per turn, in process, through the rollout's
  interception endpoint (so the trace, sampling and training tokens are verifiers' own). verifiers' `null` chat
  harness would do the same from a uv-installed script, which needs the network; this one needs nothing.

With `screenshots=True` each observation message is a list of OpenAI-style content parts: the same text, then the
page as an `image_url` part holding a `data:image/png;base64,...` URL (the session's PNG, as the `-image` Gymnasium
ids get it), for vision-language models. Off by default because it costs: a capture per step in the browser, and
every earlier screenshot stays in the conversation, so request `k` carries `k` images (each about 85 KB of PNG,
and a VLM's image tokens) where the text alone is a few KB.

    from runtime.interop.verifiers_env import load_environment
    env = load_environment(dataset="path/or/ORG/NAME", max_steps=30)   # a verifiers.v1 Env
    # or from the command line: vf-eval gymfactory_verifiers --env.taskset.dataset path/or/ORG/NAME ...
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator

import openai
import verifiers.v1 as vf
from datasets import load_dataset
from pydantic import Field
from verifiers.v1.dialects.chat import message_to_wire

from contracts.task import Task
from runtime.backends.base import EnvError
from runtime.gym_env import GymEnv, env_error_outcome, observation_text
from runtime.harness import system_prompt
from runtime.manager import EnvironmentManager

TASKSET_ID = "gymfactory_verifiers"
"""The taskset id verifiers loads this environment by (`--env.taskset.id`, `vf-eval gymfactory_verifiers`)."""
OUTCOME = "gymfactory_outcome"
"""The key of `trace.info` holding the session's outcome (status, reward, verdicts, error)."""

__all__ = ["OUTCOME", "TASKSET_ID", "GymfactoryData", "GymfactoryEnv", "GymfactoryEnvConfig", "GymfactoryHarness",
           "GymfactoryTask", "GymfactoryTaskset", "GymfactoryTasksetConfig", "env_config", "load_environment"]


class GymfactoryTasksetConfig(vf.TasksetConfig):
    """Which gymfactory dataset the tasks come from (`--env.taskset.*`)."""

    dataset: str = ""
    """A gymfactory dataset: an exported folder or a Hub repo id."""
    split: str = "train"
    """The dataset split."""


class GymfactoryData(vf.TaskData):
    """One task on the wire: gymfactory's system prompt, and the task itself."""

    task: str
    """The gymfactory task as JSON (the dataset's `task` column)."""


class GymfactoryTask(vf.Task[GymfactoryData, vf.State, vf.TaskConfig]):
    """A gymfactory task, scored from the outcome `GymfactoryEnv` leaves on the trace before the exchange closes."""

    @vf.reward
    async def task_reward(self, trace: vf.Trace) -> float:
        """The task's verifier's reward for the final state; an env_error (infrastructure) fails scoring, never a 0."""
        outcome = trace.info[OUTCOME]
        if outcome["status"] == "env_error":
            raise EnvError(f"the environment failed, the attempt is not scored: {outcome.get('error')}")
        return float(outcome["reward"])


class GymfactoryTaskset(vf.Taskset[GymfactoryTask, GymfactoryTasksetConfig]):
    """A gymfactory dataset split, one task per row. The environment opens each conversation with the first
    observation, so a task has a system prompt and no prompt."""

    def load(self) -> Iterator[GymfactoryTask]:
        if not self.config.dataset:
            raise ValueError("the gymfactory taskset needs a dataset (--env.taskset.dataset): a dataset folder or Hub repo id")
        for row in load_dataset(self.config.dataset, split=self.config.split):
            task = Task.model_validate_json(row["task"])
            data = GymfactoryData(id=task.id, name=task.id, system_prompt=system_prompt(task.instruction, task.form_factor),
                                  task=row["task"])
            yield GymfactoryTask(data, self.config.task)


class GymfactoryHarness(vf.Harness[vf.HarnessConfig]):
    """One chat completion per turn, asked in process through the rollout's interception endpoint."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: vf.ModelContext, trace: vf.Trace, runtime: vf.Runtime, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: vf.TaskData) -> vf.ProgramResult:
        system, prompt = self.resolve_prompt(data)
        messages = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        else:
            messages.extend(message_to_wire(m) for m in prompt or [])
        # the SDK's own retries: the interception answers a provider's transient faults with 5xx/429, as verifiers' harnesses expect
        async with openai.AsyncOpenAI(base_url=endpoint, api_key=secret) as client:
            completion = await client.chat.completions.create(model=ctx.model, messages=messages)
        return vf.ProgramResult(exit_code=0, stdout=completion.choices[0].message.content or "", stderr="")


class GymfactoryEnvConfig(vf.EnvConfig):
    """The environment's knobs (`--env.*`): its one agent, the step limit, screenshots."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())
    """The policy. Its harness runs in this process and executes nothing, so the local runtime is the default."""
    max_steps: int = Field(30, ge=1)
    """Steps per episode before it is truncated."""
    screenshots: bool = False
    """Show the model each page as an image next to its text (for vision-language models)."""


def _observation_message(obs: dict, png: bytes | None) -> vf.UserMessage:
    """One observation as a user message: its text, and the screenshot as an image part when there is one."""
    if png is None:
        return vf.UserMessage(content=observation_text(obs))
    url = f"data:image/png;base64,{base64.b64encode(png).decode('ascii')}"
    return vf.UserMessage(content=[vf.TextContentPart(text=observation_text(obs)),
                                   vf.ImageUrlContentPart(image_url=vf.ImageUrlSource(url=url))])


class GymfactoryEnv(vf.Env[GymfactoryEnvConfig]):
    """Multi-turn episodes in gymfactory's apps, the env playing the user; one GymEnv (session) per episode.

    One environment manager while the env serves (`serving()`: an eval, an env server's life): app servers and
    Chromium start on first use, are shared by the episodes, and close when serving ends."""

    def __init__(self, config: GymfactoryEnvConfig) -> None:
        super().__init__(config)
        self._manager: EnvironmentManager | None = None

    async def start(self) -> None:
        self._manager = EnvironmentManager()

    async def stop(self) -> None:
        manager, self._manager = self._manager, None
        if manager is not None:
            await asyncio.to_thread(manager.close)

    async def run(self, task: GymfactoryTask, agents: vf.Agents) -> None:
        if self._manager is None:
            raise RuntimeError("GymfactoryEnv runs episodes inside `async with env.serving():` (the eval and env server do)")
        gym = await asyncio.to_thread(GymEnv, Task.model_validate_json(task.data.task), self._manager,
                                      self.config.max_steps, screenshots=self.config.screenshots)
        try:
            async with agents.agent.interaction(task) as interaction:
                try:
                    outcome = await self._episode(gym, interaction)
                except EnvError as err:  # an app or the browser died, or the verifier could not run
                    outcome = env_error_outcome(err)
                interaction.trace.info[OUTCOME] = outcome  # GymfactoryTask.task_reward scores it as the exchange closes
        finally:
            await asyncio.to_thread(gym.close)

    async def _episode(self, gym: GymEnv, interaction: vf.Interaction) -> dict:
        """Turns until answer(...) or the step limit; the outcome. A model that did not answer is an env_error."""
        obs, _ = await asyncio.to_thread(gym.reset)
        segment = await interaction.turn([await self._observe(gym, obs)])
        while not segment.terminated:
            obs, _, terminated, truncated, info = await asyncio.to_thread(gym.step, segment.last_reply)
            if terminated or truncated:
                return info["outcome"]
            segment = await interaction.turn([await self._observe(gym, obs)])
        if interaction.trace.errors:  # the model endpoint failed (verifiers' ProviderError): nothing to score
            error = interaction.trace.errors[-1]
            return env_error_outcome(f"{error.type}: {error.message}")
        # the agent's run ended first (its turn limit): score where it stopped
        return (await asyncio.to_thread(gym.session.evaluate)).model_dump(mode="json")

    async def _observe(self, gym: GymEnv, obs: dict) -> vf.UserMessage:
        return _observation_message(obs, await asyncio.to_thread(gym.screenshot_png))


def env_config(dataset: str, split: str = "train", max_steps: int = 30, screenshots: bool = False) -> GymfactoryEnvConfig:
    """The environment's config over a gymfactory dataset (a folder or a Hub repo id) and its split; `screenshots`
    adds each page as an image to its observation message."""
    return vf.resolve_env_config({"taskset": {"id": TASKSET_ID, "dataset": dataset, "split": split},
                                  "max_steps": max_steps, "screenshots": screenshots})


def load_environment(dataset: str, split: str = "train", max_steps: int = 30, screenshots: bool = False) -> GymfactoryEnv:
    """The environment over a gymfactory dataset, as `vf.load_environment(env_config(...))` builds it."""
    return vf.load_environment(env_config(dataset, split, max_steps, screenshots))
