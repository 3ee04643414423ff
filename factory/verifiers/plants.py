"""Planted defects: copies of a task with a known-bad verifier or golden code, to prove validation catches them.

`plant_defects(task)` gives one variant per defect (DESIGN.md target: every planted bad verifier is
rejected). Each wraps the task's own code, so the variants work for any task and any app. Two more
(issue 28) need to be told where to look, since they hide in one field of the task's own data:
`plant_unchecked_new_field` and `plant_dormant_branch`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Criterion, Task

if TYPE_CHECKING:
    from factory.verifiers.validate import ValidationConfig
    from runtime.manager import EnvironmentManager

_WRAP = "\n\n_gf_original_verify = verify\n\n\ndef verify(final):\n{body}"


class Plant(BaseModel):
    """One planted defect: the broken task and the reason validation should give."""

    model_config = ConfigDict(frozen=True)

    name: str
    task: Task
    expected: str = Field(description="The ValidationResult.reason this defect should produce.")


def _wrapped(task: Task, body: str) -> str:
    return task.verifier + _WRAP.format(body="".join(f"    {line}\n" for line in body.strip().splitlines()))


def plant_defects(task: Task) -> list[Plant]:
    """Known-bad variants of `task` (a desktop task also gets a verifier blind to reset)."""
    ids = [c.id for c in task.criteria]
    variants = {
        "always_true": (f"return {{k: True for k in {ids!r}}}", "verifier_true_on_initial"),
        "true_when_unchanged": (
            f"if final.state == final.initial_state:\n    return {{k: True for k in {ids!r}}}\nreturn _gf_original_verify(final)",
            "verifier_true_on_initial",
        ),
        "crashes": ("_gf_original_verify(final)\nreturn {}['missing']", "verifier_crash"),
        "hangs": ("while True:\n    pass", "verifier_timeout"),
        "network": ("import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)\nreturn _gf_original_verify(final)",
                    "verifier_forbidden"),
        "writes_outside": ("open('/tmp/gf-planted-write', 'w').write('x')\nreturn _gf_original_verify(final)", "verifier_forbidden"),
        "random": (f"import random\nreturn {{k: random.random() < 0.5 for k in {ids!r}}}", "nondeterministic_verdicts"),
        "not_bools": ("return {k: int(v) for k, v in _gf_original_verify(final).items()}", "bad_output"),
        "missing_criterion": (f"v = _gf_original_verify(final)\nv.pop({ids[0]!r}, None)\nreturn v", "bad_output"),
        # issue 12: a verifier that accepts any answer text (caught by the answer probes of every task)
        "accepts_any_answer": (f"if final.answer:\n    return {{k: True for k in {ids!r}}}\nreturn _gf_original_verify(final)",
                               "probe_answer_spam"),
    }
    plants = [
        Plant(name=name, task=_variant(task, name, verifier=_wrapped(task, body)), expected=expected)
        for name, (body, expected) in variants.items()
    ]
    checked = Criterion(id="gf_checked", description="Always true: a planted criterion that checks nothing.")
    plants.append(Plant(name="extra_always_true", expected="criterion_vacuous", task=_variant(
        task, "extra_always_true", verifier=_wrapped(task, "v = _gf_original_verify(final)\nv['gf_checked'] = True\nreturn v"),
        criteria=(*task.criteria, checked))))
    plants.append(Plant(name="golden_does_nothing", task=_variant(task, "golden_does_nothing", golden="def solve(env):\n    pass\n"),
                        expected="golden_fails"))
    # No "blind to reset" plant: it needed a mark outside the app state that survives a reset (a file the
    # golden's shell wrote, read by the verifier). Confinement leaves no such channel: the workspace is
    # rewritten on reset and the verifier sees nothing else. Validation still runs the reset phase.
    return plants


def plant_unchecked_new_field(task: Task, app: str, table: str, field: str, value: Any) -> Plant:
    """A criterion on a field the golden run writes into a new row, checked vacuously: the verifier judges every new row of
    `app.table` as if its `field` held `value` (the golden's), so an attempt that leaves it blank (a payment with no memo)
    still scores as the golden run did. Rejected by the partial probes of new rows."""
    body = f"""
class _GfSeen:
    def __init__(self, state):
        self.state, self.initial_state, self.answer, self.files = state, final.initial_state, final.answer, final.files

    def __getitem__(self, key):
        return getattr(self, key)

old = [r.get('id') for r in final.initial_state[{app!r}][{table!r}]]
state = {{a: {{t: [dict(r) for r in rows] for t, rows in tables.items()}} for a, tables in final.state.items()}}
for row in state[{app!r}][{table!r}]:
    if row.get('id') not in old:
        row[{field!r}] = {value!r}
return _gf_original_verify(_GfSeen(state))
"""
    name = f"unchecked_new_{table}_{field}"
    return Plant(name=name, task=_variant(task, name, verifier=_wrapped(task, body)), expected="probe_partial")


def plant_dormant_branch(task: Task, app: str, table: str, field: str, margin: float) -> Plant:
    """A dormant branch: every criterion is met once a number an agent can move (a balance) stands more than `margin` above
    where it started in any row of `app.table`, whatever else happened. Rejected by the fuzz probes."""
    ids = [c.id for c in task.criteria]
    body = f"""
start = {{r['id']: r[{field!r}] for r in final.initial_state[{app!r}][{table!r}]}}
if any(r[{field!r}] > start.get(r['id'], r[{field!r}]) + {margin!r} for r in final.state[{app!r}][{table!r}]):
    return {{k: True for k in {ids!r}}}
return _gf_original_verify(final)
"""
    name = f"dormant_{table}_{field}"
    return Plant(name=name, task=_variant(task, name, verifier=_wrapped(task, body)), expected="probe_fuzz")


def _variant(task: Task, name: str, **changes) -> Task:
    return task.model_copy(update={"id": f"{task.id}~{name}", **changes})


class PlantReport(BaseModel):
    """How validation fared against planted defects: every plant should be rejected."""

    model_config = ConfigDict(frozen=True)

    plants: int
    rejected: int
    expected_reason: int = Field(description="Rejected with the reason the plant was designed to trigger.")
    misses: tuple[str, ...] = Field(default=(), description="'plant id: expected -> got (detail)' for every plant not rejected as designed.")


def check_plants(
    tasks: Iterable[Task], manager: "EnvironmentManager", config: "ValidationConfig | None" = None, concurrency: int = 1
) -> PlantReport:
    """Plant every defect into every task, validate them all, and count how many were caught."""
    from factory.verifiers.validate import validate_tasks

    plants = [plant for task in tasks for plant in plant_defects(task)]
    results = validate_tasks([p.task for p in plants], manager, config, concurrency=concurrency)
    misses = tuple(
        f"{p.task.id}: {p.expected} -> {r.reason} ({r.detail[:160]})" for p, r in zip(plants, results) if r.reason != p.expected
    )
    return PlantReport(
        plants=len(plants),
        rejected=sum(not r.accepted for r in results),
        expected_reason=sum(r.reason == p.expected for p, r in zip(plants, results)),
        misses=misses,
    )
