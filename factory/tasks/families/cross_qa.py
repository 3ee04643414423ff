"""Cross-app question families: look a fact up in one app, carry it to another, and answer.

Like the other cross-app families they call only the apps' recipes. Their verifiers check the answer
with the kit's matcher (`mocked_apps.kit.answers`): every unambiguous form a person writes is paid,
another candidate value or a hedged list is not.
"""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, first_name, invoice_subject, money, open_invoices, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.drive import recipes as drive
from mocked_apps.kit.answers import VERIFIER_SOURCE
from mocked_apps.mail import recipes as mail

__all__ = ["TotalOfEmailedInvoice", "WhoSentInvoice"]


def _answer(text: str) -> str:
    """The golden step that ends the attempt with `text` as the answer."""
    return f"env.answer({text!r})"


def _mail_sender(world: World, inv) -> str | None:
    """The person id who sent the message carrying the invoice, if the world has one."""
    return next((m.sender for m in world.messages if inv.filename in m.attachments), None)


class TotalOfEmailedInvoice(Family):
    name = "cross.total_of_emailed_invoice"
    apps = ("mail", "drive")
    description = "Find the invoice a contact emailed about, read its total in the drive's copy, and answer with it."
    difficulty = "medium"
    capabilities = ('cross_app', 'search', 'read_answer', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        senders = [_mail_sender(world, i) for i in world.invoices]
        # only a sender who emailed one invoice: "the invoice Robert sent" must name one
        inv = pick(rng, [i for i in open_invoices(world) if _mail_sender(world, i) and senders.count(_mail_sender(world, i)) == 1])
        if inv is None:
            return None
        sender = world.person(_mail_sender(world, inv))
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "{first} from {vendor} emailed me an invoice. How much is it for? Our copy is in the Drive.",
                          "What's the total of the invoice {name} sent by email? Check the copy in Drive and tell me the amount.",
                          "Look up the invoice in {first}'s email ({vendor}) and tell me its total from the Drive file.",
                          first=first_name(sender.name), name=sender.name, vendor=vendor)
        ctx = {"subject": invoice_subject(world, inv), "filename": inv.filename, "amount": inv.amount, "amount_text": money(inv.amount)}
        return self._req(instruction, ctx, [
            Criterion(id="right_total", description=f"The answer gives the invoice's total, {money(inv.amount)}."),
            Criterion(id="no_other_amount", description="The answer names no other amount (listing several is no answer).", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(mail.open_app(), mail.open_thread(c["subject"]), drive.open_app(), drive.open_file(c["filename"]),
                            _answer(c["amount_text"]))

    def verifier(self, req: Requirements) -> str:
        return VERIFIER_SOURCE + f'''

def verify(final):
    said = answer_matches(final.answer, "amount", {req.answer_context["amount"]!r})
    return {{"right_total": said["right"], "no_other_amount": said["only"]}}
'''


class WhoSentInvoice(Family):
    name = "cross.who_sent_invoice"
    apps = ("drive", "mail")
    description = "Find who emailed an invoice that is in the drive, and answer with their name."
    difficulty = "medium"
    capabilities = ('cross_app', 'search', 'read_answer')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, [i for i in world.invoices if _mail_sender(world, i)])
        if inv is None:
            return None
        sender = world.person(_mail_sender(world, inv))
        others = sorted({p.name for p in world.people if p.id != sender.id and p.name != sender.name})
        instruction = say(rng, world, "The file {filename} is in my Drive. Who emailed it to me? Tell me their name.",
                          "Who sent me invoice {number}? The copy is in the Drive; find the email it came with and answer with the sender's name.",
                          "I have invoice {number} in Drive but forgot who sent it. Check my mail and tell me who it was.",
                          filename=inv.filename, number=inv.number)
        ctx = {"filename": inv.filename, "subject": invoice_subject(world, inv), "sender": sender.name, "others": others}
        return self._req(instruction, ctx, [
            Criterion(id="right_sender", description=f"The answer names {sender.name}."),
            Criterion(id="no_other_person", description="The answer names nobody else (listing several people is no answer).", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(drive.open_app(), drive.open_file(c["filename"]), mail.open_app(), mail.open_thread(c["subject"]),
                            _answer(c["sender"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return VERIFIER_SOURCE + f'''

def verify(final):
    said = answer_matches(final.answer, "text", {c["sender"]!r}, others={tuple(c["others"])!r})
    return {{"right_sender": said["right"], "no_other_person": said["only"]}}
'''
