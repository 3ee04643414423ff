"""Cross-app families: facts found in one app, acted on in another.

They know no app's labels, row ids or tables: golden steps and verifier predicates come from each
app's `recipes` module, so a change to an app's UI is made once, in its own package.
"""

from __future__ import annotations

import random
from datetime import timedelta

from contracts.family import Family, Requirements, first_name, invoice_subject, money, open_invoices, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.bank import recipes as bank
from mocked_apps.calendar import recipes as calendar
from mocked_apps.drive import recipes as drive
from mocked_apps.kit.answers import VERIFIER_SOURCE
from mocked_apps.mail import recipes as mail

_AMOUNT_CHECK = VERIFIER_SOURCE + '''

def _mentions_amount(text, amount):
    return answer_matches(text, "amount", amount)["right"]
'''


def _invoice_ctx(world: World, inv) -> dict:
    return {"number": inv.number, "vendor": world.org(inv.vendor).name, "amount": inv.amount, "amount_text": f"{inv.amount:.2f}",
            "filename": inv.filename, "subject": invoice_subject(world, inv), "me": world.persona.email,
            "from_label": bank.account_label(world, "checking"), "from_id": bank.account_id(world, "checking"),
            "payee_label": bank.payee_label(world, inv.vendor)}


def _pay_steps(c: dict) -> tuple[str, ...]:
    """Read the invoice in the drive, then pay it in full from checking with its number as the memo."""
    return (drive.open_app(), drive.open_file(c["filename"]), bank.open_app(),
            bank.pay_bill(c["from_label"], c["payee_label"], c["amount_text"], c["number"]))


def _reply_steps(c: dict) -> tuple[str, ...]:
    return mail.open_app(), mail.open_thread(c["subject"]), mail.reply(c["body"])


