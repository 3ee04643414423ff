"""Step-level events of one stored attempt: what went wrong at the action and trajectory levels.

Pure functions over the trajectory store's rows, so the dashboard's `/api/.../events` and the
diagnoser (factory.diagnosis) read the same events. A stored step's `error` is the parse error of
that step's reply, or else the error the previous action raised (the agent saw it in this step's
observation); events put an action's error on the step that took the action.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from runtime.actions import ActionParseError, parse_action
from runtime.axtree import AxNode, parse_axtree
from runtime.launcher import LAUNCHER_URL
from runtime.store import AttemptRecord, StepRecord

__all__ = ["LOOP_REPEATS", "StepEvent", "StepTarget", "apps_visited", "attempt_events", "describe_step", "in_app_dock", "row_error"]

LOOP_REPEATS = 3  # the same action on the same page this often is a loop
_NOT_FOUND = re.compile(r"no element|not found|no such element|no option|is not a (text field|drop-down)", re.IGNORECASE)
_NO_RESULTS = re.compile(r'text "(0 (results?|conversations?|files?|matches|items|transactions|events)|no (results|matches|files|events|transactions)\b[^"]*)"',
                         re.IGNORECASE)

Kind = Literal[
    "invalid_action", "element_not_found", "action_error", "repeated_loop", "empty_search",
    "step_budget_exhausted", "stopped_early", "agent_gave_up", "wrong_app", "answered_without_looking",
]


class StepEvent(BaseModel):
    """One thing that went wrong, at one step (or at the attempt's end, step None)."""

    model_config = ConfigDict(frozen=True)

    attempt_id: int
    step: int | None = Field(description="Step index the event belongs to; None for the whole trajectory.")
    level: Literal["action", "trajectory"]
    kind: Kind
    detail: str = ""


class StepTarget(BaseModel):
    """A step's action as a person would describe it: the verb, the element's role and name, the text or value."""

    model_config = ConfigDict(frozen=True)

    verb: str
    role: str | None = None
    name: str | None = None
    text: str | None = None
    in_dock: bool = Field(default=False, description="The element is an entry of the app dock / launcher (switching apps).")

    def same_target(self, other: "StepTarget") -> bool:
        return (self.verb, self.role, self.name) == (other.verb, other.role, other.name)


def in_app_dock(nodes: list[AxNode], element: int) -> bool:
    """Whether `element` sits in the "Apps" navigation (the launcher or the dock) rather than inside an app."""
    section = None
    for n in nodes:
        if n.depth == 0:
            section = n
        if n.id == element:
            return section is not None and section.role == "navigation" and section.name == "Apps"
    return False


def describe_step(step: StepRecord) -> StepTarget | None:
    """The step's action resolved against the page it was taken on; None when no action was parsed."""
    if step.action is None:
        return None
    try:
        action = parse_action(step.action)
    except ActionParseError:
        return None
    text = getattr(action, "text", None) or getattr(action, "value", None) or getattr(action, "key", None)
    element = getattr(action, "element", None)
    if element is None:
        return StepTarget(verb=action.kind, text=text)
    nodes = parse_axtree(step.axtree)
    node = next((n for n in nodes if n.id == element), None)
    if node is None:
        return StepTarget(verb=action.kind, text=text)
    return StepTarget(verb=action.kind, role=node.role, name=node.name, text=text, in_dock=in_app_dock(nodes, element))


def apps_visited(steps: list[StepRecord]) -> list[str]:
    """The app servers (host:port) the attempt's pages came from, in first-visit order; the launcher left out."""
    seen: dict[str, None] = {}
    for s in steps:
        if s.url and not s.url.startswith(LAUNCHER_URL):
            seen.setdefault(urlsplit(s.url).netloc, None)
    return list(seen)


def _action_error(steps: list[StepRecord], k: int) -> str | None:
    """The error action k raised: it shows in step k+1's observation (when that step parsed an action)."""
    if k + 1 < len(steps) and steps[k + 1].action is not None:
        return steps[k + 1].error
    return None


def row_error(steps: list[StepRecord], k: int) -> str | None:
    """The error that belongs on step k's row: its output's parse error, or the error its action raised (which the store
    keeps with step k+1's observation, so shown as it is stored it sat one row late)."""
    return steps[k].error if steps[k].action is None else _action_error(steps, k)


def attempt_events(attempt: AttemptRecord, steps: list[StepRecord]) -> list[StepEvent]:
    """Every action- and trajectory-level event of a finished attempt, in step order then trajectory events."""
    out: list[StepEvent] = []
    aid = attempt.id
    repeats: Counter[tuple[str, str]] = Counter()
    for k, s in enumerate(steps):
        if s.action is None:
            out.append(StepEvent(attempt_id=aid, step=k, level="action", kind="invalid_action", detail=s.error or "no action parsed"))
            continue
        error = _action_error(steps, k)
        if error:
            kind = "element_not_found" if _NOT_FOUND.search(error) else "action_error"
            out.append(StepEvent(attempt_id=aid, step=k, level="action", kind=kind, detail=f"{s.action}: {error}"))
        repeats[(s.url, s.action)] += 1
        if repeats[(s.url, s.action)] == LOOP_REPEATS:
            out.append(StepEvent(attempt_id=aid, step=k, level="action", kind="repeated_loop",
                                 detail=f"{s.action} taken {LOOP_REPEATS} times on {s.url}"))
        if s.action.startswith("press(") and k + 1 < len(steps) and _NO_RESULTS.search(steps[k + 1].axtree):
            out.append(StepEvent(attempt_id=aid, step=k, level="action", kind="empty_search",
                                 detail=f"the search before step {k + 1} found nothing: {_NO_RESULTS.search(steps[k + 1].axtree)[1]}"))
    out.extend(_trajectory_events(attempt, steps))
    return out


def _trajectory_events(attempt: AttemptRecord, steps: list[StepRecord]) -> list[StepEvent]:
    o, info, aid = attempt.outcome, attempt.info, attempt.id
    if o is None or o.status not in ("success", "failure"):
        return []
    out: list[StepEvent] = []
    answered = bool(steps) and (steps[-1].action or "").startswith("answer(")
    budget = info.get("max_steps")
    task = info.get("task", {})
    if not o.success:
        if budget is not None and len(steps) >= budget and not answered:
            out.append(StepEvent(attempt_id=aid, step=None, level="trajectory", kind="step_budget_exhausted",
                                 detail=f"all {budget} steps used without finishing"))
        elif o.error and o.error.startswith("agent:"):
            out.append(StepEvent(attempt_id=aid, step=None, level="trajectory", kind="agent_gave_up", detail=o.error))
        elif not answered:
            out.append(StepEvent(attempt_id=aid, step=None, level="trajectory", kind="stopped_early",
                                 detail=f"stopped after {len(steps)} steps without answering"))
        apps = task.get("apps") or []
        visited = apps_visited(steps)
        if len(apps) > 1 and len(visited) < len(apps):
            out.append(StepEvent(attempt_id=aid, step=None, level="trajectory", kind="wrong_app",
                                 detail=f"the task needs {len(apps)} apps ({', '.join(apps)}); the attempt opened {len(visited)}"))
        if answered and len({s.url for s in steps}) <= 1 and len(steps) <= 2:
            out.append(StepEvent(attempt_id=aid, step=len(steps) - 1, level="trajectory", kind="answered_without_looking",
                                 detail="answered from the first page, without opening anything"))
    return out
