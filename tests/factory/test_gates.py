"""The task gates on the shipped families, through the real apps, browser and sandbox.

Every family is synthesized in three worlds and passes validation with its probes on (in one world;
in all three with `--full`); every family has a cheat test in the manner of BrowserGym's `test_cheat`
(doing nothing scores 0, the golden run 1, every probe success 0): from its validation for every
family, and replayed in the browser for a sample of families drawn per commit (all with `--full`); the cheats
found in issue 12 are played for real in the browser and fail through the footprint guard; and
planted defects of the kinds issue 12 found are rejected with their reasons. One environment
manager (app servers, Chromium) serves the whole module.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from factory.tasks.families import FAMILIES
from contracts.task import Criterion, Task
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.probes import derive_probes
from factory.verifiers.review import rule_findings
from runtime.sandbox import run_verifier
from contracts.scoring import GUARD_CRITERION, score_final
from factory.verifiers.validate import ValidationConfig, ValidationResult, accepted_task, validate_task, validate_tasks
from runtime.golden import GoldenRunner
from runtime.manager import Lease, SessionSpec
from flows.dataset_columns import _nested
from tests.support.sampling import full, sample

WORLDS = 3
CONFIG = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)
# each family on its own, one task per world: three worlds each, however many families the apps bring
TASKS = [t for name in sorted(FAMILIES)
         for t in synthesize(SynthConfig(n=WORLDS, seed=3, families=(name,), tasks_per_world=1), Author())]
BY_FAMILY: dict[str, list[Task]] = defaultdict(list)
for _task in TASKS:
    BY_FAMILY[_task.meta.family].append(_task)
VALIDATED_WORLDS = WORLDS if full() else 1  # synthesis is cheap; a validation costs seconds of browser time
TO_VALIDATE = [t for tasks in BY_FAMILY.values() for t in tasks[:VALIDATED_WORLDS]]


@pytest.fixture(scope="module")
def results(manager) -> dict[str, ValidationResult]:
    """Each family's tasks to validate, validated once (probes on), two sessions at a time; id -> its result."""
    out = validate_tasks(TO_VALIDATE, manager, CONFIG, concurrency=2)
    failures = {r.task_id: f"{r.reason}: {r.detail[:300]}" for r in out if not r.accepted}
    assert not failures, failures
    return {r.task_id: r for r in out}


@pytest.fixture(scope="module")
def validated(results) -> dict[str, Task]:
    """id -> the accepted task (carrying the footprint its validation recorded)."""
    return {t.id: accepted_task(t, results[t.id]) for t in TO_VALIDATE}


def test_every_family_is_synthesized_in_three_worlds():
    assert set(BY_FAMILY) == set(FAMILIES)
    for name, tasks in BY_FAMILY.items():
        assert len({t.world for t in tasks}) >= WORLDS, (name, [t.world for t in tasks])


def test_every_familys_tasks_pass_the_review_rules():
    """Review runs after validation: a task its deterministic rules drop (an instruction that is not a sentence, the
    answer in the instruction, code that imports) has cost its validation for nothing."""
    findings = {t.id: found for t in TASKS if (found := list(rule_findings(t)))}
    assert not findings, findings


def test_every_familys_answer_context_fits_one_dataset_column():
    """The export nests answer contexts into one Arrow struct: a key with two types across families stops the run."""
    column = _nested("answer_context", [t.answer_context for t in TASKS])
    assert len(column) == len(TASKS)


def test_every_family_declares_what_it_exercises():
    for name, family in FAMILIES.items():
        assert family.capabilities, f"{name} declares no capabilities"
        assert all(t.meta.capabilities == family.capabilities for t in BY_FAMILY[name])
    assert all("cross_app" in f.capabilities for f in FAMILIES.values() if f.cross_app)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_validates_with_probes(validated, family):
    for task in BY_FAMILY[family][:VALIDATED_WORLDS]:
        accepted = validated[task.id]
        assert accepted.footprint is not None
        assert accepted.footprint.tables or "read_answer" in task.meta.capabilities  # only an answer changes nothing


def _drive(session, code: str, task: Task) -> list[str]:
    """Run golden-style code (`solve(env)`) in the session, as validation runs the golden code."""
    obs = session.observe()
    runner = GoldenRunner(code, apps=task.apps, timeout_s=90.0)
    actions: list[str] = []
    try:
        while not obs.done:
            action = runner.next_action(obs)
            if action is None:
                break
            actions.append(action)
            obs = session.step(action)
    finally:
        runner.close()
    return actions


def _verdicts(task: Task, final):
    return lambda: run_verifier(task.verifier, final, timeout_s=5.0).verdicts


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_cheat_from_validation(results, family):
    """BrowserGym's test_cheat, as validation played it: nothing 0 on the initial state, golden 1, and probes of
    every kind derived from the golden final, each of which failed (else the task would be rejected)."""
    result = results[BY_FAMILY[family][0].id]
    assert result.accepted and result.probes >= 2
    assert not all(result.verdicts["run1.initial"].values()) and all(result.verdicts["run1.golden"].values())
    assert {"answer_spam", "collateral"} <= set(result.probe_kinds)
    assert "partial" in result.probe_kinds or not result.footprint.tables  # an answer-only task has no partial state