class ReplyWithInvoiceTotal(Family):
    name = "cross.reply_with_invoice_total"
    apps = ("mail", "drive")
    description = "Reply to a vendor's invoice email with the total of the invoice, read from the drive."
    difficulty = "medium"
    capabilities = ('cross_app', 'search', 'read_answer', 'form_fill')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        if inv is None:
            return None
        ctx = _invoice_ctx(world, inv)
        contact = world.person(inv.contact)
        instruction = say(rng, world, "Reply to {first}'s email about invoice {number} and confirm the total we owe - the invoice is in the Drive.",
                          "{vendor} sent invoice {number}. Look up its total in the Drive and reply to their email stating the amount.",
                          "Answer the invoice {number} email from {vendor} with the invoice total (check the copy in Drive).",
                          first=first_name(contact.name), number=inv.number, vendor=ctx["vendor"])
        ctx["body"] = f"Hi {first_name(contact.name)}, thanks - confirming the total of {money(inv.amount)} for invoice {inv.number}."
        return self._req(instruction, ctx, [
            Criterion(id="replied_in_thread", description="The user sent a new message in the invoice's thread."),
            Criterion(id="states_total", description=f"That reply states the total {money(inv.amount)}."),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(drive.open_app(), drive.open_file(c["filename"]), *_reply_steps(c))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _AMOUNT_CHECK + mail.replies_source("_replies", c["me"], c["filename"]) + f'''

def verify(final):
    new = _replies(final)
    return {{"replied_in_thread": bool(new), "states_total": any(_mentions_amount(body, {c["amount"]!r}) for body in new)}}
'''


class PayInvoiceFromDrive(Family):
    name = "cross.pay_invoice_from_drive"
    apps = ("drive", "bank")
    description = "Pay an invoice found in the drive in full from checking, with its number as the memo."
    difficulty = "hard"
    capabilities = ('cross_app', 'search', 'form_fill', 'confirm')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        if inv is None:
            return None
        ctx = _invoice_ctx(world, inv)
        instruction = say(rng, world, "Pay invoice {number} from {vendor} in full from our checking account. The invoice is in the Drive; put the invoice number in the memo.",
                          "Please settle {vendor}'s invoice {number} (see Drive for the amount) from Business Checking, memo = invoice number.",
                          "The {vendor} invoice {number} in Drive needs paying today - pay the full amount from checking and reference the invoice number.",
                          number=inv.number, vendor=ctx["vendor"])
        return self._req(instruction, ctx, [
            Criterion(id="paid_in_full", description=f"A confirmed payment of {money(inv.amount)} to {ctx['vendor']} exists."),
            Criterion(id="from_checking", description="It was paid from the checking account."),
            Criterion(id="memo_has_number", description=f"Its memo contains {inv.number}."),
            Criterion(id="paid_once", description="Exactly one new payment or transfer was confirmed."),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(*_pay_steps(req.answer_context))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (bank.new_payments_source("_bank_new") + bank.paid_source("_paid", c["vendor"], c["amount"])
                + bank.paid_source("_paid_from_checking", c["vendor"], c["amount"], from_id=c["from_id"])
                + bank.paid_source("_paid_with_memo", c["vendor"], c["amount"], memo_has=c["number"]) + '''

def verify(final):
    return {
        "paid_in_full": bool(_paid(final)),
        "from_checking": bool(_paid_from_checking(final)),
        "memo_has_number": bool(_paid_with_memo(final)),
        "paid_once": len(_bank_new(final)) == 1,
    }
''')


class PayAndConfirm(Family):
    name = "cross.pay_and_confirm_by_email"
    apps = ("mail", "drive", "bank")
    description = "Pay an invoice that arrived by email (amount from the drive) and reply to the vendor to confirm."
    difficulty = "hard"
    capabilities = ('cross_app', 'search', 'form_fill', 'confirm', 'multi_item')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        inv = pick(rng, open_invoices(world))
        if inv is None:
            return None
        ctx = _invoice_ctx(world, inv)
        contact = world.person(inv.contact)
        ctx["body"] = f"Hi {first_name(contact.name)}, invoice {inv.number} has been paid in full ({money(inv.amount)}). Thanks!"
        instruction = say(rng, world, "Pay the invoice {vendor} emailed us ({number}) from checking - the amount is on the copy in Drive - then reply to their email to let them know it's paid.",
                          "Settle invoice {number} from {vendor} out of checking (full amount, memo = invoice number) and reply to {first}'s email confirming payment.",
                          number=inv.number, vendor=ctx["vendor"], first=first_name(contact.name))
        return self._req(instruction, ctx, [
            Criterion(id="paid_in_full", description=f"A confirmed payment of {money(inv.amount)} to {ctx['vendor']} from checking, with memo {inv.number}."),
            Criterion(id="paid_once", description="Exactly one new payment or transfer was confirmed.", weight=0.5),
            Criterion(id="confirmed_by_email", description=f"The user replied in the invoice's thread that {inv.number} is paid."),
        ])

    def golden(self, req: Requirements) -> str:
        return solve_source(*_pay_steps(req.answer_context), *_reply_steps(req.answer_context))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (bank.new_payments_source("_bank_new")
                + bank.paid_source("_paid", c["vendor"], c["amount"], from_id=c["from_id"], memo_has=c["number"])
                + mail.replies_source("_replies", c["me"], c["filename"]) + f'''

def verify(final):
    said = [body for body in _replies(final) if "paid" in body.lower() and {c["number"]!r} in body]
    return {{"paid_in_full": bool(_paid(final)), "paid_once": len(_bank_new(final)) == 1, "confirmed_by_email": bool(said)}}
''')


class MeetEveryoneOnThread(Family):
    name = "cross.meet_everyone_on_thread"
    apps = ("mail", "calendar")
    description = "Schedule a meeting with everyone on an email thread, at a free slot."
    difficulty = "hard"
    capabilities = ('cross_app', 'search', 'date_time', 'multi_item')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        threads: dict[str, list] = {}
        for m in world.messages:
            threads.setdefault(m.thread, []).append(m)
        candidates = []
        for key, msgs in threads.items():
            people = {p for m in msgs for p in (m.sender, *m.to, *m.cc)} - {world.user}
            subjects = [m.subject for m in world.messages if m.subject == msgs[0].subject]
            if len(people) >= 2 and len(subjects) == len(msgs):
                candidates.append((msgs[0].subject, sorted(world.person(p).email for p in people)))
        chosen = pick(rng, sorted(candidates))
        if chosen is None:
            return None
        subject, emails = chosen
        minutes = rng.choice([30, 45])
        start = calendar.free_slot(world, rng, minutes)
        title = f"Follow-up: {subject}"
        when = start.strftime("%A %B %d at %H:%M").replace(" 0", " ")
        instruction = say(rng, world, "Set up a {minutes}-minute meeting called \"{title}\" on {when} with everyone on the \"{subject}\" email thread.",
                          "Invite everybody from the \"{subject}\" emails to \"{title}\", {when}, {minutes} minutes.",
                          minutes=minutes, title=title, when=when, subject=subject)
        ctx = {"title": title, "subject": subject, "guests": emails, "date": start.date().isoformat(),
               "start_time": start.strftime("%H:%M"), "end_time": (start + timedelta(minutes=minutes)).strftime("%H:%M"),
               "start": start.isoformat(), "end": (start + timedelta(minutes=minutes)).isoformat()}
        return self._req(instruction, ctx, [
            Criterion(id="event_created", description=f"A new event '{title}' at {start:%Y-%m-%d %H:%M} lasting {minutes} minutes."),
            Criterion(id="everyone_invited", description="Everyone on the thread but the user is invited: " + ", ".join(emails)),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(mail.open_app(), mail.open_thread(c["subject"]), calendar.open_app(),
                            calendar.create_event(c["title"], c["date"], c["start_time"], c["end_time"], ", ".join(c["guests"])))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (calendar.new_events_source("_events", c["title"], c["start"], c["end"]) + calendar.invited_source("_invited")
                + f'''

def verify(final):
    new, want = _events(final), set({c["guests"]!r})
    return {{"event_created": bool(new), "everyone_invited": any(want <= _invited(final, e) for e in new)}}
''')


class LogPaymentInDrive(Family):
    name = "cross.log_payment_in_drive"
    apps = ("bank", "drive")
    description = "Find the latest invoice payment in the bank and add it to the Invoice log table in the drive."
    difficulty = "hard"
    capabilities = ('cross_app', 'filter_sort', 'read_answer', 'form_fill')

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        fact = next((f for f in world.facts if f.key == "invoice_log.unlogged"), None)
        log = next((d for d in world.documents if d.name == "Invoice log"), None)
        if fact is None or log is None:
            return None
        inv = next(i for i in world.invoices if i.number == fact.value)
        vendor = world.org(inv.vendor).name
        instruction = say(rng, world, "Our payment to {vendor} for invoice {number} isn't in the Invoice log yet. Find it in the bank and add a row for it to the log in Drive (number, vendor, amount, due date, status paid).",
                          "Add the {vendor} payment (invoice {number}) from the bank to the \"Invoice log\" table in the Drive - fill in every column, status \"paid\".",
                          vendor=vendor, number=inv.number)
        row = len(log.rows)  # header excluded, plus the new one
        ctx = {"number": inv.number, "vendor": vendor, "amount": inv.amount, "due": inv.due.isoformat(), "row": row,
               "cells": [inv.number, vendor, f"{inv.amount:.2f}", inv.due.isoformat(), "paid"],
               "columns": list(log.rows[0])}
        ctx["has_rows"] = row > 1  # an empty log has no old rows to keep: no criterion that checks nothing
        criteria = [
            Criterion(id="row_added", description=f"The Invoice log has a new row for {inv.number}."),
            Criterion(id="amount_right", description=f"Its amount is {money(inv.amount)}."),
            Criterion(id="marked_paid", description="Its status says paid.", weight=0.5),
        ]
        if ctx["has_rows"]:
            criteria.append(Criterion(id="old_rows_kept", description="The rows that were there are unchanged."))
        return self._req(instruction, ctx, criteria)

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(bank.open_app(), bank.search_transactions(c["number"]), drive.open_app(),
                            drive.open_file("Invoice log"), drive.add_table_row(c["row"], c["columns"], c["cells"]))

    verifier_template = drive.table_source("_table", "Invoice log") + '''

def _num(text):
    try:
        return float(str(text).replace("$", "").replace(",", "").strip())
    except ValueError:
        return None


def verify(final):
    before, after = _table(final.initial_state), _table(final.state)
    cols = [c.strip().lower() for c in after["columns"]]
    idx = lambda name: cols.index(name) if name in cols else None
    rows = [r for r in after["rows"] if idx("number") is not None and r[idx("number")].strip() == {{ number|py }}]
    amount_ok = any(idx("amount") is not None and _num(r[idx("amount")]) is not None
                    and abs(_num(r[idx("amount")]) - {{ amount }}) < 0.005 for r in rows)
    paid = any(idx("status") is not None and r[idx("status")].strip().lower() == "paid" for r in rows)
    verdicts = {"row_added": bool(rows), "amount_right": amount_ok, "marked_paid": paid}
{% if has_rows %}
    verdicts["old_rows_kept"] = after["rows"][: len(before["rows"])] == before["rows"]
{% endif %}
    return verdicts
'''
