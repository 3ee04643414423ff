"""The dataset's `demonstrations` config: one row per step of each task's golden run, ready for supervised fine-tuning.

A row holds the task (id, family, apps, form factor, instruction), the step index, the page the action
was chosen on (URL, accessibility text, and the screenshot as a `datasets` Image whose PNG bytes sit in the
parquet file, so the folder needs nothing else; its path is where the PNG lies relative to the run folder, never
an absolute path), the golden action in the agent's action language, and
`messages`: the harness's own prompt at that step (`runtime.harness.Harness`: the system message, the
history window, this observation; text only) with the golden action as the assistant reply, the
conversational format TRL's `SFTTrainer` reads. Steps recorded without their observation (an action
alone) make no row: there is no prompt to build.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import datasets
import pyarrow as pa

from contracts.demonstration import DemoStep
from contracts.task import Task
from runtime.harness import Harness
from runtime.objectstore import ObjectStore
from runtime.observation import Observation

__all__ = ["CONFIG", "FEATURES", "rows", "table"]

CONFIG = "demonstrations"

FEATURES = datasets.Features({
    "task_id": datasets.Value("string"),
    "step": datasets.Value("int32"),
    "family": datasets.Value("string"),
    "apps": datasets.List(datasets.Value("string")),
    "form_factor": datasets.Value("string"),
    "instruction": datasets.Value("string"),
    "url": datasets.Value("string"),
    "axtree": datasets.Value("string"),
    "screenshot": datasets.Image(),
    "action": datasets.Value("string"),
    "messages": datasets.List({"role": datasets.Value("string"), "content": datasets.Value("string")}),
})


def rows(task: Task, steps: list[DemoStep], objects: ObjectStore | None, run: Path | None = None) -> Iterator[dict]:
    """The rows of one task's demonstration; a screenshot missing from `objects` (or no store) leaves the image empty.
    An image's path is the PNG's below the `run` folder when the store lies in it, else none."""
    if not steps or not all(s.observed for s in steps):
        return
    harness = Harness(task.instruction, task.form_factor)
    folder = objects.relative_to(run) if objects is not None else None
    for index, step in enumerate(steps):
        obs = Observation(step=index, url=step.url, axtree=step.axtree, last_action_error=step.error, shell_output=step.shell_output)
        prompt = harness.prompt(obs)
        harness.record(obs, step.action)
        messages = [{"role": m.role, "content": m.text()} for m in prompt.messages] + [{"role": "assistant", "content": step.action}]
        yield {"task_id": task.id, "step": index, "family": task.meta.family, "apps": list(task.apps), "form_factor": task.form_factor,
               "instruction": task.instruction, "url": step.url, "axtree": step.axtree,
               "screenshot": _png(step.screenshot, objects, folder), "action": step.action, "messages": messages}


def table(tasks: list[Task], demonstrations: dict[str, list[DemoStep]], objects: ObjectStore | None,
          run: Path | None = None) -> pa.Table:
    """Every row of `tasks` in order, typed by `FEATURES` (whose schema metadata tells `datasets` the image column)."""
    encoded = [FEATURES.encode_example(r) for t in tasks for r in rows(t, demonstrations.get(t.id, []), objects, run)]
    return pa.Table.from_pylist(encoded, schema=FEATURES.arrow_schema)


def _png(key: str | None, objects: ObjectStore | None, folder: str | None) -> dict | None:
    if key is None or objects is None:
        return None
    try:
        return {"bytes": objects.get(key), "path": f"{folder}/{key}" if folder else None}
    except FileNotFoundError:
        print(f"dataset: screenshot {key} is not in the object store {objects.url}; its row has no image")
        return None
