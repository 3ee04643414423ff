"""Validation by execution on the notes fixture app: a good task is accepted, each planted defect is rejected
with its reason code (real app server, real Chromium, real sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.task import Task
from factory.verifiers.plants import check_plants, plant_defects
from factory.verifiers.validate import ValidationConfig, validate_task, validate_tasks

NOTES = str(Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes")
FAST = ValidationConfig(verifier_timeout_s=2.0, golden_timeout_s=60.0)

HEAD = "def _notes(dump):\n    return {n['id']: n for n in list(dump.values())[0]['note']}\n\n"
GOOD_VERIFIER = HEAD + (
    "def verify(final):\n"
    "    before, after = _notes(final.initial_state), _notes(final.state)\n"
    "    return {'pinned': 3 in after and after[3]['pinned'] is True,\n"
    "            'others_intact': set(after) == set(before) and all(after[i] == before[i] for i in before if i != 3)}\n"
)
GOOD_GOLDEN = "def solve(env):\n    env.click('Book club', role='link')\n    env.click('Pin', role='button')\n"


def _task(verifier: str = GOOD_VERIFIER, golden: str = GOOD_GOLDEN, criteria=None) -> Task:
    return Task(
        id="notes.pin.book_club",
        apps=(NOTES,),
        instruction="Pin the note 'Book club' so it shows at the top.",
        criteria=criteria or [
            {"id": "pinned", "description": "'Book club' is pinned."},
            {"id": "others_intact", "description": "No other note changed."},
        ],
        verifier=verifier,
        golden=golden,
        meta={"family": "notes.pin", "provenance": "hand"},
    )


def test_a_good_task_is_accepted_with_verdicts_for_every_phase(manager):
    result = validate_task(_task(), manager, FAST)
    assert result.accepted and result.reason is None, result.detail
    assert result.verdicts["run1.initial"] == {"pinned": False, "others_intact": True}
    assert result.verdicts["run1.golden"] == {"pinned": True, "others_intact": True}
    assert result.verdicts["run1.reset"] == result.verdicts["run2.initial"] == result.verdicts["run1.initial"]
    assert result.verdicts["run2.golden"] == result.verdicts["run1.golden"]
    assert "run2.reset" not in result.verdicts  # the last run ends without a reset: run 1's proved it exact
    # run 1's golden run is the demonstration: each action with the page it was chosen on (no screenshots by default)
    steps = result.golden_steps
    # ... and, since the golden code returned without answering, answer('') on the page it ended on: the policy learns to stop
    assert [s.action for s in steps] == [*result.golden_actions, "answer('')"] and steps[0].url.startswith("/i/<instance>")
    assert steps[-1].axtree != steps[-2].axtree
    assert all("[" in s.axtree and s.screenshot is None for s in steps) and "Book club" in steps[0].axtree
    assert len(result.golden_actions) == 2 and all(a.startswith("click(") for a in result.golden_actions)


RANDOM_CRITERIA = [{"id": "pinned", "description": "'Book club' is pinned."}] + [
    {"id": f"coin_{i}", "description": f"Coin number {i}.", "required": False} for i in range(6)
]
# Defects written for this task, on top of the generic ones from factory.verifiers.plants.
PLANTS = {
    "true_on_initial": (_task(verifier=HEAD + "def verify(final):\n    n = _notes(final.state)\n    return {'pinned': n[2]['pinned'], 'others_intact': True}\n"), "verifier_true_on_initial"),
    "network_urllib": (_task(verifier="import urllib.request\ndef verify(final):\n    urllib.request.urlopen('http://127.0.0.1:9/')\n"), "verifier_forbidden"),
    "random_coins": (_task(
        verifier=GOOD_VERIFIER.replace("def verify(final):", "import random\ndef verify(final):\n    coins = {f'coin_{i}': random.random() < 0.5 for i in range(6)}")
        .replace("return {'pinned'", "return {**coins, 'pinned'").replace(",\n            'others_intact': set(after) == set(before) and all(after[i] == before[i] for i in before if i != 3)}", "}"),
        criteria=RANDOM_CRITERIA), "nondeterministic_verdicts"),
    "golden_unfinished": (_task(golden="def solve(env):\n    env.click('Book club', role='link')\n"), "golden_fails"),
    "golden_crashes": (_task(golden="def solve(env):\n    env.click('No such note', role='link')\n"), "golden_fails"),
    "golden_network": (_task(golden="import socket\ndef solve(env):\n    socket.create_connection(('127.0.0.1', 80))\n"), "golden_forbidden"),
}
GENERIC = {plant.name: plant for plant in plant_defects(_task())}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_each_planted_defect_is_rejected_with_its_reason(manager, plant):
    task, reason = PLANTS[plant]
    result = validate_task(task, manager, FAST)
    assert not result.accepted
    assert result.reason == reason, f"{result.reason}: {result.detail}"
    assert result.detail


def test_every_generic_plant_is_rejected(manager):
    """factory.verifiers.plants on this task: all rejected, each for its designed reason ('random' may,
    by chance, be caught by another rule first)."""
    report = check_plants([_task()], manager, FAST)
    assert report.plants == len(GENERIC) and report.rejected == report.plants
    assert all("~random:" in miss for miss in report.misses), report.misses
    assert not Path("/tmp/gf-planted-write").exists()


def test_a_reset_that_leaves_state_behind_is_rejected(manager, monkeypatch):
    """A planted backend fault: released instances go back to the pool without being reset.

    The dirty instance comes back to the next reset of the same seed (the pool is last in, first
    out): here the second validation's first reset, whose state dump no longer equals the apps'
    state at creation.
    """
    backend = manager.backend

    def leaky_release(instance):
        slot = backend._slots[instance.app]
        with slot.lock:
            slot.ready.setdefault(slot.keys[instance.instance_id], []).append(instance.instance_id)

    monkeypatch.setattr(backend, "release", leaky_release)
    try:
        first = validate_task(_task(), manager, FAST)
        result = validate_task(_task(), manager, FAST)
    finally:  # put the pool right for the tests after this one
        slot = backend._slots[NOTES]
        for instance_ids in slot.ready.values():
            for instance_id in instance_ids:
                slot.admin.reset(instance_id)
    assert first.accepted or first.reason == "reset_not_exact", first.detail
    assert (result.accepted, result.reason) == (False, "reset_not_exact"), result.detail
    assert "note" in result.detail and "at creation" in result.detail


def test_validate_tasks_keeps_order_across_concurrent_sessions(manager):
    tasks = [GENERIC["always_true"].task.model_copy(update={"id": "a"}), GENERIC["crashes"].task.model_copy(update={"id": "b"})]
    results = validate_tasks(tasks, manager, FAST, concurrency=2)
    assert [(r.task_id, r.reason) for r in results] == [("a", "verifier_true_on_initial"), ("b", "verifier_crash")]
    assert "KeyError" in results[1].detail


SHIPPED = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "tasks").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_task_passes_validation(manager, path):
    """The checker over the whole registry (STYLE 5): one run each, to keep the suite fast."""
    task = Task.model_validate_json(path.read_text())
    result = validate_task(task, manager, ValidationConfig(runs=1, verifier_timeout_s=5.0))
    assert result.accepted, f"{result.reason}: {result.detail}"
    assert result.golden_actions


def test_a_task_the_environment_cannot_set_up_is_invalid(manager):
    task = _task().model_copy(update={"seed": {NOTES: {"note": [{"id": 1, "title": ""}]}}})
    result = validate_task(task, manager, FAST)
    assert (result.accepted, result.reason) == (False, "invalid_task"), result.detail
    assert "seed" in result.detail


def test_golden_code_that_takes_too_many_actions_is_rejected(manager):
    """The golden agent drives the golden run (`runtime.agents.golden.play`); its step limit is a verdict."""
    result = validate_task(_task(), manager, FAST.model_copy(update={"max_golden_steps": 1}))
    assert (result.reason, result.accepted) == ("golden_fails", False)
    assert "more than 1 actions" in result.detail
