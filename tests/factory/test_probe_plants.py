"""Issue 28's probes, through the real apps, browser and sandbox: fields of rows the golden run inserts are blanked one
at a time, and failing states are fuzzed within the footprint (balances the golden run moves, scaled; statuses it sets,
changed). Two planted bad tasks that validation used to accept are now rejected with their reasons: a memo criterion
checked vacuously (`probe_partial`) and a dormant branch that pays once a balance is high (`probe_fuzz`); the shipped
tasks and families that get these probes are still accepted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import gymfactory
from contracts.scoring import Final
from contracts.taskfiles import load_tasks
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.plants import Plant, plant_dormant_branch, plant_unchecked_new_field
from factory.verifiers.probes import derive_probes
from factory.verifiers.validate import ValidationConfig, ValidationResult, accepted_task, validate_task, validate_tasks

APPS = Path(__file__).resolve().parents[2] / "mocked_apps"
CONFIG = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=90.0)
PAY = load_tasks(APPS / "bank" / "tasks" / "pay-green-hosting.json")[0]  # its memo criterion is optional
FIXTURES = [PAY, *load_tasks(APPS / "mail" / "tasks" / "send-expense-note.json"),
            *load_tasks(APPS / "mail" / "tasks" / "star-expenses-january.json"),
            *load_tasks(APPS / "drive" / "tasks" / "new-folder-receipts.json"),
            # answers checked by the kit's matcher: 'every amount in the state' (probe_answer_spam) is no answer
            *load_tasks(APPS / "bank" / "tasks" / "answer-checking-balance.json"),
            *load_tasks(APPS / "mail" / "tasks" / "answer-he-48622.json")]
# families whose golden runs insert rows with named fields (a memo, a patient's name, an address) or move balances and stock
FAMILIES = ("bank.transfer_to_savings", "cross.pay_invoice_from_drive", "clinic.add_patient", "shop.send_to_new_address")
SYNTHESIZED = {t.meta.family: t for name in FAMILIES
               for t in synthesize(SynthConfig(n=1, seed=3, families=(name,), tasks_per_world=1), Author())}
HONEST = [*FIXTURES, *SYNTHESIZED.values()]


def _plants() -> dict[str, Plant]:
    """Each plant in a shipped hand task and in a synthesized cross-app one (where the memo criterion is required)."""
    invoice = SYNTHESIZED["cross.pay_invoice_from_drive"]
    plants = {}
    for task, memo in ((PAY, PAY.answer_context["memo"]), (invoice, invoice.answer_context["number"])):
        for plant in (plant_unchecked_new_field(task, "bank", "transfer", "memo", memo),
                      plant_dormant_branch(task, "bank", "account", "balance", 1000.0)):
            plants[plant.task.id] = plant
    return plants


PLANTS = _plants()


@pytest.fixture(scope="module")
def honest(manager) -> dict[str, ValidationResult]:
    """The honest sample, validated once with every probe on, two sessions at a time; id -> its result."""
    return {r.task_id: r for r in validate_tasks(HONEST, manager, CONFIG, concurrency=2)}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_planted_defect_is_rejected_with_its_reason(manager, plant):
    planted = PLANTS[plant]
    result = validate_task(planted.task, manager, CONFIG)
    assert (result.accepted, result.reason) == (False, planted.expected), result.detail
    what = "blanked bank.transfer" if planted.expected == "probe_partial" else "bank.account[1].balance scaled"
    assert what in result.detail


@pytest.mark.parametrize("task", [t.id for t in HONEST])
def test_shipped_tasks_are_still_accepted(honest, task):
    result = honest[task]
    assert result.accepted, f"{result.reason}: {result.detail}"
    if (task.startswith("bank") and "answer" not in task) or "pay_invoice" in task or "transfer" in task:
        assert "fuzz" in result.probe_kinds  # their golden runs move balances, which the fuzz probes scale


def test_the_new_probes_on_a_golden_final(manager, honest):
    """On the bank payment's golden final: the memo and the amount of the new payment are blanked (its payee name, copied
    from the payee, is not), the checking balance is scaled both ways; the same probes every time; and each scores as it
    must: the optional memo costs reward but not success, the rest fail."""
    task = accepted_task(PAY, honest[PAY.id])
    golden = gymfactory.solve_and_score(task, task.golden, manager=manager).final
    probes = [p for p in derive_probes(task, golden) if p.full_reward_only or p.kind == "fuzz"]
    assert [p.name for p in probes] == [p.name for p in derive_probes(task, golden) if p.full_reward_only or p.kind == "fuzz"]
    names = " | ".join(p.name for p in probes)
    assert "transfer[2].memo of the new row ('GH-45927' -> '')" in names and "transfer[2].amount of the new row (392.0 -> 784.0)" in names
    assert "payee_name" not in names and "created_at" not in names
    assert sum("bank.account[1].balance scaled" in p.name for p in probes) == 2
    for probe in probes:
        scored = gymfactory.judge(task, probe.final)
        if ".memo of" in probe.name:
            assert scored.success and scored.reward < 1.0, (probe.name, scored)
        else:
            assert not scored.success, (probe.name, scored)


def test_new_probes_need_the_task_to_name_the_value():
    """A new row's field the task does not name is the golden code's own choice, and one the row copies from the record it
    references is the app's: neither is blanked."""
    task = PAY.model_copy(update={"instruction": "Pay Green Hosting's invoice: $392.00 from Business Checking. Confirm it.",
                                  "answer_context": {}})
    payee = {"id": 7, "name": "Green Hosting"}
    new = {"id": 2, "kind": "payment", "payee_id": 7, "payee_name": "Green Hosting", "amount": 392.0, "memo": "GH-45927"}
    golden = Final(state={"bank": {"payee": [payee], "transfer": [new]}}, initial_state={"bank": {"payee": [payee], "transfer": []}})
    names = [p.name for p in derive_probes(task, golden) if p.full_reward_only]
    assert names == ["blanked bank.transfer[2].amount of the new row (392.0 -> 784.0)"]
