"""A world being built: the mutable working state the base builder, the scenario beats and the
distractors all add to, with one helper per kind of record so ids, emails and invoice numbers
stay unique and every invoice arrives by email with its payee and (when paid) its payment."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from .locales import ascii_slug, pools
from contracts.world import (Account, Document, Fact, Invoice, LineItem, Meeting, Message, Organisation, Payee, Person, Persona,
                    Scenario, Transaction, World)
from .size import WorldSize

__all__ = ["Draft"]


class Draft:
    """Records of one world under construction; `world()` freezes them into a `World`."""

    def __init__(self, persona: Persona, scenario: Scenario, seed: int, size: WorldSize, rng: random.Random):
        self.persona, self.scenario, self.seed, self.size, self.rng = persona, scenario, seed, size, rng
        self.now = scenario.clock
        self.pools = pools(persona.locale)
        self.names: set[str] = {persona.name}
        self.emails: set[str] = set()
        self.org_names: set[str] = set()
        self.numbers: set[str] = set()
        self.orgs: list[Organisation] = []
        self.people: list[Person] = []
        self.invoices: list[Invoice] = []
        self.meetings: list[Meeting] = []
        self.documents: list[Document] = []
        self.messages: list[Message] = []
        self.accounts: list[Account] = []
        self.payees: list[Payee] = []
        self.transactions: list[Transaction] = []
        self.facts: list[Fact] = []
        self.ctx: dict[str, str] = {}
        self.user: Person | None = None
        self.colleagues: list[Person] = []
        self.household: list[Person] = []
        self.vendors: list[tuple[Organisation, Person]] = []
        self.clients: list[tuple[Organisation, Person]] = []
        self.cast: dict[str, tuple[Organisation, list[Person]]] = {}
        self.scenario_docs: list[Document] = []

    # ---- text ----------------------------------------------------------------------
    def fmt(self, template: str) -> str:
        """`template` with the world's placeholders filled in."""
        return template.format_map(self.ctx)

    def day(self, value: date | datetime) -> str:
        """A date as the persona's locale writes it."""
        return value.strftime(self.persona.date_format)

    def surname(self) -> str:
        return self.rng.choice(self.pools.last)

    def full_name(self, last: str | None = None) -> str:
        """A full name nobody in the world has yet."""
        for _ in range(50):
            name = f"{self.rng.choice(self.pools.first)} {last or self.surname()}"
            if name not in self.names:
                self.names.add(name)
                return name
        name = f"{self.rng.choice(self.pools.first)} {self.surname()}-{len(self.names)}"
        self.names.add(name)
        return name

    # ---- people and organisations --------------------------------------------------
    def org(self, name: str, kind: str, category: str = "", domain: str | None = None) -> Organisation:
        base, n = name, 2
        while name in self.org_names:
            name, n = f"{base} {n}", n + 1
        self.org_names.add(name)
        org = Organisation(id=f"o{len(self.orgs) + 1}", name=name, kind=kind, category=category,
                           domain=domain or f"{ascii_slug(name)[:30] or 'org'}.example")
        self.orgs.append(org)
        return org

    def person(self, org: Organisation, role: str, name: str | None = None, email: str | None = None) -> Person:
        name = name or self.full_name()
        self.names.add(name)
        if email is None:
            first, *rest = name.split()
            local = ascii_slug(first, ".") or "contact"
            if org.kind in ("self", "household") or org.kind == "service" and rest:
                local = ascii_slug(name, ".") or local
            email = f"{local}@{org.domain}"
            n = 2
            while email in self.emails:
                email, n = f"{local}{n}@{org.domain}", n + 1
        self.emails.add(email)
        person = Person(id=f"p{len(self.people) + 1}", name=name, email=email, org=org.id, role=role)
        self.people.append(person)
        return person

    def payee(self, org: Organisation) -> Payee:
        found = next((p for p in self.payees if p.org == org.id), None)
        if found is None:
            found = Payee(id=f"y{len(self.payees) + 1}", org=org.id, category=org.category or "services",
                          account_ref=f"{self.rng.randint(10, 99)}-{self.rng.randint(100000, 999999)}")
            self.payees.append(found)
        return found

    # ---- money ---------------------------------------------------------------------
    def tx(self, account: str, posted: datetime, description: str, amount: float, category: str, counterparty: str,
           reference: str = "") -> Transaction:
        t = Transaction(id=f"t{len(self.transactions) + 1}", account=account, posted=min(posted, self.now), description=description,
                        amount=round(amount, 2), category=category, counterparty=counterparty, reference=reference)
        self.transactions.append(t)
        return t

    def invoice_number(self, org: Organisation, near: str | None = None) -> str:
        """A number no invoice has; `near` gives one that differs from it by two swapped digits."""
        if near is not None:
            prefix, _, digits = near.rpartition("-")
            for i in range(len(digits) - 1):
                swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
                if swapped != digits and f"{prefix}-{swapped}" not in self.numbers:
                    self.numbers.add(f"{prefix}-{swapped}")
                    return f"{prefix}-{swapped}"
        initials = "".join(w[0] for w in ascii_slug(org.name, " ").split()).upper()[:4] or "INV"
        while True:
            number = f"{initials}-{self.rng.randint(1000, 99999)}"
            if number not in self.numbers:
                self.numbers.add(number)
                return number

    def invoice(self, org: Organisation, contact: Person, items: list[tuple[str, float]], description: str, issued: date,
                paid: bool, number: str | None = None) -> Invoice:
        """An invoice, the email that carried it, its payee, and its payment when paid."""
        rng = self.rng
        lines = tuple(LineItem(description=d, quantity=rng.randint(1, 6), unit_price=p) for d, p in items)
        inv = Invoice(id=f"i{len(self.invoices) + 1}", number=number or self.invoice_number(org), vendor=org.id, contact=contact.id,
                      issued=issued, due=issued + timedelta(days=rng.choice([14, 21, 30])), description=description, items=lines,
                      amount=round(sum(i.total for i in lines), 2), paid=paid)
        self.invoices.append(inv)
        self.payee(org)
        if paid:
            when = min(datetime.combine(inv.due - timedelta(days=2), time(10, 0)), self.now - timedelta(hours=1))
            when = max(when, datetime.combine(inv.issued, time(12, 0)))
            self.tx("a1", when, f"Bill payment {org.name}", -inv.amount, org.category or "services", org.id, inv.number)
        else:
            self.facts.append(Fact(key=f"invoice.{inv.number}.amount", value=f"{inv.amount:.2f}", refs=(inv.id,)))
            self.facts.append(Fact(key=f"invoice.{inv.number}.due", value=inv.due.isoformat(), refs=(inv.id,)))
        sent = min(datetime.combine(inv.issued, time(rng.randint(8, 16), rng.choice([5, 20, 40]))), self.now - timedelta(minutes=30))
        user = self.user
        self.send(f"inv-{inv.number}", contact, [user], f"Invoice {inv.number} from {org.name}",
                  f"Hi {user.name.split()[0]},\n\nPlease find attached invoice {inv.number} for {inv.description}, "
                  f"due on {self.day(inv.due)}.\n\nThanks,\n{contact.name}", sent, [inv.filename], read=paid)
        return inv

    # ---- calendar, drive, mail -----------------------------------------------------
    def meeting(self, title: str, start: datetime, minutes: int, organizer: Person, attendees: list[Person], location: str,
                description: str = "") -> Meeting:
        seen = {organizer.id}
        guests = tuple(p.id for p in attendees if not (p.id in seen or seen.add(p.id)))
        m = Meeting(id=f"m{len(self.meetings) + 1}", title=title, start=start, end=start + timedelta(minutes=minutes), location=location,
                    organizer=organizer.id, attendees=guests, description=description)
        self.meetings.append(m)
        return m

    def doc(self, name: str, kind: str, folder: str, owner: Person, text: str = "", rows=(), modified: datetime | None = None) -> Document | None:
        """A document, unless one by that name exists (names stay unique); None then."""
        if any(d.name == name for d in self.documents):
            return None
        modified = modified or self.now - timedelta(days=self.rng.randint(1, 20), hours=self.rng.randint(0, 8))
        d = Document(id=f"d{len(self.documents) + 1}", name=name, kind=kind, folder=folder, owner=owner.id, text=text,
                     rows=tuple(tuple(r) for r in rows), modified=min(modified, self.now - timedelta(minutes=5)))
        self.documents.append(d)
        return d

    def send(self, thread: str, sender: Person, to: list[Person], subject: str, body: str, sent: datetime, attachments=(), cc=(),
             read: bool = True) -> Message:
        msg = Message(id=f"e{len(self.messages) + 1}", thread=thread, sender=sender.id, to=tuple(p.id for p in to),
                      cc=tuple(p.id for p in cc if p.id != sender.id), subject=subject, body=body, sent=min(sent, self.now - timedelta(minutes=1)),
                      attachments=tuple(attachments), folder="sent" if sender.id == self.user.id else "inbox", read=read)
        self.messages.append(msg)
        return msg

    # ---- the result ----------------------------------------------------------------
    def world(self, world_id: str) -> World:
        """The frozen world; transactions renumbered in posting order, checking funded to stay non-negative."""
        txs = sorted(self.transactions, key=lambda t: (t.posted, t.id))
        txs = [t.model_copy(update={"id": f"t{i + 1}"}) for i, t in enumerate(txs)]
        accounts = []
        for acc in self.accounts:
            if acc.kind != "credit":
                running, lowest = acc.opening_balance, acc.opening_balance
                for t in txs:
                    if t.account == acc.id:
                        running += t.amount
                        lowest = min(lowest, running)
                if lowest < 500:
                    acc = acc.model_copy(update={"opening_balance": float(acc.opening_balance + 1000 * (int((500 - lowest) // 1000) + 1))})
            accounts.append(acc)
        return World(
            id=world_id, seed=self.seed, persona=self.persona, scenario=self.scenario, user=self.user.id,
            organisations=tuple(self.orgs), people=tuple(self.people), invoices=tuple(self.invoices),
            meetings=tuple(sorted(self.meetings, key=lambda m: (m.start, m.id))), documents=tuple(self.documents),
            messages=tuple(sorted(self.messages, key=lambda m: (m.sent, m.id))), accounts=tuple(accounts),
            payees=tuple(self.payees), transactions=tuple(txs), facts=tuple(self.facts),
        )
