"""Cross-app families: facts found in one app, acted on in another."""

from __future__ import annotations

import random
from datetime import timedelta

from contracts.family import Family, Requirements, say
from contracts.task import Criterion
from contracts.world import World

from ._common import app_title, first_name, invoice_thread_subject, money, open_invoices, pick
from .bank import account_index, account_label
from .calendar import free_slot

_AMOUNT_CHECK = '''
import re


def _mentions_amount(text, amount):
    for raw in re.findall(r"\\$?\\s?(\\d[\\d,]*(?:\\.\\d{1,2})?)", text or ""):
        try:
            if abs(float(raw.replace(",", "")) - amount) < 0.005:
                return True
        except ValueError:
            pass
    return False
'''


def _payee_label(world: World, vendor_id: str) -> str:
    payee = next(p for p in world.payees if p.org == vendor_id)
    return f"{world.org(vendor_id).name} ({payee.account_ref})"


def _invoice_ctx(world: World, inv) -> dict:
    return {"number": inv.number, "vendor": world.org(inv.vendor).name, "amount": inv.amount, "amount_text": f"{inv.amount:.2f}",
            "filename": inv.filename, "subject": invoice_thread_subject(world, inv), "me": world.persona.email,
            "from_label": account_label(world, "checking"), "from_id": account_index(world, "checking"),
            "payee_label": _payee_label(world, inv.vendor), "drive": app_title("drive"), "bank": app_title("bank"),
            "mail": app_title("mail"), "calendar": app_title("calendar")}


_PAY_GOLDEN = '''
    env.open_app({{ drive|py }})
    env.fill("Search in Drive", {{ filename|py }})
    env.press("Enter")
    env.click({{ filename|py }}, role="link")
    env.open_app({{ bank|py }})
    env.click("Pay a bill", role="link")
    env.select("From account", {{ from_label|py }})
    env.select("Payee", {{ payee_label|py }})
    env.fill("Amount", {{ amount_text|py }})
    env.fill("Memo / reference", {{ number|py }})
    env.click("Review payment", role="button")
    env.click("Confirm payment", role="button")
'''

_PAY_VERIFY = '''
def _payments(final):
    bank, before = final.state["bank"], final.initial_state["bank"]
    old = {t["id"] for t in before["transfer"]}
    return [t for t in bank["transfer"] if t["id"] not in old and t["status"] == "confirmed"]


def _paid(final):
    return [t for t in _payments(final) if t["kind"] == "payment" and t["payee_name"] == {{ vendor|py }}
            and abs(t["amount"] - {{ amount }}) < 0.005]
'''


_REPLY_GOLDEN = '''
    env.open_app({{ mail|py }})
    env.fill("Search mail", {{ subject|py }})
    env.press("Enter")
    env.click({{ subject|py }}, role="link")
    env.click("Reply", role="link")
    env.fill("Body", {{ body|py }})
    env.click("Send", role="button")
'''

_REPLIES_VERIFY = '''
def _replies(final):
    """Messages the user sent, after the start, in the thread that carried the invoice."""
    mail, before = final.state["mail"], final.initial_state["mail"]
    msgs = {m["id"]: m for m in before["message"]}
    threads = {msgs[a["message_id"]]["thread_id"] for a in before["attachment"]
               if a["filename"] == {{ filename|py }} and a["message_id"] in msgs}
    return [m for m in mail["message"] if m["id"] not in msgs and not m["is_draft"]
            and m["sender_email"].lower() == {{ me|py }} and m["thread_id"] in threads]
'''


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

    golden_template = '''
def solve(env):
    env.open_app({{ drive|py }})
    env.fill("Search in Drive", {{ filename|py }})
    env.press("Enter")
    env.click({{ filename|py }}, role="link")''' + _REPLY_GOLDEN

    verifier_template = _AMOUNT_CHECK + _REPLIES_VERIFY + '''

def verify(final):
    new = _replies(final)
    return {"replied_in_thread": bool(new), "states_total": any(_mentions_amount(m["body"], {{ amount }}) for m in new)}
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

    golden_template = "def solve(env):" + _PAY_GOLDEN

    verifier_template = _PAY_VERIFY + '''

def verify(final):
    paid = _paid(final)
    return {
        "paid_in_full": bool(paid),
        "from_checking": any(t["from_account_id"] == {{ from_id }} for t in paid),
        "memo_has_number": any({{ number|py }} in t["memo"] for t in paid),
        "paid_once": len(_payments(final)) == 1,
    }
'''


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

    golden_template = "def solve(env):" + _PAY_GOLDEN.rstrip("\n") + _REPLY_GOLDEN

    verifier_template = _PAY_VERIFY + _REPLIES_VERIFY + '''