BROWSER_CHEATS = sample(FAMILIES, 4, always=("mail.star_invoice_email", "bank.transfer_to_savings", "cross.pay_invoice_from_drive"))


@pytest.mark.parametrize("family", BROWSER_CHEATS)
def test_cheat(manager, validated, family):
    """BrowserGym's test_cheat replayed in the browser: golden 1, nothing 0, each probe from the golden final success 0."""
    task = validated[BY_FAMILY[family][0].id]
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
    try:
        session.reset(task)
        nothing = session.evaluate()
        assert (nothing.status, nothing.reward, nothing.success) == ("failure", 0.0, False), nothing
        _drive(session, task.golden, task)
        solved = session.evaluate()
        assert (solved.status, solved.reward, solved.success) == ("success", 1.0, True), solved
        assert solved.verdicts[GUARD_CRITERION] is True
        golden = session.final()
    finally:
        session.close()
    probes = derive_probes(task, golden)
    kinds = {p.kind for p in probes}
    assert {"answer_spam", "collateral"} <= kinds
    assert "partial" in kinds or not task.footprint.tables
    for probe in probes:
        scored = score_final(task, probe.final, _verdicts(task, probe.final))
        assert not scored.success, f"{probe.kind}: {probe.name} -> {scored.verdicts}"


CHEATS = {
    # issue 12: each of these succeeded before the footprint guard
    "mail.star_invoice_email": ("trashes two other threads", "mail", "thread",
                                lambda others: "".join(f"    env.fill('Search mail', {s!r})\n    env.press('Enter')\n"
                                                       f"    env.click({s!r}, role='link')\n    env.click('Delete', role='button')\n"
                                                       for s in others)),
    "bank.transfer_to_savings": ("deletes every payee", "bank", "payee",
                                 lambda others: "    env.click('Payees', role='link')\n" + "".join(
                                     f"    env.click({s!r}, role='link')\n    env.click('Delete payee', role='button')\n" for s in others)),
    "drive.rename_document": ("trashes two other files", "drive", "file",
                              lambda others: "".join(f"    env.fill('Search in Drive', {s!r})\n    env.press('Enter')\n"
                                                     f"    env.click({s!r}, role='link')\n    env.click('Move to trash', role='button')\n"
                                                     for s in others)),
}


def _others(task: Task, initial: dict, app: str, table: str) -> list[str]:
    """Names of records the task is not about, unique in their table, as the pages show them."""
    field = {"thread": "subject", "payee": "name", "file": "name"}[table]
    rows = initial[app][table]
    names = [r[field] for r in rows if not r.get("trashed") and r.get("folder", "inbox") == "inbox"]
    unique = [n for n in names if names.count(n) == 1 and n and n.lower() not in (task.instruction + str(task.answer_context)).lower()]
    return unique if table == "payee" else unique[:2]


@pytest.mark.parametrize("family", sorted(CHEATS))
def test_issue_cheats_fail_through_the_footprint_guard(manager, validated, family):
    what, app, table, extra = CHEATS[family]
    task = validated[BY_FAMILY[family][0].id]
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
    try:
        session.reset(task)
        others = _others(task, session.initial_state, app, table)
        assert others, f"no other {table} to damage"
        cheat = task.golden + "\n\n_gf_solve = solve\n\n\ndef solve(env):\n    _gf_solve(env)\n" + extra(others)
        _drive(session, cheat, task)
        verdicts = run_verifier(task.verifier, session.final(), timeout_s=5.0).verdicts
        outcome = session.evaluate()
    finally:
        session.close()
    assert all(verdicts.values()), f"the cheat ({what}) should fool the verifier alone: {verdicts}"
    assert (outcome.status, outcome.success, outcome.reward) == ("failure", False, 0.0), outcome
    assert outcome.verdicts == {GUARD_CRITERION: False}


def test_an_honest_detour_is_not_collateral(manager, validated):
    """An agent that cancels its first review and starts over leaves a cancelled transfer: declared inert, it still succeeds."""
    task = validated[BY_FAMILY["bank.transfer_to_savings"][0].id]
    session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=300))
    try:
        session.reset(task)
        review_then_cancel = task.golden.replace('    env.click("Confirm transfer", role="button")\n',
                                                 '    env.click("Cancel transfer", role="button")\n')
        assert review_then_cancel != task.golden
        detour = review_then_cancel + "\n\n_gf_detour = solve\n\n\n" + task.golden.replace("def solve(env):", "def _gf_again(env):") + (
            "\n\ndef solve(env):\n    _gf_detour(env)\n    _gf_again(env)\n")
        _drive(session, detour, task)
        final = session.final()
        before = {t["id"] for t in final.initial_state["bank"]["transfer"]}  # the seed's own transfers (bill payments)
        statuses = sorted(t["status"] for t in final.state["bank"]["transfer"] if t["id"] not in before)
        outcome = session.evaluate()
    finally:
        session.close()
    assert statuses == ["cancelled", "confirmed"]
    assert (outcome.status, outcome.reward) == ("success", 1.0), outcome


