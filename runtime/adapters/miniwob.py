"""MiniWoB++ behind the environment manager's session operations, so the one harness and its agents run it.

The pages are the `miniwob` package's own HTML, opened offline from `file://`. Initialisation and
reward are MiniWoB's, done the way its own Selenium instance does them: stop the episode
(`core.endEpisode(0)`), seed (`Math.seedrandom`), set the data mode, `core.startEpisodeReal()`, wait for
`WOB_TASK_READY`; the reward is `WOB_RAW_REWARD_GLOBAL` once `WOB_DONE_GLOBAL` is set (the time-scaled
`WOB_REWARD_GLOBAL` and MiniWoB's reason are kept too). Observations and actions are gymfactory's: the
same page walker gives element ids, the same executor applies click/fill/type/press/scroll.

    host = ChromiumHost()
    session = MiniWoBSession(host, "click-button")
    task = session.prepare(seed=0)           # the utterance of that seed becomes the instruction
    result = run_attempt(session, task, agent, store)   # runtime.rollout's own loop
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Criterion, Task, TaskMeta
from runtime.actions import ActionParseError, Answer, Shell, parse_action
from runtime.backends.base import EnvError, PageSetup
from runtime.backends.chromium import ChromiumHost, screenshot_png
from runtime.execute import execute
from runtime.refs import RefError, resolve
from runtime.objectstore import ObjectStore
from runtime.observation import Observation
from runtime.observe import snapshot
from runtime.session import Outcome

CRITERION = "miniwob_reward"
_READY_TRIES, _READY_SLEEP_S = 20, 0.05  # MiniWoB's own: block up to 1 s for WOB_TASK_READY
_NO_TIMER_MS = 24 * 3600 * 1000  # MiniWoB's timer "off": a day
_METADATA_JS = ("() => ({done: WOB_DONE_GLOBAL, env_reward: WOB_REWARD_GLOBAL, raw_reward: WOB_RAW_REWARD_GLOBAL, "
                "reason: (typeof WOB_REWARD_REASON === 'undefined' || WOB_REWARD_REASON === null) ? null : String(WOB_REWARD_REASON)})")


class MiniWoBUnavailable(RuntimeError):
    """The `miniwob` package is not installed."""


def html_dir() -> Path:
    """The `miniwob` package's `html/` folder."""
    try:
        import miniwob  # noqa: F401 - registers its gymnasium ids, which name its tasks
    except ImportError as err:
        raise MiniWoBUnavailable("MiniWoB needs the miniwob package: pip install -r requirements.txt") from err
    return Path(importlib.import_module("miniwob").__file__).parent / "html"


def task_names() -> list[str]:
    """Every MiniWoB task that runs from file:// (the `flight.*` ones need an HTTP server), in registry order."""
    import gymnasium

    html_dir()
    names = []
    for env_id, spec in gymnasium.registry.items():
        if env_id.startswith("miniwob/") and isinstance(spec.entry_point, str):
            module, cls = spec.entry_point.split(":")
            sub = getattr(importlib.import_module(module), cls).subdomain
            if not sub.startswith("flight.") and sub not in names:
                names.append(sub)
    return names


class MiniWoBMetadata(BaseModel):
    """MiniWoB's own end-of-episode record (core.js globals)."""

    model_config = ConfigDict(frozen=True)

    done: bool
    env_reward: float = Field(description="WOB_REWARD_GLOBAL: the reward scaled down by the time taken.")
    raw_reward: float = Field(description="WOB_RAW_REWARD_GLOBAL: the task's reward, -1..1, without the time penalty.")
    reason: str | None = None