def verify(final):
    paid = [t for t in _paid(final) if {{ number|py }} in t["memo"] and t["from_account_id"] == {{ from_id }}]
    replies = _replies(final)
    said = [m for m in replies if "paid" in m["body"].lower() and {{ number|py }} in m["body"]]
    return {"paid_in_full": bool(paid), "paid_once": len(_payments(final)) == 1, "confirmed_by_email": bool(said)}
'''


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
        start = free_slot(world, rng, minutes)
        title = f"Follow-up: {subject}"
        when = start.strftime("%A %B %d at %H:%M").replace(" 0", " ")
        instruction = say(rng, world, "Set up a {minutes}-minute meeting called \"{title}\" on {when} with everyone on the \"{subject}\" email thread.",
                          "Invite everybody from the \"{subject}\" emails to \"{title}\", {when}, {minutes} minutes.",
                          minutes=minutes, title=title, when=when, subject=subject)
        ctx = {"title": title, "subject": subject, "guests": emails, "date": start.date().isoformat(),
               "start_time": start.strftime("%H:%M"), "end_time": (start + timedelta(minutes=minutes)).strftime("%H:%M"),
               "start": start.isoformat(), "end": (start + timedelta(minutes=minutes)).isoformat(),
               "mail": app_title("mail"), "calendar": app_title("calendar")}
        return self._req(instruction, ctx, [
            Criterion(id="event_created", description=f"A new event '{title}' at {start:%Y-%m-%d %H:%M} lasting {minutes} minutes."),
            Criterion(id="everyone_invited", description="Everyone on the thread but the user is invited: " + ", ".join(emails)),
        ])

    golden_template = '''
def solve(env):
    env.open_app({{ mail|py }})
    env.fill("Search mail", {{ subject|py }})
    env.press("Enter")
    env.click({{ subject|py }}, role="link")
    env.open_app({{ calendar|py }})
    env.click("Create event", role="link")
    env.fill("Title", {{ title|py }})
    env.fill("Start date", {{ date|py }})
    env.fill("Start time", {{ start_time|py }})
    env.fill("End date", {{ date|py }})
    env.fill("End time", {{ end_time|py }})
    env.fill("Guests", {{ guests|join(", ")|py }})
    env.click("Save event", role="button")
'''

    verifier_template = '''
from datetime import datetime


def _t(value):
    return datetime.fromisoformat(str(value).replace(" ", "T"))


def verify(final):
    cal, before = final.state["calendar"], final.initial_state["calendar"]
    old = {e["id"] for e in before["event"]}
    new = [e for e in cal["event"] if e["id"] not in old and e["title"].strip().lower() == {{ title|py }}.lower()
           and _t(e["start"]) == _t({{ start|py }}) and _t(e["end"]) == _t({{ end|py }})]
    want = set({{ guests|py }})
    invited = lambda eid: {i["email"].strip().lower() for i in cal["invitee"] if i["event_id"] == eid}
    return {"event_created": bool(new), "everyone_invited": any(want <= invited(e["id"]) for e in new)}
'''


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
               "columns": list(log.rows[0]), "drive": app_title("drive"), "bank": app_title("bank")}
        ctx["has_rows"] = row > 1  # an empty log has no old rows to keep: no criterion that checks nothing
        criteria = [
            Criterion(id="row_added", description=f"The Invoice log has a new row for {inv.number}."),
            Criterion(id="amount_right", description=f"Its amount is {money(inv.amount)}."),
            Criterion(id="marked_paid", description="Its status says paid.", weight=0.5),
        ]
        if ctx["has_rows"]:
            criteria.append(Criterion(id="old_rows_kept", description="The rows that were there are unchanged."))
        return self._req(instruction, ctx, criteria)

    golden_template = '''
def solve(env):
    env.open_app({{ bank|py }})
    env.fill("Search transactions", {{ number|py }})
    env.press("Enter")
    env.open_app({{ drive|py }})
    env.fill("Search in Drive", "Invoice log")
    env.press("Enter")
    env.click("Invoice log", role="link")
    env.click("Edit", role="link")
    env.click("Add row", role="button")
{% for col in columns %}
    env.fill({{ ("Row %d, %s" % (row, col))|py }}, {{ cells[loop.index0]|py }})
{% endfor %}
    env.click("Save table", role="button")
'''

    verifier_template = '''
import json


def _table(state):
    f = next((f for f in state["drive"]["file"] if f["name"] == "Invoice log" and not f["trashed"]), None)
    return json.loads(f["content"]) if f else {"columns": [], "rows": []}


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
