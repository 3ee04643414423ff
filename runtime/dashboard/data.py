"""The dashboard's read model over the trajectory store: runs, agents, breakdowns, tasks, attempts, replays, diffs.

Everything is read through the store's public API (`attempts`, `steps`); screenshots and final
states come from the object store each attempt names in its info. Environment errors and
interrupted attempts are counted apart and never enter a success rate. The diagnoser
(factory.diagnosis) reads attempts through the same view.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.status import SCORED
from runtime.harness import Harness
from runtime.objectstore import ObjectStore, ObjectStoreError, by_reference
from runtime.rollout import recorded_turns
from runtime.store import AttemptRecord, StepRecord, TrajectoryStore

__all__ = ["Breakdown", "GroupBy", "RunSummary", "TrajectoryView", "rate_rows", "state_changes", "diff_changes"]

NO_RUN = "(no run)"
GroupBy = Literal["app", "family", "difficulty", "capability", "task"]


class RunSummary(BaseModel):
    """One run of the store: its agents and outcome counts."""

    model_config = ConfigDict(frozen=True)

    run: str
    agents: tuple[str, ...]
    attempts: int
    successes: int
    failures: int
    env_errors: int
    other: int = Field(description="Interrupted or unfinished attempts.")
    started: str


class Breakdown(BaseModel):
    """Success of scored attempts in one group; env errors apart."""

    model_config = ConfigDict(frozen=True)

    key: str
    scored: int
    successes: int
    success_rate: float
    mean_reward: float
    env_errors: int


def run_of(a: AttemptRecord) -> str:
    return str(a.info.get("run") or NO_RUN)


def status_of(a: AttemptRecord) -> str:
    return a.outcome.status if a.outcome is not None else "running"


def groups_of(a: AttemptRecord, by: GroupBy) -> list[str]:
    """The keys `a` counts under: a task with several apps or capabilities counts once under each."""
    task = a.info.get("task") or {}
    if by == "task":
        return [a.task_id]
    if by == "app":
        return list(task.get("apps") or ["?"])
    if by == "capability":
        return list(task.get("capabilities") or ["(none declared)"])
    return [str(task.get(by) or "?")]


def rate_rows(attempts: Iterable[AttemptRecord], by: GroupBy) -> list[Breakdown]:
    """Success by group over scored attempts, env errors counted beside; sorted by key."""
    acc: dict[str, list] = defaultdict(lambda: [0, 0, 0.0, 0])
    for a in attempts:
        status = status_of(a)
        for key in groups_of(a, by):
            row = acc[key]
            if status in SCORED:
                row[0] += 1
                row[1] += a.outcome.success
                row[2] += a.outcome.reward
            elif status == "env_error":
                row[3] += 1
    return [Breakdown(key=k, scored=v[0], successes=v[1], success_rate=round(v[1] / v[0], 3) if v[0] else 0.0,
                      mean_reward=round(v[2] / v[0], 3) if v[0] else 0.0, env_errors=v[3]) for k, v in sorted(acc.items())]


def _row_key(row: dict) -> str:
    return str(row["id"]) if "id" in row else json.dumps(row, sort_keys=True, default=str)


def state_changes(initial: dict, final: dict) -> dict[str, dict[str, dict[str, Any]]]:
    """app -> table -> {"added": {key: row}, "deleted": [keys], "changed": {key: {field: [before, after]}}}; untouched tables absent."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for app in sorted(set(initial) | set(final)):
        for table in sorted(set(initial.get(app, {})) | set(final.get(app, {}))):
            before = {_row_key(r): r for r in initial.get(app, {}).get(table, [])}
            after = {_row_key(r): r for r in final.get(app, {}).get(table, [])}
            added = {k: after[k] for k in after if k not in before}
            deleted = sorted(k for k in before if k not in after)
            changed = {}
            for k in before.keys() & after.keys():
                fields = {f: [before[k].get(f), after[k].get(f)] for f in set(before[k]) | set(after[k]) if before[k].get(f) != after[k].get(f)}
                if fields:
                    changed[k] = fields
            if added or deleted or changed:
                out.setdefault(app, {})[table] = {"added": added, "deleted": deleted, "changed": changed}
    return out