def _planted(task: Task, name: str, **changes) -> Task:
    return task.model_copy(update={"id": f"{task.id}~{name}", "footprint": None, **changes})


def _wrap(task: Task, body: str) -> str:
    lines = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return task.verifier + f"\n\n_gf_original = verify\n\n\ndef verify(final):\n{lines}"


def _plants() -> dict[str, tuple[Task, str]]:
    """Issue 12's accepted bad tasks, planted into shipped family tasks; each with the reason that must reject it."""
    reply = BY_FAMILY["cross.reply_with_invoice_total"][0]
    due = BY_FAMILY["drive.invoice_due_date"][0]
    pay = BY_FAMILY["cross.pay_invoice_from_drive"][0]
    transfer = BY_FAMILY["bank.transfer_to_savings"][0]
    star = BY_FAMILY["mail.star_invoice_email"][0]
    count_changed = ("changed = any(len(rows) != len(final.initial_state[a][t]) for a in final.state for t, rows in final.state[a].items())\n"
                     "return {k: changed for k in _gf_original(final)}")
    always = "v = _gf_original(final)\nv['checked'] = True\nreturn v"
    payee = transfer.seed["bank"]["payee"][0]["name"]
    thread = next(t["subject"] for t in star.seed["mail"]["thread"]
                  if t["folder"] == "inbox" and t["subject"] != star.answer_context["subject"])
    then = "\n\n_gf_solve = solve\n\n\ndef solve(env):\n    _gf_solve(env)\n"
    delete_payee = then + f"    env.click('Payees', role='link')\n    env.click({payee!r}, role='link')\n    env.click('Delete payee', role='button')\n"
    trash_one = then + (f"    env.fill('Search mail', {thread!r})\n    env.press('Enter')\n"
                        f"    env.click({thread!r}, role='link')\n    env.click('Delete', role='button')\n")
    return {
        "succeeds_when_any_row_count_changed": (_planted(reply, "count", verifier=_wrap(reply, count_changed)), "probe_wrong_target"),
        "required_criterion_always_true": (_planted(
            pay, "always", verifier=_wrap(pay, "v = _gf_original(final)\nv['from_checking'] = True\nreturn v")), "probe_wrong_target"),
        "extra_required_criterion_always_true": (_planted(
            transfer, "extra", criteria=(*transfer.criteria, Criterion(id="checked", description="Always true, planted.")),
            verifier=_wrap(transfer, always)), "criterion_vacuous"),
        "accepts_any_answer": (_planted(due, "any", verifier=_wrap(due, "if final.answer:\n    return {k: True for k in _gf_original(final)}\nreturn _gf_original(final)")),
                               "probe_answer_spam"),
        "accepts_any_answer_in_a_state_task": (_planted(star, "any", verifier=_wrap(star, "if final.answer:\n    return {k: True for k in _gf_original(final)}\nreturn _gf_original(final)")),
                                               "probe_answer_spam"),
        "golden_deletes_an_unrelated_payee": (_planted(transfer, "payee", golden=transfer.golden + delete_payee), "unverified_golden_change"),
        "golden_trashes_an_unrelated_email": (_planted(star, "trash", golden=star.golden + trash_one), "unverified_golden_change"),
    }


PLANTS = _plants()


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_issue_12_planted_defects_are_rejected_with_their_reason(manager, plant):
    task, reason = PLANTS[plant]
    result = validate_task(task, manager, CONFIG)
    assert (result.accepted, result.reason) == (False, reason), result.detail
    assert result.detail


def test_others_untouched_comparing_the_initial_state_with_itself_is_neutralised(manager, validated):
    """Issue 12's fifth bad verifier: its 'others untouched' compares initial with initial, so it is always
    true. Validation calls it vacuous, and even accepted as written it cannot pay a cheat: the guard fails
    the star-and-trash attempt."""
    star = validated[BY_FAMILY["mail.star_invoice_email"][0].id]
    broken = _planted(star, "self", verifier=star.verifier.replace(
        'after = {t["id"]: t["starred"] for t in final.state["mail"]["thread"]}',
        'after = {t["id"]: t["starred"] for t in final.initial_state["mail"]["thread"]}').replace(
        'after.get(target) is True', 'any(t["id"] == target and t["starred"] for t in final.state["mail"]["thread"])'))
    assert broken.verifier != star.verifier
    result = validate_task(broken, manager, CONFIG)
    assert (result.accepted, result.reason) == (False, "criterion_vacuous"), result.detail
    assert "others_untouched" in result.detail
