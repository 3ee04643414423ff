"""Mail families: star an invoice email, forward an invoice to a colleague; look up an emailed invoice's total and
who sent it, and answer."""

from __future__ import annotations

import random

from contracts.family import Family, Requirements, first_name, invoice_subject, open_invoices, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from .recipes import forward, open_thread, thread_of_source


class StarInvoiceEmail(Family):
    name = "mail.star_invoice_email"
    apps = ("mail",)
    description = "Star the email that carried a given vendor's invoice."
    difficulty = "easy"
    capabilities = ('search', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        if inv is None:
            return None
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world,
                          "Star the email from {vendor} with invoice {number} so I don't lose track of it.",
                          "Can you star {vendor}'s invoice email ({number})?",
                          "Flag the {vendor} invoice email ({number}) with a star.",
                          vendor=vendor, number=inv.number)
        ctx = {"subject": invoice_subject(world, inv), "filename": inv.filename}
        return self._req(instruction, ctx, [
            Criterion(id="starred", description=f"The thread carrying {inv.filename} is starred."),
            Criterion(id="others_untouched", description="No other thread's star changed.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(open_thread(req.answer_context["subject"]), 'env.click("Star", role="button")')

    verifier_template = thread_of_source() + '''

def verify(final):
    before = {t["id"]: t["starred"] for t in final.initial_state["mail"]["thread"]}
    after = {t["id"]: t["starred"] for t in final.state["mail"]["thread"]}
    target = _thread_of(final.initial_state["mail"], {{ filename|py }})
    others = all(after.get(i) == s for i, s in before.items() if i != target)
    return {"starred": target is not None and after.get(target) is True, "others_untouched": others}
'''


class ForwardInvoice(Family):
    name = "mail.forward_invoice"
    apps = ("mail",)
    description = "Forward a vendor's invoice email, attachment included, to a colleague."
    difficulty = "medium"
    capabilities = ('search', 'form_fill', 'disambiguate')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        colleagues = [p for p in world.people if p.org == world.person(world.user).org and p.id != world.user]
        to = pick(rng, colleagues)
        if inv is None or to is None:
            return None
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world,
                          "Forward the {vendor} invoice email ({number}) to {colleague}, with the PDF attached.",
                          "Please send {colleague} the invoice {number} from {vendor} - just forward the email.",
                          "{colleague_first} needs to see invoice {number} from {vendor}; forward it to them with the attachment.",
                          vendor=vendor, number=inv.number, colleague=to.name, colleague_first=first_name(to.name))
        ctx = {"subject": invoice_subject(world, inv), "filename": inv.filename, "to_email": to.email,
               "me": world.persona.email, "number": inv.number}
        return self._req(instruction, ctx, [
            Criterion(id="sent_to_colleague", description=f"A new message from the user went to {to.email}."),
            Criterion(id="attachment_kept", description=f"That message carries {inv.filename}."),
            Criterion(id="subject_mentions_invoice", description="Its subject mentions the invoice (number or original subject).", required=False, weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(open_thread(req.answer_context["subject"]), forward(req.answer_context["to_email"]))

    verifier_template = '''
def verify(final):
    mail, before = final.state["mail"], final.initial_state["mail"]
    old = {m["id"] for m in before["message"]}
    sent = [m for m in mail["message"] if m["id"] not in old and not m["is_draft"]
            and m["sender_email"].lower() == {{ me|py }}
            and {{ to_email|py }} in [a.strip().lower() for a in (m["to"] + "," + m["cc"]).split(",")]]
    files = {}
    for a in mail["attachment"]:
        files.setdefault(a["message_id"], set()).add(a["filename"])
    with_file = [m for m in sent if {{ filename|py }} in files.get(m["id"], set())]
    return {
        "sent_to_colleague": bool(sent),
        "attachment_kept": bool(with_file),
        "subject_mentions_invoice": any({{ number|py }} in m["subject"] or {{ subject|py }} in m["subject"] for m in sent),
    }
'''


def _gives_away(instruction: str, *values) -> bool:
    """Whether the instruction already states one of the hidden answer's values (names, or an amount as it is written)."""
    text = instruction.lower()
    forms = set()
    for v in values:
        if isinstance(v, float):
            forms |= {str(v), f"{v:,}", f"{v:.2f}", f"{v:,.2f}"} | ({str(int(v)), f"{int(v):,}"} if v.is_integer() else set())
        else:
            forms.add(str(v).lower())
    return any(f in text for f in forms)


def _emailed(world: World) -> list:
    """The world's invoices with the one email that carried each (its subject names the invoice's number)."""
    out = []
    for inv in world.invoices:
        carried = [m for m in world.messages if inv.filename in m.attachments]
        if len(carried) == 1:
            out.append((inv, carried[0]))
    return out


def _search(words: str) -> tuple[str, ...]:
    """Search the mailbox for `words`."""
    return f'env.fill(env.word("Search") + " mail", {words!r})', 'env.press("Enter")'


class InvoiceAmount(AnswerFamily):
    name = "mail.invoice_amount"
    apps = ("mail",)
    description = "Open the PDF a vendor emailed and answer with the invoice's total (the email's text does not say it)."
    difficulty = "easy"
    capabilities = ("search", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        found = pick(rng, _emailed(world))
        if found is None:
            return None
        inv, msg = found
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "How much is invoice {number} from {vendor}? It came by email; tell me the total.",
                          "What does {vendor}'s invoice {number} come to? Check the attachment in my mail and answer with the amount.",
                          "Look up the total of invoice {number} in my email and tell me.", number=inv.number, vendor=vendor)
        if _gives_away(instruction, inv.amount):
            return None
        ctx = {"subject": msg.subject, "number": inv.number, "filename": inv.filename, "amount": inv.amount,
               "currency": world.persona.currency}
        return self._req(instruction, ctx, self.criteria(f"The answer gives the invoice's total, {inv.amount:,.2f}.",
                                                         "The answer names no other amount (listing the line items is no answer)."))

    answer = AnswerSpec("amount", "amount", golden="{amount:,.2f} {currency}", sentence="It comes to {amount:.2f}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Search by the invoice number instead of the subject, and say the total in a sentence without the currency."""
        return ((open_thread(c["subject"]), f'env.click({c["filename"]!r}, role="link")'),
                (*_search(c["number"]), f'env.click({c["subject"]!r}, role="link")', f'env.click({c["filename"]!r}, role="link")'))


class InvoiceSender(AnswerFamily):
    name = "mail.invoice_sender"
    apps = ("mail",)
    description = "Find the email that carried a vendor's invoice and answer with the name of the person who sent it."
    difficulty = "easy"
    capabilities = ("search", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        found = pick(rng, _emailed(world))
        if found is None:
            return None
        inv, msg = found
        sender = world.person(msg.sender).name
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "Who at {vendor} sent me invoice {number}? Give me their name.",
                          "Find the email with invoice {number} and tell me who sent it.",
                          "Which person emailed me {vendor}'s invoice {number}?", number=inv.number, vendor=vendor)
        others = sorted({p.name for p in world.people if p.name != sender})
        if _gives_away(instruction, sender, *others):
            return None
        ctx = {"subject": msg.subject, "number": inv.number, "sender": sender, "others": others}
        return self._req(instruction, ctx, self.criteria(f"The answer names {sender}, who sent the email carrying {inv.filename}.",
                                                         "The answer names no other person of the address book."))

    answer = AnswerSpec("name", "sender", golden="{sender}", sentence="It was sent by {sender}.", others="others")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Search by the invoice number and read the sender off the result list, answering in a sentence."""
        return open_thread(c["subject"]), _search(c["number"])


FAMILIES = (StarInvoiceEmail(), ForwardInvoice(), InvoiceAmount(), InvoiceSender())
