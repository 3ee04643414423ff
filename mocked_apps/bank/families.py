"""Bank families: move money to savings; and look-ups answered in text: a client's latest payment, a month's
card spending on one kind of expense, the day a payee was last paid."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date

from contracts.family import Family, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps, answer_criteria

from .projection import project
from .recipes import account_id, account_label, search_transactions, transfer


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


def _amount_criteria(amount: float, what: str) -> list[Criterion]:
    return answer_criteria("amount", f"The answer gives {money(amount)}, {what}.",
                           "The answer names no other amount (listing every amount is no answer).")


class ClientPaymentAmount(AnswerFamily):
    name = "bank.client_payment_amount"
    apps = ("bank",)
    description = "Look up how much a client paid in their latest payment and answer with the amount."
    difficulty = "easy"
    capabilities = ('search', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        accounts = {a.id: a.name for a in world.accounts}
        latest = []
        for org in (o for o in world.organisations if o.kind == "client"):
            paid = sorted((t for t in world.transactions if t.counterparty == org.id and t.amount > 0), key=lambda t: (t.posted, t.id))
            if paid and (len(paid) == 1 or paid[-1].posted.date() != paid[-2].posted.date()):
                latest.append((org, paid[-1]))
        choice = pick(rng, latest)
        if choice is None:
            return None
        org, t = choice
        instruction = say(rng, world, "How much was the last payment we received from {client}? Check the bank and tell me the amount.",
                          "What did {client} pay us most recently? Answer with the amount.",
                          "Look up {client}'s latest payment into our account and tell me how much it was.", client=org.name)
        ctx = {"client": org.name, "account": accounts[t.account], "amount": t.amount, "amount_text": money(t.amount),
               "posted": t.posted.date().isoformat()}
        return self._req(instruction, ctx, _amount_criteria(t.amount, f"the payment from {org.name} posted {ctx['posted']}"))

    answer = AnswerSpec("amount", "amount", golden="{amount_text}", sentence="They paid {amount:,.2f}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Open the account the payment went into and read it there; the amount without its currency sign."""
        return search_transactions(c["client"]), f'env.click({c["account"]!r}, role="link")'


_SPENDS = {"Coffee shop": "coffee shops", "Taxi": "taxis", "Stationery": "stationery", "Lunch meeting": "lunch meetings",
           "Parking": "parking", "Train ticket": "train tickets"}
"""The card's routine expenses (the world's descriptions) and how a person names them."""


class CardSpendInMonth(AnswerFamily):
    name = "bank.card_spend_in_month"
    apps = ("bank",)
    description = "Add up a month's card charges of one kind of expense and answer with the total."
    difficulty = "medium"
    capabilities = ('search', 'filter_sort', 'compute', 'read_answer')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        card = next((a for a in world.accounts if a.kind == "credit"), None)
        if card is None:
            return None
        groups: dict[tuple[str, int, int], list] = defaultdict(list)
        for t in world.transactions:
            if t.account == card.id and t.description in _SPENDS and t.amount < 0:
                groups[(t.description, t.posted.year, t.posted.month)].append(t)

        def clean(what: str, year: int, month: int) -> bool:  # nothing else that month a search for the words would also find
            near = [t for t in world.transactions if (t.posted.year, t.posted.month) == (year, month)
                    and what.lower() in f"{t.description} {t.counterparty} {t.reference} {t.category}".lower()]
            return len(near) == len(groups[(what, year, month)])

        choice = pick(rng, sorted(k for k, ts in groups.items() if len(ts) >= 2 and clean(*k)))
        if choice is None:
            return None
        what, year, month = choice
        total = round(-sum(t.amount for t in groups[choice]), 2)
        when = f"{date(year, month, 1):%B} {year}"
        instruction = say(rng, world, "What did the {card} spend on \"{what}\" in {when}? Give me the total.",
                          "Add up our {card} charges for \"{what}\" in {when} and tell me the total.",
                          "How much went on {noun} (\"{what}\" on the {card}) in {when}?", card=card.name, what=what, noun=_SPENDS[what], when=when)
        if total.is_integer() and str(int(total)) in instruction:  # "2026" would seem to give away a total of $20.00
            return None
        ctx = {"what": what, "card": card.name, "month": f"{year}-{month:02d}", "amount": total, "amount_text": money(total),
               "count": len(groups[choice])}
        return self._req(instruction, ctx, _amount_criteria(total, f"the sum of the {len(groups[choice])} '{what}' card charges of {when}"))

    answer = AnswerSpec("amount", "amount", golden="{amount_text}", sentence="{amount:,.2f} in total")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Go through the card's own transaction list instead of searching; the total in other words."""
        return search_transactions(c["what"]), f'env.click({c["card"]!r}, role="link")'


class LastPaymentDate(AnswerFamily):
    name = "bank.last_payment_date"
    apps = ("bank",)
    description = "Look up the day a payee was last paid and answer with the date."
    difficulty = "easy"
    capabilities = ('navigate', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {p["id"]: p["name"] for p in rows["payee"]}
        last: dict[int, date] = {}
        for t in rows["transfer"]:
            if t["payee_id"] in names and t["status"] == "confirmed":
                day = date.fromisoformat(t["confirmed_at"][:10])
                last[t["payee_id"]] = max(day, last.get(t["payee_id"], day))
        payee = pick(rng, sorted(last))
        if payee is None:
            return None
        day = last[payee]
        instruction = say(rng, world, "When did we last pay {payee}? Tell me the date.",
                          "What's the date of our most recent payment to {payee}?",
                          "Check the bank: on what day did the last payment to {payee} go out?", payee=names[payee])
        ctx = {"payee": names[payee], "paid": day.isoformat(), "paid_text": f"{day:%B} {day.day}, {day.year}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {day.isoformat()}, the day of the last payment to {names[payee]}.",
                                                         "The answer names no other date (listing every date is no answer)."))

    answer = AnswerSpec("date", "paid", golden="{paid_text}", sentence="On {paid.day} {paid:%B} {paid.year}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Search the transactions for the payee instead of opening its page; the date day first."""
        return ('env.click("Payees", role="link")', f'env.click({c["payee"]!r}, role="link")'), search_transactions(c["payee"])


FAMILIES = (TransferToSavings(), ClientPaymentAmount(), CardSpendInMonth(), LastPaymentDate())