class MiniWoBSession:
    """One MiniWoB task page with the session operations `runtime.rollout.run_attempt` drives.

    `prepare(seed)` -> Task, then `reset(task)`, `observe()`, `step(action, action_id)`, `evaluate()`,
    `close()`. Browser faults are EnvError (the attempt is an env_error, never a zero reward).
    """

    def __init__(self, host: ChromiumHost, name: str, screenshots: ObjectStore | None = None, timeout_s: float = 30.0,
                 axtree_lines: int = 200, timer: bool = True):
        if name not in task_names():
            raise ValueError(f"unknown MiniWoB task {name!r}")
        self.name, self.timeout_s, self.axtree_lines = name, timeout_s, axtree_lines
        self.timer = timer  # MiniWoB's own 10-second episode timer; off, only the step bound ends an episode (a slow agent)
        self.url = (html_dir() / "miniwob" / f"{name}.html").as_uri()
        self.screenshots = screenshots
        self.shot_bytes = 0  # bytes of the screenshots put in `screenshots`, as `Session.shot_bytes`
        self._page = host.open_page(PageSetup(form_factor="desktop"), timeout_s)
        self._lock = threading.Lock()
        self._applied: dict[str, Observation] = {}
        self._task: Task | None = None
        self._step = 0
        self._answered = False
        self._floor = 0
        self._axtree = ""  # the tree of the last observation, against which an element named by its label is resolved
        self.metadata: MiniWoBMetadata | None = None
        self._loaded = False

    def prepare(self, seed: int) -> Task:
        """Start an episode with `seed` and read its utterance: the task an agent is given (same seed, same utterance)."""
        utterance = self._page.call(lambda page: self._begin(page, seed), self.timeout_s)
        return Task(
            id=f"miniwob.{self.name}-{seed}", apps=("miniwob",), instruction=utterance or f"Solve the {self.name} task.",
            criteria=(Criterion(id=CRITERION, description="MiniWoB's own reward (core.js) is 1 at the end of the episode."),),
            verifier="# scored by MiniWoB's own reward (WOB_RAW_REWARD_GLOBAL), not by a gymfactory verifier",
            golden="", meta=TaskMeta(family=f"miniwob.{self.name}", provenance="miniwob"),
            answer_context={"miniwob_seed": seed},
        )

    async def _begin(self, page, seed: int) -> str:
        if not self._loaded:
            await page.goto(self.url)
            await page.wait_for_selector("#sync-task-cover", timeout=self.timeout_s * 1000)
            self._floor = await page.evaluate("history.length") - 1
            self._loaded = True
        await page.evaluate("() => core.endEpisode(0)")  # MiniWoB's force_stop
        if not self.timer:  # what suites do for slow agents: an episode MiniWoB never ends by itself (the reward's time scale too)
            await page.evaluate(f"() => {{ core.EPISODE_MAX_TIME = {_NO_TIMER_MS}; }}")
        await page.evaluate("(seed) => Math.seedrandom(seed)", seed)
        await page.evaluate("() => core.setDataMode('train')")
        await page.evaluate("() => core.startEpisodeReal()")
        for _ in range(_READY_TRIES):
            if await page.evaluate("() => WOB_TASK_READY"):
                break
            await asyncio.sleep(_READY_SLEEP_S)
        else:
            raise EnvError(f"MiniWoB task {self.name} did not become ready")
        utterance = await page.evaluate("() => core.getUtterance()")  # a string, or {utterance, fields} in some tasks
        return (utterance.get("utterance", "") if isinstance(utterance, dict) else utterance) or ""

    def reset(self, task: Task) -> Observation:
        """MiniWoB's own initialisation with the task's seed; the first observation."""
        with self._lock:
            self._task, self._step, self._answered, self._applied, self.metadata = task, 0, False, {}, None
            self._page.call(lambda page: self._begin(page, int(task.answer_context["miniwob_seed"])), self.timeout_s)
            return self._observe(None)

    def observe(self) -> Observation:
        with self._lock:
            return self._observe(None)

    def step(self, action: str, action_id: str | None = None) -> Observation:
        """Apply one action (text is parsed); an invalid one is feedback; a retried `action_id` is applied once."""
        with self._lock:
            if action_id is not None and action_id in self._applied:
                return self._applied[action_id]
            self._step += 1
            error = None
            try:
                parsed = resolve(parse_action(action), self._axtree)
            except (ActionParseError, RefError) as err:
                parsed, error = None, str(err)
            if parsed is None:
                pass
            elif self._done():
                error = "the episode is over; no more actions are applied"
            elif isinstance(parsed, Answer):
                self._answered = True  # MiniWoB has no answer action: the episode ends with MiniWoB's reward as it is
            elif isinstance(parsed, Shell):
                error = "shell() is not available in MiniWoB tasks"
            else:
                walk = lambda page: snapshot(page, max_lines=self.axtree_lines)  # noqa: E731
                error, _ = self._page.call(lambda page: execute(page, parsed, walk, False, self._floor), self.timeout_s)
            obs = self._observe(error)
            if action_id is not None:
                self._applied[action_id] = obs
            return obs

    def evaluate(self) -> Outcome:
        """MiniWoB's reward: success when the raw reward is 1; an episode not ended by MiniWoB scores 0."""
        with self._lock:
            try:
                meta = self._metadata()
            except EnvError as err:
                return Outcome(status="env_error", error=str(err))
            self.metadata = meta
            reward = meta.raw_reward if meta.done else 0.0
            success = meta.done and meta.raw_reward >= 1.0
            return Outcome(status="success" if success else "failure", reward=reward, success=success,
                           verdicts={CRITERION: success}, error=None if meta.done else "the episode did not end")

    def final(self) -> None:
        """No app state behind a MiniWoB page: its reward is MiniWoB's own (`evaluate`), nothing to keep."""
        return None

    def close(self) -> None:
        self._page.close(reuse=False)

    def _metadata(self) -> MiniWoBMetadata:
        return MiniWoBMetadata.model_validate(self._page.call(lambda page: page.evaluate(_METADATA_JS), self.timeout_s))

    def _done(self) -> bool:
        return self._answered or self._metadata().done

    def _observe(self, error: str | None) -> Observation:
        async def grab(page):
            snap = await snapshot(page, max_lines=self.axtree_lines)
            png = await screenshot_png(page) if self.screenshots is not None else None
            return snap, png

        snap, png = self._page.call(grab, self.timeout_s)
        key = None
        if png is not None:
            self.shot_bytes += len(png)
            key = self.screenshots.put(f"miniwob/{self.name}/{id(self)}-{self._step:03d}.png", png)
        self._axtree = snap["axtree"]
        return Observation(step=self._step, url=snap["url"], title=snap.get("title", ""), axtree=snap["axtree"],
                           screenshot=key, last_action_error=error, done=self._done())
