"""What failed attempts did: the typical errors of a checkpoint's unsuccessful attempts, read from the store.

A benchmark that reports 0 of 96 should also say why. Each failed attempt is given every trait that fits
(an attempt can invent a search term, then repeat a failing action, then run out of steps), and the report
counts attempts per trait with one example each. The traits read only what the agent wrote and what the
harness answered, so they apply to any agent.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from runtime.actions import ActionParseError, parse_action
from runtime.store import AttemptRecord, StepRecord, TrajectoryStore

TRAITS: dict[str, str] = {
    "no_action": "wrote no action at all (every reply failed to parse)",
    "unparsed_reply": "wrote at least one reply that is no action",
    "invented_text": "typed, chose or answered text found neither in the task nor on any page it saw",
    "wrong_kind": "acted on an element of the wrong kind (fill on a button, select on a text field)",
    "missing_element": "named an element (by id or by name) that is not on the page",
    "repeated_failure": "repeated, word for word, an action that had just failed",
    "out_of_steps": "used every step without finishing",
    "wrong_answer": "finished with answer() but the task was not done",
}


def _text_of(action: str) -> str | None:
    """The free text an action carries (fill/type text, select value, answer text), or None."""
    try:
        parsed = parse_action(action)
    except (ActionParseError, ValueError):
        return None
    for field in ("text", "value"):
        value = getattr(parsed, field, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _action_errors(steps: Sequence[StepRecord]) -> list[str | None]:
    """The error each step's action caused: the harness reports it with the next observation (step i + 1).

    A next step whose reply did not parse records its parse error instead, so that action's own error is unknown (None).
    """
    errors: list[str | None] = []
    for i, step in enumerate(steps):
        if step.action is None:
            errors.append(step.error)  # a parse error belongs to the reply itself
        else:
            after = steps[i + 1] if i + 1 < len(steps) else None
            errors.append(after.error if after is not None and after.action is not None else None)
    return errors


def traits(instruction: str, steps: Sequence[StepRecord], max_steps: int) -> list[str]:
    """The TRAITS keys that describe one failed attempt (in TRAITS' order)."""
    found: set[str] = set()
    parsed = [s for s in steps if s.action is not None]
    if steps and not parsed:
        found.add("no_action")
    elif len(parsed) < len(steps):
        found.add("unparsed_reply")
    seen = instruction.lower()
    errors = _action_errors(steps)
    for i, step in enumerate(steps):
        seen += "\n" + step.axtree.lower()
        if step.action is None:
            continue
        text = _text_of(step.action)
        if text is not None and text.lower() not in seen:
            found.add("invented_text")
        error = errors[i] or ""
        if "is not a text field" in error or "is not a drop-down" in error:
            found.add("wrong_kind")
        if "there is no element" in error:
            found.add("missing_element")
        if i > 0 and errors[i - 1] and step.action == steps[i - 1].action:
            found.add("repeated_failure")
    last = parsed[-1].action if parsed else ""
    if last.startswith("answer("):
        found.add("wrong_answer")
    elif len(steps) >= max_steps:
        found.add("out_of_steps")
    return [t for t in TRAITS if t in found]


def _example(task_id: str, steps: Sequence[StepRecord], limit: int = 6) -> str:
    shown = [s.action or "(no action)" for s in steps[:limit]]
    more = f" ... ({len(steps)} steps)" if len(steps) > limit else ""
    return f"{task_id}: " + ", ".join(shown) + more


def latest_attempts(store: TrajectoryStore, model: str, task_ids: Iterable[str], agent: str = "reference") -> dict[str, AttemptRecord]:
    """The last finished attempt of `model` per task (an evaluation cut short and resumed leaves earlier ones)."""
    wanted = set(task_ids)
    out: dict[str, AttemptRecord] = {}
    for a in store.attempts(agent=agent):
        if a.model == model and a.task_id in wanted and a.outcome is not None:
            out[a.task_id] = a
    return out


def failures(store: TrajectoryStore, model: str, task_ids: Iterable[str], max_steps: int) -> dict:
    """Failed greedy attempts of `model` on `task_ids`: how many, each trait's count and one example of each."""
    attempts = latest_attempts(store, model, task_ids)
    failed = [a for a in attempts.values() if not a.outcome.success and a.outcome.status != "env_error"]
    counts = {t: 0 for t in TRAITS}
    examples: dict[str, str] = {}
    for a in failed:
        steps = store.steps(a.id)
        instruction = a.info.get("task", {}).get("instruction", "")
        for t in traits(instruction, steps, max_steps):
            counts[t] += 1
            examples.setdefault(t, _example(a.task_id, steps))
    return {"attempts": len(attempts), "failed": len(failed), "traits": counts, "examples": examples}


def markdown(rows: dict[str, dict]) -> list[str]:
    """A table of trait counts (failed attempts with the trait / failed attempts) per checkpoint, then examples."""
    if not rows:
        return []
    used = [t for t in TRAITS if any(r["traits"][t] for r in rows.values())]
    lines = ["| checkpoint | failed | " + " | ".join(used) + " |", "|---|---|" + "---|" * len(used)]
    for label, r in rows.items():
        lines.append(f"| {label} | {r['failed']}/{r['attempts']} | " + " | ".join(str(r["traits"][t]) for t in used) + " |")
    lines += ["", "What each column counts, with one failed attempt that shows it (the last checkpoint's):", ""]
    last = list(rows.values())[-1]
    for t in used:
        example = last["examples"].get(t) or next((r["examples"][t] for r in rows.values() if t in r["examples"]), "")
        lines.append(f"- `{t}`: {TRAITS[t]}. E.g. {example}")
    return lines
