"""`gymfactory bench prompts`: what a model is asked to read, in each view, over a run's golden demonstrations.

For every demonstrated task of a dataset (`gymfactory run`'s OUT/dataset, its `demonstrations` config), both views
(runtime.harness: `full`, the raw tree at every step; `compact`) rebuild the prompts the reference model would get
at each step, tokenized with its own chat format (rl.chat). Reported per attempt: the prompt tokens a model must
prefill with its key-value cache kept across the attempt's steps (and, for the compact view, the shared start of
the system message kept across attempts, rl.agent.SharedPrefix); per step: the tokens of the prompt and the golden
action (a training row's length); and the share of steps whose golden action names an element the prompt lets the
model see (runtime.harness.seen_elements). No browser and no model run: the reference model's tokenizer only.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from rich.table import Table

from contracts.options import config_options
from rl.chat import ChatFormat, common_prefix
from rl.demos import Demo, dataset_demos, dataset_tasks
from rl.models import REFERENCE, tokenizer_folder
from runtime.actions import ActionParseError, parse_action
from runtime.harness import VIEWS, Harness, seen_elements

from .targets import PROMPT_RATIO, STEPS_SEEN


class PromptsConfig(BaseModel):
    """Which dataset, and where the numbers go."""

    model_config = ConfigDict(frozen=True)

    dataset: Path = Field(default=Path("runs/first/dataset"), description="A dataset folder written by `gymfactory run` (OUT/dataset).")
    model: str = Field(default=REFERENCE, description="Whose tokenizer counts the tokens: a registered model or a saved model's folder.")
    out: Path | None = Field(default=None, description="Write the numbers here as JSON too.")


def _element(action: str | None) -> int | None:
    try:
        return getattr(parse_action(action or ""), "element", None)
    except ActionParseError:
        return None


def measure(demos: list[Demo], chat: ChatFormat, view: str) -> dict:
    """Prompt tokens per attempt (prefilled with the attempt's cache; minus the shared system start), row lengths, and the
    steps whose golden action names an element the prompt shows."""
    per_attempt, shared_start, rows, named, seen = [], [], [], 0, 0
    starts: list[list[int]] = []
    for demo in demos:
        harness = Harness.replay(demo.task.instruction, demo.turns, demo.task.form_factor, view=view)
        before: list[int] = []
        prefilled = 0
        for step, turn in enumerate(demo.turns):
            prompt = harness.prompt_at(step)
            ids = chat.generation_prompt(prompt)
            prefilled += len(ids) - common_prefix(before, ids)
            before = ids + chat.output_ids(turn.output)
            rows.append(len(before))
            element = _element(turn.action)
            if element is not None:
                named += 1
                seen += element in seen_elements(prompt)
        system = chat.encode(harness.prompt_at(0).messages[:1]).ids
        starts.append(system)
        per_attempt.append(prefilled)
    common = min((common_prefix(starts[0], s) for s in starts[1:]), default=0) if view == "compact" else 0
    shared_start = [p - common for p in per_attempt]
    rows.sort()
    return {"view": view, "attempts": len(per_attempt), "steps": len(rows),
            "prompt_tokens_per_attempt": statistics.fmean(per_attempt) if per_attempt else 0.0,
            "prompt_tokens_per_attempt_shared_start": statistics.fmean(shared_start) if shared_start else 0.0,
            "shared_start_tokens": common,
            "row_tokens": {"median": statistics.median(rows) if rows else 0, "p90": rows[int(0.9 * (len(rows) - 1))] if rows else 0,
                           "max": rows[-1] if rows else 0},
            "steps_naming_an_element": named, "of_them_seen": seen}


def run(config: PromptsConfig) -> dict:
    from transformers import AutoTokenizer

    tasks = dataset_tasks(config.dataset)
    demos = dataset_demos(config.dataset, tasks)
    chat = ChatFormat(AutoTokenizer.from_pretrained(str(tokenizer_folder(config.model))))
    result = {"dataset": str(config.dataset), "tasks": len(tasks), "views": {view: measure(demos, chat, view) for view in VIEWS}}
    full, compact = result["views"]["full"], result["views"]["compact"]
    result["compact_over_full"] = compact["prompt_tokens_per_attempt_shared_start"] / max(1e-9, full["prompt_tokens_per_attempt"])
    if config.out is not None:
        Path(config.out).write_text(json.dumps(result, indent=1))
    return result


@config_options(PromptsConfig)
def main(config: PromptsConfig) -> None:
    """Prompt tokens per attempt and training-row lengths of a run's demonstrations in each view, and the share of golden
    steps whose element the compact prompt shows."""
    result = run(config)
    table = Table(title=f"{result['tasks']} tasks of {result['dataset']}")
    for col in ("view", "attempts", "prompt tokens/attempt", "with the shared start kept", "row tokens median / p90 / max",
                "golden steps naming a seen element"):
        table.add_column(col)
    for v in result["views"].values():
        r = v["row_tokens"]
        table.add_row(v["view"], str(v["attempts"]), f"{v['prompt_tokens_per_attempt']:.0f}", f"{v['prompt_tokens_per_attempt_shared_start']:.0f}",
                      f"{r['median']:.0f} / {r['p90']} / {r['max']}", f"{v['of_them_seen']}/{v['steps_naming_an_element']}")
    Console().print(table)
    compact = result["views"]["compact"]
    seen = 100 * compact["of_them_seen"] / max(1, compact["steps_naming_an_element"])
    Console().print(f"compact (shared start kept) / full: {result['compact_over_full']:.3f}, target "
                    f"{PROMPT_RATIO.marked(result['compact_over_full'])}; golden steps whose element the compact prompt shows: "
                    f"{seen:.1f}%, target {STEPS_SEEN.marked(seen)}")


__all__ = ["PromptsConfig", "main", "measure", "run"]
