"""The dataset's `demonstrations` config: one row per step of each task's golden run, ready for supervised fine-tuning.

A row holds the task (id, family, apps, form factor, instruction), the step index, the page the action
was chosen on (URL, accessibility text, and the screenshot as a `datasets` Image whose PNG bytes sit in the
parquet file, so the folder needs nothing else; its path is where the PNG lies relative to the run folder, never
an absolute path), the golden action in the agent's action language, and
`messages`: the harness's own prompt at that step (`runtime.harness.Harness`: the system message, the
history window, this observation; text only) with the golden action as the assistant reply, the
conversational format TRL's `SFTTrainer` reads. Steps recorded without their observation (an action
alone) make no row: there is no prompt to build.

Every row's `messages` fits `BUDGET` tokens in the reference model's chat template (`tokens`), the action kept whole:
past it, the oldest steps of the history go first (the first step left is shown as its whole page), and a page still
too long alone is cut to the lines around the element the action names. The system message (the task) and the action
are never cut, so a trainer that keeps the start of a row up to `BUDGET` tokens trains on every action.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Iterator
from pathlib import Path

import datasets
import pyarrow as pa
from pydantic import BaseModel, ConfigDict, Field

from contracts.demonstration import DemoStep
from contracts.task import Task
from rl.models import REFERENCE, tokenizer_folder
from runtime.actions import ActionParseError, parse_action
from runtime.harness import Harness, window_of
from runtime.objectstore import ObjectStore
from runtime.observation import Observation

__all__ = ["BUDGET", "CONFIG", "FEATURES", "TokenLengths", "lengths", "rows", "table", "tokens"]

CONFIG = "demonstrations"

BUDGET = 2048
"""The most tokens a row's `messages` takes in the reference model's chat template. On the default run (2,296 rows; median
1,396 tokens, p90 3,129, max 5,709 uncut) it shows a shorter history in 569 rows (25%) and cuts the page in 69 (3%);
3,072 would still cut 36 pages for 1.5 times the memory per sequence, and 1,024 would shorten the history of 70%. A CPU SFT step of the reference
model at `max_length=2048` fits a laptop's memory."""

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


def rows(task: Task, steps: list[DemoStep], objects: ObjectStore | None, run: Path | None = None,
         budget: int = BUDGET) -> Iterator[dict]:
    """The rows of one task's demonstration; a screenshot missing from `objects` (or no store) leaves the image empty.
    An image's path is the PNG's below the `run` folder when the store lies in it, else none."""
    if not steps or not all(s.observed for s in steps):
        return
    harness = Harness(task.instruction, task.form_factor)
    folder = objects.relative_to(run) if objects is not None else None
    for index, step in enumerate(steps):
        obs = Observation(step=index, url=step.url, axtree=step.axtree, last_action_error=step.error, shell_output=step.shell_output)
        messages = _fitted(task, harness, obs, step.action, budget)
        harness.record(obs, step.action)
        yield {"task_id": task.id, "step": index, "family": task.meta.family, "apps": list(task.apps), "form_factor": task.form_factor,
               "instruction": task.instruction, "url": step.url, "axtree": step.axtree,
               "screenshot": _png(step.screenshot, objects, folder), "action": step.action, "messages": messages}


def table(tasks: list[Task], demonstrations: dict[str, list[DemoStep]], objects: ObjectStore | None,
          run: Path | None = None, budget: int = BUDGET) -> pa.Table:
    """Every row of `tasks` in order, typed by `FEATURES` (whose schema metadata tells `datasets` the image column)."""
    encoded = [FEATURES.encode_example(r) for t in tasks for r in rows(t, demonstrations.get(t.id, []), objects, run, budget)]
    return pa.Table.from_pylist(encoded, schema=FEATURES.arrow_schema)


def tokens(messages: list[dict]) -> int:
    """The length of a row's `messages` in the reference model's chat template, as TRL's `SFTTrainer` tokenizes it."""
    return len(_tokenizer().apply_chat_template(messages, tokenize=True, return_dict=True)["input_ids"])


def counted(messages: list[dict]) -> int:
    """`tokens(messages)`, summed over the messages, each counted once per process: the template renders each message on
    its own between special tokens, so the sum is the same number (checked on real rows in the tests), and the rows of a
    task, which repeat their history, cost little."""
    return _start() + sum(_message_tokens(m["role"], m["content"]) for m in messages)


class TokenLengths(BaseModel):
    """The demonstrations' lengths in the reference model's chat template, for the dataset card."""

    model_config = ConfigDict(frozen=True)

    budget: int = Field(description="The most tokens a row may take (`BUDGET`).")
    rows: int
    median: float
    p90: int
    max: int
    shorter_history: int = Field(description="Rows that show fewer earlier steps than the agent's harness would, to fit.")
    cut_page: int = Field(description="Rows whose page alone was too long, cut to the lines around the action's element.")


