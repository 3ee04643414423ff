"""Offline diagnosis rules: the findings of one failed attempt, at the action, trajectory and knowledge levels.

Action level: where the attempt first left the reference (a successful attempt of the same task,
the golden's first) and what that step exercised; invalid actions, elements not found, loops,
searches that found nothing. Trajectory level: step budget used up, stopped early (before a
"Confirm ..." still on the page), gave up, never opened an app the task needs, answered without
looking. Knowledge level: which criteria failed. Each finding names the capabilities it points at.
"""

from __future__ import annotations

import re

from contracts.task import CAPABILITIES
from runtime.dashboard.events import StepEvent, StepTarget, attempt_events, describe_step
from runtime.store import AttemptRecord, StepRecord

from .profile import AttemptFinding

__all__ = ["attempt_findings", "step_capability", "exercised"]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2})?$|^\d{1,2}:\d{2}$")
_DATE_FIELD = re.compile(r"\b(date|time|when|day|start|end|due)\b", re.IGNORECASE)
_CONFIRM = re.compile(r"^(confirm|submit|place order|pay now|approve|finish)\b", re.IGNORECASE)
_SEARCH_ROLES = ("searchbox",)
_EVENT_CAPABILITY = {"empty_search": "search", "wrong_app": "cross_app", "answered_without_looking": "read_answer"}


def step_capability(target: StepTarget, previous: StepTarget | None = None) -> str | None:
    """The capability a step exercises, from its verb and the element it acted on (None: plain navigation)."""
    if target.in_dock:
        return "cross_app"
    if target.verb in ("fill", "type") and (target.role in _SEARCH_ROLES or "search" in (target.name or "").lower()):
        return "search"
    if target.verb == "press" and previous is not None and step_capability(previous) == "search":
        return "search"
    if target.verb in ("fill", "type") and (_DATE.match((target.text or "").strip()) or _DATE_FIELD.search(target.name or "")):
        return "date_time"
    if target.verb == "select":
        return "select_option"
    if target.verb == "click" and target.role == "button" and _CONFIRM.match(target.name or ""):
        return "confirm"
    if target.verb == "answer":
        return "read_answer"
    if target.verb in ("fill", "type"):
        return "form_fill"
    if target.verb == "click" and target.role in ("tab", "checkbox", "radio"):
        return "filter_sort" if target.role == "tab" else "select_option"
    return None


def _targets(steps: list[StepRecord]) -> list[StepTarget | None]:
    return [describe_step(s) for s in steps]


def _capability_at(targets: list[StepTarget | None], k: int) -> str | None:
    t = targets[k]
    return step_capability(t, targets[k - 1] if k > 0 else None) if t is not None else None


def exercised(attempt: AttemptRecord, reference_steps: list[StepRecord] | None) -> set[str]:
    """Capabilities an attempt's task exercises: declared by its family, and seen in the reference's steps."""
    declared = set((attempt.info.get("task") or {}).get("capabilities") or [])
    if reference_steps:
        targets = _targets(reference_steps)
        declared |= {c for k in range(len(targets)) if (c := _capability_at(targets, k))}
    return declared & set(CAPABILITIES)


def _divergence(attempt: AttemptRecord, steps: list[StepRecord], reference: list[StepRecord]) -> AttemptFinding | None:
    """Where the attempt first did otherwise than the reference, and the capability of the reference's step there."""
    mine, theirs = _targets(steps), _targets(reference)
    for k, want in enumerate(theirs):
        if want is None:
            continue
        cap = _capability_at(theirs, k)
        got = mine[k] if k < len(mine) else None
        if got is None:
            detail = f"stopped at step {k}; the reference went on with {want.verb} {want.role or ''} {want.name or ''!r}".strip()
            return AttemptFinding(attempt_id=attempt.id, task_id=attempt.task_id, level="action", kind="stopped_before_reference",
                                  detail=detail, capabilities=(cap,) if cap else ())
        if got.same_target(want) and (got.text or "") == (want.text or ""):
            continue
        if got.same_target(want):
            detail = f"step {k}: {want.verb} {want.name!r} with {got.text!r}, the reference with {want.text!r}"
            kind = "diverged_value"
        else:
            detail = f"step {k}: {got.verb} {got.role or ''} {got.name or ''!r}; the reference: {want.verb} {want.role or ''} {want.name or ''!r}"
            kind = "diverged_action"
        return AttemptFinding(attempt_id=attempt.id, task_id=attempt.task_id, level="action", kind=kind, detail=detail,
                              capabilities=(cap,) if cap else ())
    return None


def _unconfirmed(attempt: AttemptRecord, steps: list[StepRecord], last_page: str | None) -> AttemptFinding | None:
    """The attempt ended on a page that still offers a "Confirm ..." button it never pressed."""
    page = last_page if last_page is not None else (steps[-1].axtree if steps else "")
    pressed = any((t := describe_step(s)) is not None and t.verb == "click" and _CONFIRM.match(t.name or "") for s in steps)
    match = re.search(r'button "((?:confirm|submit|place order|pay now|approve)[^"]*)"', page, re.IGNORECASE)
    if match and not pressed:
        return AttemptFinding(attempt_id=attempt.id, task_id=attempt.task_id, level="trajectory", kind="left_unconfirmed",
                              detail=f"ended on a page with {match[1]!r} never pressed", capabilities=("confirm",))
    return None


def _from_event(attempt: AttemptRecord, event: StepEvent) -> AttemptFinding:
    cap = _EVENT_CAPABILITY.get(event.kind)
    return AttemptFinding(attempt_id=attempt.id, task_id=attempt.task_id, level=event.level, kind=event.kind,
                          detail=event.detail, capabilities=(cap,) if cap else ())


def attempt_findings(attempt: AttemptRecord, steps: list[StepRecord], reference: list[StepRecord] | None,
                     last_page: str | None = None) -> list[AttemptFinding]:
    """Every rule finding of one failed attempt; `reference` is a successful attempt's steps on the same task, if any,
    and `last_page` the accessibility tree of the page it ended on (kept with its final state)."""
    out = [_from_event(attempt, e) for e in attempt_events(attempt, steps)]
    if reference:
        found = _divergence(attempt, steps, reference)
        if found is not None:
            out.insert(0, found)
    if (unconfirmed := _unconfirmed(attempt, steps, last_page)) is not None:
        out.append(unconfirmed)
    failed = sorted(c for c, ok in (attempt.outcome.verdicts or {}).items() if not ok) if attempt.outcome else []
    if failed:
        described = {c["id"]: c.get("description", "") for c in (attempt.info.get("task") or {}).get("criteria") or []}
        out.append(AttemptFinding(attempt_id=attempt.id, task_id=attempt.task_id, level="knowledge", kind="criteria_failed",
                                  detail="; ".join(f"{c}: {described.get(c, '')}".rstrip(": ") for c in failed)))
    return out