def diff_changes(agent: dict, golden: dict) -> dict[str, list[str]]:
    """What the attempt's changes lack against the golden's ("missing"), add ("extra") or got otherwise ("different")."""
    missing, extra, different = [], [], []
    for app in sorted(set(agent) | set(golden)):
        for table in sorted(set(agent.get(app, {})) | set(golden.get(app, {}))):
            a = agent.get(app, {}).get(table, {"added": {}, "deleted": [], "changed": {}})
            g = golden.get(app, {}).get(table, {"added": {}, "deleted": [], "changed": {}})
            where = f"{app}.{table}"
            if len(g["added"]) > len(a["added"]):
                missing.append(f"{where}: the golden added {len(g['added'])} row(s), the attempt {len(a['added'])}")
            elif len(a["added"]) > len(g["added"]):
                extra.append(f"{where}: the attempt added {len(a['added'])} row(s), the golden {len(g['added'])}")
            for ga, aa in zip(sorted(g["added"].values(), key=str), sorted(a["added"].values(), key=str)):
                for f in sorted(set(ga) - {"id", "created_at", "updated_at"}):
                    if ga.get(f) != aa.get(f):
                        different.append(f"{where} new row: {f} is {aa.get(f)!r}, the golden's {ga.get(f)!r}")
            for k in sorted(set(g["deleted"]) - set(a["deleted"])):
                missing.append(f"{where}[{k}]: deleted by the golden, kept by the attempt")
            for k in sorted(set(a["deleted"]) - set(g["deleted"])):
                extra.append(f"{where}[{k}]: deleted by the attempt only")
            for k in sorted(set(g["changed"]) | set(a["changed"])):
                gf, af = g["changed"].get(k, {}), a["changed"].get(k, {})
                for f in sorted(set(gf) | set(af)):
                    if f in gf and f not in af:
                        missing.append(f"{where}[{k}].{f}: the golden set {gf[f][1]!r}, the attempt left {gf[f][0]!r}")
                    elif f in af and f not in gf:
                        extra.append(f"{where}[{k}].{f}: the attempt changed {af[f][0]!r} -> {af[f][1]!r}")
                    elif af[f][1] != gf[f][1]:
                        different.append(f"{where}[{k}].{f}: the attempt set {af[f][1]!r}, the golden {gf[f][1]!r}")
    return {"missing": missing, "extra": extra, "different": different}