def lengths(table: pa.Table, budget: int = BUDGET) -> TokenLengths | None:
    """The token lengths of a demonstrations table's rows (none without rows)."""
    if not table.num_rows:
        return None
    conversations = table.column("messages").to_pylist()
    sizes = sorted(counted(m) for m in conversations)
    shown = [(len(m) - 3) // 2 for m in conversations]
    full = [len(_history(step)) for step in table.column("step").to_pylist()]
    return TokenLengths(budget=budget, rows=len(sizes), median=statistics.median(sizes), p90=sizes[int(0.9 * (len(sizes) - 1))],
                        max=sizes[-1], shorter_history=sum(s < f for s, f in zip(shown, full)),
                        cut_page=sum(_CUT in m[-2]["content"] for m in conversations))


@functools.cache
def _tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(tokenizer_folder(REFERENCE)))


_EMPTY = [{"role": "system", "content": ""}]  # a system message first: the template adds no default one


@functools.cache
def _message_tokens(role: str, content: str) -> int:
    return tokens(_EMPTY + [{"role": role, "content": content}]) - tokens(_EMPTY)


@functools.cache
def _start() -> int:
    """Tokens the template puts before the first message, once (none in ChatML)."""
    return 2 * tokens(_EMPTY) - tokens(_EMPTY + _EMPTY)


def _messages(prompt, action: str) -> list[dict]:
    return [{"role": m.role, "content": m.text()} for m in prompt.messages] + [{"role": "assistant", "content": action}]


def _history(step: int) -> tuple[int, ...]:
    """The earlier steps the agent's harness shows at `step`: its history window."""
    window = window_of(step)
    return window.context + tuple(s for s in window.new if s < step)


_CUT = "lines of this page not shown)"


def _fitted(task: Task, harness: Harness, obs: Observation, action: str, budget: int) -> list[dict]:
    """The prompt at `obs` with `action` as the reply, within `budget` tokens: the oldest history steps dropped first, then
    the page cut around the action's element. Never the system message, never the action."""
    messages = _messages(harness.prompt(obs), action)
    step, shown = len(harness.turns), _history(len(harness.turns))
    system, pairs, page, reply = messages[0], messages[1:-2], messages[-2], messages[-1]
    for drop in range(1, len(shown) + 1):
        if counted(messages) <= budget:
            return messages
        # the last steps only: the first of them (this page, with no history left) shown whole, not as its changes
        rest = [_whole(task, harness, shown[drop]), *pairs[2 * drop + 1:], page] if drop < len(shown) else [_whole(task, harness, step, obs)]
        messages = [system, *rest, reply]
    if counted(messages) <= budget:
        return messages
    lines = obs.axtree.splitlines()
    at = _line_of(lines, action)
    low, high = 1, len(lines)  # the most lines around `at` that fit, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        if counted([system, _whole(task, harness, step, _cut(obs, lines, at, middle)), reply]) <= budget:
            low = middle
        else:
            high = middle - 1
    return [system, _whole(task, harness, step, _cut(obs, lines, at, low)), reply]


def _whole(task: Task, harness: Harness, step: int, obs: Observation | None = None) -> dict:
    """Step `step`'s user message as the harness writes it with no earlier step shown: its whole page."""
    alone = Harness.replay(task.instruction, harness.turns[:step], task.form_factor, mode="last_k", window=1, overlap=0)
    return _messages(alone.prompt(obs or harness.turns[step].observation), "")[-2]


def _line_of(lines: list[str], action: str) -> int:
    """The line of the element `action` names (the page's first line when it names none)."""
    try:
        element = getattr(parse_action(action), "element", None)
    except ActionParseError:
        element = None
    mark = f"[{element}] "
    return next((i for i, line in enumerate(lines) if element is not None and line.lstrip().startswith(mark)), 0)


def _cut(obs: Observation, lines: list[str], at: int, keep: int) -> Observation:
    """`obs` with `keep` lines of its tree around line `at`, and a note for each side cut."""
    start = max(0, min(at - keep // 2, len(lines) - keep))
    kept = lines[start:start + keep]
    above, below = start, len(lines) - start - len(kept)
    tree = ([f"... ({above} {_CUT}"] if above else []) + kept + ([f"... ({below} {_CUT}"] if below else [])
    return obs.model_copy(update={"axtree": "\n".join(tree)})


def _png(key: str | None, objects: ObjectStore | None, folder: str | None) -> dict | None:
    if key is None or objects is None:
        return None
    try:
        return {"bytes": objects.get(key), "path": f"{folder}/{key}" if folder else None}
    except FileNotFoundError:
        print(f"dataset: screenshot {key} is not in the object store {objects.url}; its row has no image")
        return None
