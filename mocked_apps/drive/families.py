"""Drive families: rename a document, read an invoice's due date, read an invoice's total."""

from __future__ import annotations

import random
from datetime import date

from contracts.family import Family, Requirements, money, open_invoices, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from .recipes import open_file


class RenameDocument(Family):
    name = "drive.rename_document"
    apps = ("drive",)
    description = "Rename a document to a given name."
    difficulty = "easy"
    capabilities = ('search', 'disambiguate', 'form_fill')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        names = [d.name for d in world.documents]
        doc = pick(rng, [d for d in world.documents if names.count(d.name) == 1])
        if doc is None:
            return None
        new = rng.choice([f"{doc.name} (final)", f"{doc.name} - archived", f"OLD {doc.name}", f"{doc.name} v2"])
        instruction = say(rng, world, "Rename \"{old}\" in the Drive to \"{new}\".", "Change the name of the document \"{old}\" to \"{new}\".",
                          "In Drive, \"{old}\" should be called \"{new}\" from now on.", old=doc.name, new=new)
        ctx = {"old": doc.name, "new": new}
        return self._req(instruction, ctx, [
            Criterion(id="renamed", description=f"The file once named '{doc.name}' is now named '{new}'."),
            Criterion(id="only_that_file", description="No other file changed its name.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(open_file(req.answer_context["old"]), 'env.click("Rename", role="link")',
                            f'env.fill("New name", {req.answer_context["new"]!r})', 'env.click("Rename", role="button")')

    verifier_template = '''
def verify(final):
    before = {f["id"]: f["name"] for f in final.initial_state["drive"]["file"]}
    after = {f["id"]: f["name"] for f in final.state["drive"]["file"]}
    target = [i for i, n in before.items() if n == {{ old|py }}]
    renamed = bool(target) and after.get(target[0]) == {{ new|py }}
    others = all(after.get(i) == n for i, n in before.items() if i not in target)
    return {"renamed": renamed, "only_that_file": others}
'''


def _browse_to(filename: str) -> tuple[str, ...]:
    """Open an invoice through the folders instead of the search."""
    return 'env.click("Finance", role="link")', 'env.click("Invoices", role="link")', f'env.click({filename!r}, role="link")'


class InvoiceDueDate(AnswerFamily):
    name = "drive.invoice_due_date"
    apps = ("drive",)
    description = "Look up when an invoice is due and answer with the date."
    difficulty = "easy"
    capabilities = ('search', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        if inv is None:
            return None
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "When is invoice {number} from {vendor} due? Check the Drive and tell me the date.",
                          "Look up the due date of {vendor}'s invoice {number} and answer with it.",
                          "What's the payment deadline on invoice {number}?", number=inv.number, vendor=vendor)
        ctx = {"filename": inv.filename, "due": inv.due.isoformat(), "due_text": f"{inv.due:%B} {inv.due.day}, {inv.due.year}"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives the due date {inv.due.isoformat()}.",
                                                         "The answer names no other date (listing every date is no answer)."))

    answer = AnswerSpec("date", "due", golden="{due_text}")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse the folders to the invoice instead of searching, and say the date in a sentence of another form."""
        return open_file(c["filename"]), _browse_to(c["filename"])

    def said(self, c: dict) -> str:
        due = date.fromisoformat(c["due"])
        th = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(due.day, "th")
        return f"It is due on the {due.day}{th} of {due:%B} {due.year}."


class InvoiceTotal(AnswerFamily):
    name = "drive.invoice_total"
    apps = ("drive",)
    description = "Look up the total of an invoice and answer with the amount."
    difficulty = "easy"
    capabilities = ('search', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        numbers = [i.number for i in world.invoices]
        inv = pick(rng, [i for i in world.invoices if numbers.count(i.number) == 1])
        if inv is None:
            return None
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "What's the total on invoice {number} from {vendor}? Look it up in the Drive.",
                          "How much is {vendor}'s invoice {number} for in total?",
                          "Find invoice {number} in the Drive and tell me its total amount.", number=inv.number, vendor=vendor)
        if inv.amount.is_integer() and str(int(inv.amount)) in instruction:  # the number INV-1350 and a total of $1,350.00
            return None
        ctx = {"filename": inv.filename, "amount": inv.amount, "amount_text": money(inv.amount), "currency": world.persona.currency}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {money(inv.amount)}, the total of invoice {inv.number}.",
                                                         "The answer names no other amount (listing every amount is no answer)."))

    answer = AnswerSpec("amount", "amount", golden="{amount_text}", sentence="The total is {amount:,.2f} {currency}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse the folders to the invoice instead of searching; the amount with the invoice's currency code."""
        return open_file(c["filename"]), _browse_to(c["filename"])


FAMILIES = (RenameDocument(), InvoiceDueDate(), InvoiceTotal())
