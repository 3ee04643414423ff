"""Bank families: move money to savings."""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, money, say, solve_source
from contracts.task import Criterion
from contracts.world import World

from .recipes import account_id, account_label, transfer


class TransferToSavings(Family):
    name = "bank.transfer_to_savings"
    apps = ("bank",)
    description = "Transfer an amount from checking to savings, through the review step."
    difficulty = "medium"
    capabilities = ('navigate', 'form_fill', 'select_option', 'confirm')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        amount = float(rng.choice([250, 500, 750, 1000, 1200, 1500, 2000, 2500]))
        checking = next(a for a in world.accounts if a.kind == "checking")
        if world.balance(checking.id) < amount + 100:
            return None
        instruction = say(rng, world, "Move {amount} from checking into savings.",
                          "Transfer {amount} from {checking} to {savings}.", "Put {amount} aside: transfer it from the checking account to savings.",
                          amount=money(amount), checking=checking.name, savings=next(a.name for a in world.accounts if a.kind == "savings"))
        ctx = {"amount": amount, "amount_text": f"{amount:.2f}", "from_label": account_label(world, "checking"),
               "to_label": account_label(world, "savings"), "from_id": account_id(world, "checking"),
               "to_id": account_id(world, "savings")}
        return self._req(instruction, ctx, [
            Criterion(id="transferred", description=f"A confirmed transfer of {money(amount)} from checking to savings exists."),
            Criterion(id="balances_moved", description="Checking went down and savings went up by exactly that amount."),
            Criterion(id="only_once", description="No other payment or transfer was confirmed.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(transfer(c["from_label"], c["to_label"], c["amount_text"]))

    verifier_template = '''
def verify(final):
    bank, before = final.state["bank"], final.initial_state["bank"]
    old = {t["id"] for t in before["transfer"]}
    new = [t for t in bank["transfer"] if t["id"] not in old and t["status"] == "confirmed"]
    ok = [t for t in new if t["kind"] == "transfer" and t["from_account_id"] == {{ from_id }}
          and t["to_account_id"] == {{ to_id }} and abs(t["amount"] - {{ amount }}) < 0.005]
    bal = lambda s, i: next(a["balance"] for a in s["account"] if a["id"] == i)
    moved = (abs(bal(before, {{ from_id }}) - bal(bank, {{ from_id }}) - {{ amount }}) < 0.005
             and abs(bal(bank, {{ to_id }}) - bal(before, {{ to_id }}) - {{ amount }}) < 0.005)
    return {"transferred": bool(ok), "balances_moved": moved, "only_once": len(new) == 1}
'''


FAMILIES = (TransferToSavings(),)
