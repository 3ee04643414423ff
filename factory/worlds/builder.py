"""The procedural world builder: persona + scenario + seed -> a consistent `World` (offline).

Same (persona, scenario, seed) -> the same world, byte for byte.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime, time, timedelta

from .catalog import CLIENTS, FIRST, LAST, PERSONAS, ROLES, ROOMS, SCENARIOS, VENDOR_CATEGORIES, VENDORS
from .integrity import check
from .model import (Account, Document, Fact, Invoice, LineItem, Meeting, Message, Organisation, Payee, Person,
                    Transaction, World)


class UnknownName(LookupError):
    """No persona or scenario by that name."""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def build_world(persona: str, scenario: str, seed: int) -> World:
    """A world for a shipped persona and scenario, varied by `seed`; integrity-checked."""
    if persona not in PERSONAS:
        raise UnknownName(f"unknown persona {persona!r}; known: {', '.join(PERSONAS)}")
    if scenario not in SCENARIOS:
        raise UnknownName(f"unknown scenario {scenario!r}; known: {', '.join(SCENARIOS)}")
    return check(_Builder(persona, scenario, seed).build())


class _Builder:
    def __init__(self, persona: str, scenario: str, seed: int):
        self.p = PERSONAS[persona]
        self.s = SCENARIOS[scenario]
        self.seed = seed
        self.rng = random.Random(f"{persona}/{scenario}/{seed}")
        self.now = self.s.clock
        self.names: set[str] = {self.p.name}
        self.orgs: list[Organisation] = []
        self.people: list[Person] = []
        self.facts: list[Fact] = []
        self.messages: list[Message] = []

    # ---- people and organisations ------------------------------------------------------
    def _name(self) -> str:
        while True:
            name = f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"
            if name not in self.names:
                self.names.add(name)
                return name

    def _person(self, org: Organisation, role: str, name: str | None = None, email: str | None = None) -> Person:
        name = name or self._name()
        local = name.split()[0].lower() if org.kind != "self" else name.lower().replace(" ", ".")
        person = Person(id=f"p{len(self.people) + 1}", name=name, email=email or f"{local}@{org.domain}", org=org.id, role=role)
        self.people.append(person)
        return person

    def _org(self, name: str, kind: str, category: str = "", domain: str | None = None) -> Organisation:
        org = Organisation(id=f"o{len(self.orgs) + 1}", name=name, kind=kind, category=category, domain=domain or f"{_slug(name)}.example")
        self.orgs.append(org)
        return org

    # ---- the world ---------------------------------------------------------------------
    def build(self) -> World:
        rng = self.rng
        home = self._org(self.p.company, "self", domain=self.p.domain)
        user = self._person(home, self.p.role, self.p.name, self.p.email)
        roles = list(ROLES[self.p.id])
        rng.shuffle(roles)
        colleagues = [self._person(home, r) for r in roles[: rng.randint(3, 5)]]
        categories = rng.sample(VENDOR_CATEGORIES[self.p.id], 4)
        vendors = []
        for cat in categories:
            names, _items = VENDORS[cat]
            org = self._org(rng.choice(names), "vendor", cat)
            vendors.append((org, self._person(org, "accounts")))
        clients = []
        for name in rng.sample(CLIENTS, 2):
            org = self._org(name, "client", "client")
            clients.append((org, self._person(org, "project lead")))

        invoices, transactions, accounts, payees = self._money(vendors, clients, user)
        meetings = self._meetings(user, colleagues, clients, vendors)
        documents = self._documents(user, colleagues, clients, invoices, meetings, transactions)
        self._mail(user, colleagues, vendors, invoices, meetings, documents)
        return World(
            id=f"{self.p.id}-{self.s.id}-{self.seed}", seed=self.seed, persona=self.p, scenario=self.s, user=user.id,
            organisations=tuple(self.orgs), people=tuple(self.people), invoices=tuple(invoices),
            meetings=tuple(meetings), documents=tuple(documents), messages=tuple(sorted(self.messages, key=lambda m: m.sent)),
            accounts=tuple(accounts), payees=tuple(payees), transactions=tuple(transactions), facts=tuple(self.facts),
        )

    def _money(self, vendors, clients, user):
        rng, today = self.rng, self.now.date()
        accounts = [
            Account(id="a1", name="Business Checking", kind="checking", number=f"{rng.randint(1000, 9999)}", opening_balance=float(rng.randint(18, 45) * 1000)),
            Account(id="a2", name="Business Savings", kind="savings", number=f"{rng.randint(1000, 9999)}", opening_balance=float(rng.randint(30, 90) * 1000)),
            Account(id="a3", name="Company Card", kind="credit", number=f"{rng.randint(1000, 9999)}", opening_balance=0.0),
        ]
        payees = [Payee(id=f"y{i + 1}", org=org.id, account_ref=f"{rng.randint(10, 99)}-{rng.randint(100000, 999999)}", category=org.category)
                  for i, (org, _c) in enumerate(vendors)]
        invoices: list[Invoice] = []
        transactions: list[Transaction] = []

        def tx(account: str, posted: datetime, description: str, amount: float, category: str, counterparty: str, reference: str = "") -> None:
            transactions.append(Transaction(id=f"t{len(transactions) + 1}", account=account, posted=posted, description=description,
                                            amount=round(amount, 2), category=category, counterparty=counterparty, reference=reference))

        for org, contact in vendors:
            _names, catalog = VENDORS[org.category]
            for old in (True, False) if rng.random() < 0.6 else (False,):
                picks = rng.sample(catalog, rng.randint(1, min(3, len(catalog))))
                items = tuple(LineItem(description=d, quantity=rng.randint(1, 6), unit_price=p) for d, p in picks)
                issued = today - timedelta(days=rng.randint(35, 50) if old else rng.randint(1, 14))
                number = f"{''.join(w[0] for w in org.name.split()).upper()}-{rng.randint(1000, 9999)}"
                inv = Invoice(id=f"i{len(invoices) + 1}", number=number, vendor=org.id, contact=contact.id, issued=issued,
                              due=issued + timedelta(days=rng.choice([14, 21, 30])), description=f"{org.category} services",
                              items=items, amount=round(sum(i.total for i in items), 2), paid=old)
                invoices.append(inv)
                if old:
                    tx("a1", datetime.combine(inv.due - timedelta(days=2), time(10, 0)), f"Bill payment {org.name}", -inv.amount, org.category, org.id, inv.number)
                else:
                    self.facts.append(Fact(key=f"invoice.{inv.number}.amount", value=f"{inv.amount:.2f}", refs=(inv.id,)))
                    self.facts.append(Fact(key=f"invoice.{inv.number}.due", value=inv.due.isoformat(), refs=(inv.id,)))
        start = today - timedelta(days=60)
        for week in range(8):
            day = datetime.combine(start + timedelta(days=7 * week + 1), time(9, 0))
            if week % 4 == 0:
                tx("a1", day, "Payroll", -rng.randint(6, 12) * 1000.0, "payroll", "Payroll")
                tx("a1", day + timedelta(hours=2), "Office rent", -float(rng.choice([1800, 2200, 2600])), "rent", "Landlord")
            if week % 2 == 1:
                org, _c = rng.choice(clients)
                tx("a1", day + timedelta(days=1), f"Payment from {org.name}", rng.randint(20, 80) * 100.0, "income", org.id, f"PO-{rng.randint(100, 999)}")
            for _ in range(rng.randint(1, 3)):
                what = rng.choice(["Coffee shop", "Taxi", "Stationery", "Lunch meeting", "Parking", "Train ticket"])
                tx("a3", day + timedelta(days=rng.randint(0, 5), hours=rng.randint(0, 8)), what, -round(rng.uniform(4, 90), 2), "card", what)
        transactions.sort(key=lambda t: t.posted)
        transactions = [t.model_copy(update={"id": f"t{i + 1}"}) for i, t in enumerate(transactions)]
        return invoices, transactions, accounts, payees

    def _meetings(self, user, colleagues, clients, vendors):
        rng, meetings = self.rng, []

        def meeting(title: str, day: date, hour: int, minutes: int, organizer, attendees, location: str, description: str = "") -> Meeting:
            start = datetime.combine(day, time(hour, 0))
            m = Meeting(id=f"m{len(meetings) + 1}", title=title, start=start, end=start + timedelta(minutes=minutes), location=location,
                        organizer=organizer.id, attendees=tuple(a.id for a in attendees), description=description)
            meetings.append(m)
            return m

        monday = self.now.date() - timedelta(days=self.now.weekday())
        for week in (-1, 0, 1):
            meeting("Weekly team stand-up", monday + timedelta(days=7 * week), 10, 30, user, colleagues, "Main meeting room")
        client, contact = clients[0]
        lead = rng.choice(colleagues)
        kickoff = meeting(f"{client.name} kickoff", self.now.date() + timedelta(days=rng.randint(2, 4)), rng.choice([11, 14, 15]), 60,
                          lead, [user, contact], rng.choice(ROOMS), f"First working session with {client.name}.")
        self.facts.append(Fact(key="meeting.kickoff.start", value=kickoff.start.isoformat(timespec="minutes"), refs=(kickoff.id,)))
        for c in rng.sample(colleagues, 2):
            meeting(f"1:1 {user.name.split()[0]} / {c.name.split()[0]}", self.now.date() + timedelta(days=rng.randint(1, 8)), rng.choice([9, 13, 16]), 30, user, [c], "Phone booth 1")
        org, vcontact = rng.choice(vendors)
        meeting(f"Review with {org.name}", self.now.date() - timedelta(days=rng.randint(3, 9)), 15, 45, vcontact, [user], "Video call")
        meeting(self.s.title, self.now.date() + timedelta(days=rng.randint(5, 12)), 13, 90, user, rng.sample(colleagues, 3), rng.choice(ROOMS), self.s.description)
        return sorted(meetings, key=lambda m: m.start)

    def _documents(self, user, colleagues, clients, invoices, meetings, transactions):
        rng, docs = self.rng, []
        month = self.now.strftime("%B %Y")
        categories = sorted({t.category for t in transactions if t.amount < 0})
        budget_rows = [("Category", "Budget", "Spent")] + [
            (c.title(), f"{rng.randint(5, 40) * 100:.2f}", f"{-sum(t.amount for t in transactions if t.category == c):.2f}") for c in categories]

        def doc(name: str, kind: str, folder: str, owner, text: str = "", rows=()) -> Document:
            d = Document(id=f"d{len(docs) + 1}", name=name, kind=kind, folder=folder, owner=owner.id, text=text, rows=tuple(tuple(r) for r in rows),
                         modified=self.now - timedelta(days=rng.randint(1, 20), hours=rng.randint(0, 8)))
            docs.append(d)
            return d

        doc(f"Budget {month}", "table", "Finance", user, rows=budget_rows)
        paid = sorted((i for i in invoices if i.paid), key=lambda i: (i.due, i.number))
        log = doc("Invoice log", "table", "Finance", user, rows=[("Number", "Vendor", "Amount", "Due", "Status")] + [
            (i.number, self._org_name(i.vendor), f"{i.amount:.2f}", i.due.isoformat(), "paid") for i in paid[:-1]])
        if paid:  # the bookkeeping lags: the latest payment is not logged yet
            self.facts.append(Fact(key="invoice_log.unlogged", value=paid[-1].number, refs=(paid[-1].id, log.id)))
        client, _ = clients[0]
        doc(f"{client.name} brief", "doc", f"Clients/{client.name}", rng.choice(colleagues),
            text=f"{client.name} wants a refreshed brand and a launch plan. Budget agreed in principle. Kickoff: see calendar.")
        for m in meetings[:2]:
            doc(f"Notes - {m.title} {m.start.date().isoformat()}", "doc", "Meetings", user, text=f"Attendees: {len(m.attendees) + 1}. Actions: follow up by Friday.")
        doc("Team handbook", "doc", "Team", user, text=f"Welcome to {self.p.company}. Expenses are filed in the Finance folder.")
        return docs

    def _org_name(self, oid: str) -> str:
        return next(o.name for o in self.orgs if o.id == oid)

    def _mail(self, user, colleagues, vendors, invoices, meetings, documents):
        rng = self.rng

        def send(thread: str, sender, to, subject: str, body: str, sent: datetime, attachments=(), cc=(), read=True, folder=None) -> None:
            self.messages.append(Message(id=f"e{len(self.messages) + 1}", thread=thread, sender=sender.id, to=tuple(p.id for p in to),
                                         cc=tuple(p.id for p in cc), subject=subject, body=body, sent=sent, attachments=tuple(attachments),
                                         folder=folder or ("sent" if sender.id == user.id else "inbox"), read=read))

        people = {p.id: p for p in self.people}
        for inv in invoices:
            contact = people[inv.contact]
            sent = datetime.combine(inv.issued, time(rng.randint(8, 16), rng.choice([5, 20, 40])))
            send(f"inv-{inv.number}", contact, [user], f"Invoice {inv.number} from {self._org_name(inv.vendor)}",
                 f"Hi {user.name.split()[0]},\n\nPlease find attached invoice {inv.number} for {inv.description}, "
                 f"due on {inv.due:%B %d, %Y}.\n\nThanks,\n{contact.name}", sent, [inv.filename], read=inv.paid)
        for m in meetings:
            organizer = people[m.organizer]
            sent = min(self.now - timedelta(hours=1), m.start - timedelta(days=rng.randint(2, 6)))
            if len(m.attendees) < 2 or sent > self.now:
                continue
            others = [people[a] for a in m.attendees]
            send(f"meet-{m.id}", organizer, others, f"{m.title}", f"Hi all, let's meet on {m.start:%A %B %d at %H:%M} ({m.location}).\n\n{organizer.name}",
                 sent, read=True)
            replier = rng.choice([p for p in others if p.id != user.id] or others)
            if sent + timedelta(hours=3) <= self.now:
                send(f"meet-{m.id}", replier, [organizer], f"Re: {m.title}", "Works for me, see you there.", sent + timedelta(hours=3), read=False)
        for c in colleagues[:3]:
            d = rng.choice(documents)
            send(f"note-{c.id}", c, [user], f"Quick question about {d.name}", f"Hi {user.name.split()[0]}, could you take a look at {d.name}? Thanks!",
                 self.now - timedelta(days=rng.randint(1, 6), hours=rng.randint(1, 6)), read=rng.random() < 0.5)