class TrajectoryView:
    """Read-only questions over one trajectory store (and the object stores its attempts name)."""

    def __init__(self, store: TrajectoryStore):
        self.store = store
        self._objects: dict[str, ObjectStore] = {}

    # ---- attempts ------------------------------------------------------------------------------
    def attempts(self, run: str | None = None, agent: str | None = None, task_id: str | None = None, status: str | None = None,
                 group: tuple[GroupBy, str] | None = None) -> list[AttemptRecord]:
        """Attempts in start order, filtered; `group` = (by, key) keeps those counted under that key."""
        out = []
        for a in self.store.attempts(task_id=task_id, agent=agent):
            if run is not None and run_of(a) != run:
                continue
            if status is not None and status_of(a) != status:
                continue
            if group is not None and group[1] not in groups_of(a, group[0]):
                continue
            out.append(a)
        return out

    def attempt(self, attempt_id: int) -> AttemptRecord | None:
        return next((a for a in self.store.attempts() if a.id == attempt_id), None)

    def runs(self) -> list[RunSummary]:
        """Every run, newest first."""
        by_run: dict[str, list[AttemptRecord]] = defaultdict(list)
        for a in self.store.attempts():
            by_run[run_of(a)].append(a)
        rows = []
        for run, items in by_run.items():
            statuses = [status_of(a) for a in items]
            rows.append(RunSummary(run=run, agents=tuple(dict.fromkeys(a.agent for a in items)), attempts=len(items),
                                   successes=statuses.count("success"), failures=statuses.count("failure"),
                                   env_errors=statuses.count("env_error"),
                                   other=len(items) - statuses.count("success") - statuses.count("failure") - statuses.count("env_error"),
                                   started=min(a.started_at for a in items).isoformat(timespec="seconds")))
        return sorted(rows, key=lambda r: r.started, reverse=True)

    def steps(self, attempt_id: int) -> list[StepRecord]:
        return self.store.steps(attempt_id)

    def reference(self, attempt: AttemptRecord) -> AttemptRecord | None:
        """A successful attempt of the same task to compare with: the golden's if there is one, else any agent's."""
        wins = [a for a in self.store.attempts(task_id=attempt.task_id, status="success") if a.id != attempt.id]
        golden = [a for a in wins if a.agent == "golden"]
        return (golden or wins or [None])[-1]

    # ---- objects -------------------------------------------------------------------------------
    def _store_of(self, attempt: AttemptRecord) -> ObjectStore | None:
        reference = attempt.info.get("objects")  # relative to the store's folder, or (older runs) a URL or absolute path
        if not reference:
            return None
        if reference not in self._objects:
            self._objects[reference] = by_reference(reference, self.store.folder)
        return self._objects[reference]

    def screenshot(self, attempt: AttemptRecord, key: str) -> bytes | None:
        objects = self._store_of(attempt)
        if objects is None or not key:
            return None
        try:
            return objects.get(key)
        except (OSError, ValueError, ObjectStoreError):
            return None

    def final(self, attempt: AttemptRecord) -> dict | None:
        """The attempt's final state document ({state, initial_state, answer}), when it was kept."""
        objects, key = self._store_of(attempt), attempt.info.get("final")
        if objects is None or not key:
            return None
        try:
            return json.loads(objects.get(key))
        except (OSError, ValueError, ObjectStoreError):
            return None

    def final_diff(self, attempt: AttemptRecord) -> dict:
        """The attempt's state changes, and how they differ from a successful reference attempt's (the golden's first)."""
        mine = self.final(attempt)
        ref = self.reference(attempt)
        theirs = self.final(ref) if ref is not None else None
        changes = state_changes(mine["initial_state"], mine["state"]) if mine else None
        golden = state_changes(theirs["initial_state"], theirs["state"]) if theirs else None
        return {"attempt_id": attempt.id, "reference_id": ref.id if ref is not None and theirs else None,
                "reference_agent": ref.agent if ref is not None and theirs else None,
                "answer": mine.get("answer") if mine else None, "reference_answer": theirs.get("answer") if theirs else None,
                "last_page": mine.get("last_page") if mine else None,
                "changes": changes, "reference_changes": golden,
                "diff": diff_changes(changes, golden) if changes is not None and golden is not None else None}

    def prompt(self, attempt: AttemptRecord, step: int) -> str:
        """The prompt window the model saw at `step`, rebuilt by the one harness in the attempt's view (screenshots as <image>;
        an attempt from before views were recorded saw the full tree)."""
        turns = recorded_turns(self.store, attempt.id)
        if not 0 <= step < len(turns):
            raise IndexError(f"attempt {attempt.id} has no step {step}")
        instruction = (attempt.info.get("task") or {}).get("instruction") or "(instruction not recorded)"
        harness = Harness.replay(instruction, turns[:step], view=attempt.info.get("view", "full"))
        return harness.prompt(turns[step].observation).text()

    def criteria_rates(self, attempts: Iterable[AttemptRecord]) -> list[dict]:
        """Per criterion (by task family and id): how often scored attempts failed it, with its description."""
        acc: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0, ""])
        for a in attempts:
            if status_of(a) not in SCORED:
                continue
            task = a.info.get("task") or {}
            described = {c["id"]: c.get("description", "") for c in task.get("criteria") or []}
            for cid, ok in (a.outcome.verdicts or {}).items():
                row = acc[(str(task.get("family") or a.task_id), cid)]
                row[0] += 1
                row[1] += not ok
                row[2] = row[2] or described.get(cid, "")
        return [{"family": f, "criterion": c, "description": v[2], "attempts": v[0], "failed": v[1],
                 "failure_rate": round(v[1] / v[0], 3) if v[0] else 0.0}
                for (f, c), v in sorted(acc.items(), key=lambda kv: (-kv[1][1] / max(kv[1][0], 1), kv[0]))]
