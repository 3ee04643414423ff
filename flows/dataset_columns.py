"""The dataset's columns: one row per task, nested Arrow types a trainer reads as they are (no JSON strings to parse).

Choices, and why:

- `criteria`, `files`, `demonstration`, `outcomes`, `app_versions`: lists of structs with fixed fields.
- `seed`: a struct app -> struct table -> list of row structs. Apps and their tables are a schema
  (an app's models fix them), so Arrow can hold them as struct fields; pyarrow infers one struct
  over all apps in the export, with null where a task does not open an app. Rows of one table have
  one type in every task, so the inference cannot meet a conflict there.
- `answer_context`: a struct of the union of the families' keys (null where a family has no such key).
  A key two families fill with different types is a conflict; it is named (`ColumnConflict`) rather
  than silently turned into text.
- Empty dicts become null: Parquet cannot store a struct with no fields.
- `task`: the whole task as JSON too, the lossless form `Task.model_validate_json` reads back.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, Literal

import pyarrow as pa
from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Task

from .run_evidence import RunEvidence, agent_outcomes

_DEMO = pa.list_(pa.struct([("action", pa.string()), ("url", pa.string()), ("axtree", pa.string())]))
_CRITERIA = pa.list_(pa.struct([("id", pa.string()), ("description", pa.string()), ("weight", pa.float64()), ("required", pa.bool_())]))
_FILES = pa.list_(pa.struct([("path", pa.string()), ("text", pa.string())]))
_VERSIONS = pa.list_(pa.struct([("app", pa.string()), ("version", pa.string()), ("digest", pa.string())]))
_AGENT = pa.struct([("agent", pa.string()), ("attempts", pa.int64()), ("scored", pa.int64()), ("successes", pa.int64()),
                    ("mean_reward", pa.float64()), ("env_errors", pa.int64())])
_OUTCOMES = pa.struct([
    ("validated", pa.bool_()), ("accepted", pa.bool_()), ("probes_failed", pa.int64()), ("validation_seconds", pa.float64()),
    ("golden_reward", pa.float64()), ("golden_success", pa.bool_()), ("too_easy", pa.bool_()), ("unsolved", pa.bool_()),
    ("agents", pa.list_(_AGENT)),
])
_MEASURED = pa.list_(pa.struct([("agent", pa.string()), ("scope", pa.string()), ("tasks", pa.int64()), ("k", pa.int64()),
                                ("pass_at_1", pa.float64()), ("pass_at_k", pa.float64())]))


class ColumnConflict(ValueError):
    """A nested column whose values cannot share one Arrow type (e.g. one key holding a number and a text)."""


class SplitOptions(BaseModel):
    """How tasks are split into `train` and `heldout` on export."""

    model_config = ConfigDict(frozen=True)

    by: Literal["none", "app", "family"] = Field(default="none", description="Hold out whole apps or whole families; 'none': train only.")
    heldout: tuple[str, ...] = Field(default=(), description="Apps or families to hold out; empty: a fixed ~20% of them, chosen by name hash.")


_HELDOUT_SHARE = 0.2


def heldout_groups(tasks: list[Task], split: SplitOptions) -> tuple[str, ...]:
    """The apps or families held out: the given ones, or ceil(20%) of them by a hash of their names (never all)."""
    if split.by == "none":
        return ()
    if split.heldout:
        return tuple(sorted(split.heldout))
    return heldout_of({g for t in tasks for g in _groups(t, split.by)})


def heldout_of(names) -> tuple[str, ...]:
    """The held-out share of these app or family names by the rule (`heldout_rule`): the first ceil(20%) by the SHA-256
    of each name, never all of them. The learning benchmark holds out apps by the same rule."""
    groups = sorted(set(names), key=lambda g: hashlib.sha256(g.encode()).hexdigest())
    if len(groups) < 2:
        return ()
    return tuple(sorted(groups[: max(1, math.ceil(_HELDOUT_SHARE * len(groups)))]))


def heldout_rule(split: SplitOptions) -> str:
    """How `heldout_groups` chose the held-out apps or families, in words for the card ('' with no held-out split)."""
    if split.by == "none":
        return ""
    if split.heldout:
        return "named when the dataset was exported (`--holdout`)"
    groups = "apps" if split.by == "app" else "families"
    return (f"the first ceil({100 * _HELDOUT_SHARE:g}%) of the export's {groups}, ordered by the SHA-256 hex digest of each "
            f"name (never all of them; none when there is only one), so the same {groups} give the same split on every export")


def split_of(task: Task, by: str, heldout: tuple[str, ...]) -> str:
    """'heldout' when the task touches a held-out app (by='app') or is of a held-out family; else 'train'."""
    return "heldout" if by != "none" and set(_groups(task, by)) & set(heldout) else "train"


def _groups(task: Task, by: str) -> tuple[str, ...]:
    return task.apps if by == "app" else (task.meta.family,)


def _nulls_for_empty(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _nulls_for_empty(v) for k, v in value.items()} or None
    if isinstance(value, list):
        return [_nulls_for_empty(v) for v in value]
    return value


def _nested(name: str, values: list[Any]) -> pa.Array:
    values = [_nulls_for_empty(v) for v in values]
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as err:
        mixed, texts = _as_text_where_mixed(values)
        if mixed:  # a run's last stage does not fail on families that type one key differently: those values become text
            print(f"dataset: column {name!r}: keys {', '.join(mixed)} mix text and numbers across families; stored as text")
            try:
                return pa.array(texts)
            except (pa.ArrowInvalid, pa.ArrowTypeError) as again:
                err = again
        raise ColumnConflict(f"column {name!r}: its values do not share one type ({err}); "
                             "give that key one type in every family") from None


def _as_text_where_mixed(values: list[Any]) -> tuple[list[str], list[Any]]:
    """The paths (`key`, `key[].field`) whose scalars mix text and numbers across values, and the values with the
    scalars at those paths as text."""
    kinds: dict[tuple, set[type]] = {}

    def scan(v: Any, path: tuple) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                scan(x, (*path, k))
        elif isinstance(v, list):
            for x in v:
                scan(x, (*path, "[]"))
        elif v is not None:
            kinds.setdefault(path, set()).add(type(v))

    for v in values:
        scan(v, ())
    mixed = {p for p, ks in kinds.items() if str in ks and len(ks) > 1 and ks <= {str, int, float, bool}}

    def text(v: Any, path: tuple) -> Any:
        if isinstance(v, dict):
            return {k: text(x, (*path, k)) for k, x in v.items()}
        if isinstance(v, list):
            return [text(x, (*path, "[]")) for x in v]
        return str(v) if path in mixed and v is not None else v

    return sorted(".".join(p).replace(".[]", "[]") for p in mixed), [text(v, ()) for v in values]


def table(tasks: list[Task], evidence: RunEvidence, versions: dict[str, tuple[str, str]], gymfactory_version: str) -> pa.Table:
    """One row per task; `versions` maps app -> (version, source digest)."""
    outcomes = agent_outcomes(evidence)
    return pa.table({
        "id": [t.id for t in tasks],
        "apps": [list(t.apps) for t in tasks],
        "form_factor": [t.form_factor for t in tasks],
        "world": [t.world or "" for t in tasks],
        "clock": [t.clock or "" for t in tasks],
        "instruction": [t.instruction for t in tasks],
        "criteria": pa.array([[c.model_dump() for c in t.criteria] for t in tasks], _CRITERIA),
        "answer_context": _nested("answer_context", [t.answer_context for t in tasks]),
        "seed": _nested("seed", [t.seed for t in tasks]),
        "files": pa.array([[{"path": p, "text": x} for p, x in sorted(t.files.items())] for t in tasks], _FILES),
        "verifier": [t.verifier for t in tasks],
        "golden": [t.golden for t in tasks],
        "family": [t.meta.family for t in tasks],
        "difficulty": [t.meta.difficulty for t in tasks],
        "difficulty_source": [t.meta.difficulty_source for t in tasks],
        "measured": pa.array([[m.model_dump() for m in t.meta.measured] for t in tasks], _MEASURED),
        "provenance": [t.meta.provenance for t in tasks],
        "cross_app": [t.meta.cross_app for t in tasks],
        "capabilities": [list(t.meta.capabilities) for t in tasks],
        "demonstration": pa.array([[s.model_dump(include={"action", "url", "axtree"}) for s in evidence.demonstrations.get(t.id, [])] for t in tasks], _DEMO),
        "outcomes": pa.array([_outcome(t, evidence, outcomes.get(t.id, [])) for t in tasks], _OUTCOMES),
        "gymfactory_version": [gymfactory_version] * len(tasks),
        "app_versions": pa.array([[{"app": a, "version": versions[a][0], "digest": versions[a][1]} for a in t.apps] for t in tasks], _VERSIONS),
        "task": [t.model_dump_json() for t in tasks],
    })


def _outcome(task: Task, evidence: RunEvidence, agents: list[dict]) -> dict:
    v = evidence.validation.get(task.id)
    golden = next((a for a in agents if a["agent"] == "golden" and a["scored"]), None)
    return {
        "validated": v is not None, "accepted": v.accepted if v else None, "probes_failed": v.probes if v else None,
        "validation_seconds": round(v.seconds, 3) if v else None,
        # validation proved reward 1 on every run of an accepted task; a golden rollout, when there was one, says so again
        "golden_reward": golden["mean_reward"] if golden else (1.0 if v and v.accepted else None),
        "golden_success": (golden["successes"] == golden["scored"]) if golden else (True if v and v.accepted else None),
        "too_easy": task.id in evidence.too_easy, "unsolved": task.id in evidence.unsolved, "agents": agents,
    }
