"""Golden demonstrations collected through the one rollout path, for the supervised warm-up.

The golden agent stops by returning None, which no policy can do; `DemoAgent` wraps it and, once
the golden code has finished without answering, ends the attempt with `answer("")`, so the
demonstrations also teach the policy when to stop.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from contracts.task import Task
from runtime.actions import STOP, ActionParseError, format_action, parse_action
from runtime.agents.base import AgentOptions
from runtime.agents.golden import GoldenAgent
from runtime.harness import Prompt, Turn
from runtime.manager import EnvironmentManager, Lease, SessionSpec
from runtime.observation import Observation
from runtime.refs import by_name
from runtime.rollout import AttemptResult, recorded_turns, run_attempt
from runtime.store import TrajectoryStore

class DemoAgent(GoldenAgent):
    """The golden agent, ending with `answer("")` when its code returns without having answered."""

    name = "golden"

    def reset(self, task: Task) -> None:
        super().reset(task)
        self._stopped = False

    def act(self, prompt: Prompt, observation: Observation) -> str | None:
        if self._stopped:
            return None
        action = super().act(prompt, observation)
        if action is None:
            self._stopped = True
            return STOP
        return action


@dataclass(frozen=True)
class Demo:
    """A successful golden attempt: its task and its steps as harness turns."""

    task: Task
    turns: tuple[Turn, ...]
    attempt_id: int  # -1: read from a dataset, not from this run's store


def collect_demos(
    tasks: Iterable[Task], manager: EnvironmentManager, store: TrajectoryStore, max_steps: int = 30
) -> tuple[list[Demo], list[AttemptResult]]:
    """One golden attempt per task via `run_attempt`; successful ones come back as demos, read from the store."""
    demos, results = [], []
    for task in tasks:
        agent = DemoAgent(AgentOptions())
        try:
            session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
            try:
                result = run_attempt(session, task, agent, store, max_steps, info={"purpose": "demo"})
            finally:
                session.close()
        finally:
            agent.close()
        results.append(result)
        if result.status == "success":
            demos.append(Demo(task, tuple(recorded_turns(store, result.attempt_id)), result.attempt_id))
    return demos, results


class DemonstrationsError(ValueError):
    """A dataset folder without a readable `demonstrations` config."""


def dataset_tasks(folder: Path) -> list[Task]:
    """Every task of a dataset folder (`gymfactory run`'s OUT/dataset: the `task` column of its default config)."""
    import datasets

    try:
        splits = datasets.load_dataset(str(folder))
    except (FileNotFoundError, ValueError) as err:
        raise DemonstrationsError(f"{folder}: no dataset to read ({err}); give the dataset folder of a `gymfactory run` (OUT/dataset)") from None
    return [Task.model_validate_json(row["task"]) for split in splits.values() for row in split.select_columns(["task"])]


def dataset_demos(folder: Path, tasks: Sequence[Task]) -> list[Demo]:
    """The golden steps that a dataset's `demonstrations` config holds for `tasks` (in their order), as demos.

    The dataset is what a user trains on: `gymfactory run` exports it (OUT/dataset), one row per golden step
    with the page it was chosen on (URL, accessibility text) and the action. A task's rows in step order become
    its turns; a task without rows is left out. Screenshots are not read.
    """
    import datasets

    try:
        splits = datasets.load_dataset(str(folder), "demonstrations")
    except (FileNotFoundError, ValueError) as err:
        raise DemonstrationsError(f"{folder}: no demonstrations config to read ({err}); give the dataset folder of a "
                                  "`gymfactory run` (OUT/dataset)") from None
    wanted = {t.id for t in tasks}
    return demos_from_rows(tasks, (row for split in splits.values()
                                   for row in split.select_columns(["task_id", "step", "url", "axtree", "action"])
                                   if row["task_id"] in wanted))


def demos_from_rows(tasks: Sequence[Task], rows: Iterable[Mapping]) -> list[Demo]:
    """Demonstration steps as rows (`task_id`, `step`, `url`, `axtree`, `action`: the dataset's `demonstrations`
    columns) as the demos of `tasks`, in their order, each task's rows in step order; a task without rows is left out."""
    steps: dict[str, list[Mapping]] = {}
    for row in rows:
        steps.setdefault(row["task_id"], []).append(row)
    demos = []
    for task in tasks:
        mine = sorted(steps.get(task.id, ()), key=lambda r: r["step"])
        if mine:
            turns = tuple(Turn(observation=Observation(step=r["step"], url=r["url"], axtree=r["axtree"]), output=r["action"],
                               action=_formatted(r["action"])) for r in mine)
            demos.append(Demo(task, turns, attempt_id=-1))
    return demos


def named(demo: Demo) -> Demo:
    """The demonstration with each element id written as the element's name, where the name resolves back to the same
    element on that step's page (runtime.refs.by_name): `click(7)` becomes `click('Members')`; the rest stay as they are."""
    turns = []
    for turn in demo.turns:
        try:
            action = by_name(parse_action(turn.output), turn.observation.axtree)
        except ActionParseError:
            turns.append(turn)
            continue
        text = format_action(action)
        turns.append(turn.model_copy(update={"output": text, "action": text}))
    return Demo(demo.task, tuple(turns), demo.attempt_id)


def _formatted(action: str) -> str | None:
    try:
        return format_action(parse_action(action))
    except ActionParseError:
        return None
