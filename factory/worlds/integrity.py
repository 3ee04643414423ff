"""Integrity checks of a world: every reference resolves, amounts add up, dates are in order.

They run on every world whatever built it (the procedural builder at any size, an LLM) and in
time linear in the world's size, so thousands of large worlds can be checked.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from contracts.world import World


class WorldError(ValueError):
    """A world that breaks its integrity rules; `problems` lists each one."""

    def __init__(self, world_id: str, problems: list[str]):
        super().__init__(f"world {world_id}: " + "; ".join(problems[:10]) + (f" (+{len(problems) - 10} more)" if len(problems) > 10 else ""))
        self.problems = problems


def _dupes(values) -> list:
    return sorted(v for v, n in Counter(values).items() if n > 1)


def problems(world: World) -> list[str]:
    """Every integrity problem of `world` (empty when it is sound)."""
    out: list[str] = []
    collections = {
        "organisation": world.organisations, "person": world.people, "invoice": world.invoices,
        "meeting": world.meetings, "document": world.documents, "message": world.messages,
        "account": world.accounts, "payee": world.payees, "transaction": world.transactions,
    }
    all_ids: set[str] = set()
    for kind, items in collections.items():
        ids = [x.id for x in items]
        out += [f"{kind} id {i} is not unique" for i in _dupes(ids)]
        all_ids.update(ids)
    orgs = {o.id for o in world.organisations}
    people = {p.id: p for p in world.people}
    accounts = {a.id for a in world.accounts}
    filenames = [i.filename for i in world.invoices] + [d.name for d in world.documents]
    files = set(filenames)
    clock = world.scenario.clock
    today = clock.date()

    def ref(ok: bool, what: str) -> None:
        if not ok:
            out.append(what)

    ref(world.user in people, f"user {world.user} is not a person")
    if world.user in people:
        ref(people[world.user].email == world.persona.email, "the user's email differs from the persona's")
    out += [f"email {e} belongs to two people" for e in _dupes(p.email for p in world.people)]
    out += [f"invoice number {n} is used twice" for n in _dupes(i.number for i in world.invoices)]
    out += [f"file name {n} names two files (invoices and documents)" for n in _dupes(filenames)]
    for p in world.people:
        ref(p.org in orgs, f"person {p.id}: organisation {p.org} does not exist")
    payments: dict[str, list] = defaultdict(list)
    for t in world.transactions:
        if t.reference:
            payments[t.reference].append(t)
    carried = {f for m in world.messages for f in m.attachments}
    payee_orgs = {p.org for p in world.payees}
    for inv in world.invoices:
        ref(inv.vendor in orgs, f"invoice {inv.number}: vendor {inv.vendor} does not exist")
        ref(inv.vendor in payee_orgs, f"invoice {inv.number}: its vendor {inv.vendor} is no payee at the bank")
        ref(inv.contact in people, f"invoice {inv.number}: contact {inv.contact} does not exist")
        ref(inv.issued <= inv.due, f"invoice {inv.number}: due {inv.due} before issued {inv.issued}")
        ref(inv.issued <= today, f"invoice {inv.number}: issued after the clock")
        ref(inv.filename in carried, f"invoice {inv.number}: no message carries {inv.filename}")
        total = sum(i.total for i in inv.items)
        ref(abs(total - inv.amount) < 0.005, f"invoice {inv.number}: items add up to {total:.2f}, not {inv.amount:.2f}")
        paid = payments.get(inv.number, [])
        ref(inv.paid == bool(paid), f"invoice {inv.number}: paid={inv.paid} but {len(paid)} payments reference it")
        for t in paid:
            ref(abs(t.amount + inv.amount) < 0.005, f"invoice {inv.number}: payment {t.id} is {t.amount:.2f}, not -{inv.amount:.2f}")
    for m in world.meetings:
        ref(m.start < m.end, f"meeting {m.id}: ends before it starts")
        for pid in (m.organizer, *m.attendees):
            ref(pid in people, f"meeting {m.id}: person {pid} does not exist")
    for d in world.documents:
        ref(d.owner in people, f"document {d.name}: owner {d.owner} does not exist")
        ref(d.modified <= clock, f"document {d.name}: modified after the clock")
        if d.kind == "table":
            widths = {len(r) for r in d.rows}
            ref(len(widths) <= 1 and bool(d.rows), f"document {d.name}: table rows differ in width or are empty")
    for msg in world.messages:
        for pid in (msg.sender, *msg.to, *msg.cc):
            ref(pid in people, f"message {msg.id}: person {pid} does not exist")
        ref(msg.sent <= clock, f"message {msg.id}: sent after the clock")
        for f in msg.attachments:
            ref(f in files, f"message {msg.id}: attachment {f} is neither an invoice nor a document")
    balances = {a.id: a.opening_balance for a in world.accounts}
    for t in world.transactions:
        ref(t.account in accounts, f"transaction {t.id}: account {t.account} does not exist")
        ref(t.posted <= clock, f"transaction {t.id}: posted after the clock")
        if t.account in balances:
            balances[t.account] += t.amount
    for a in world.accounts:
        if a.kind != "credit":
            ref(round(balances[a.id], 2) >= 0, f"account {a.name}: balance {balances[a.id]:.2f} is negative")
    for p in world.payees:
        ref(p.org in orgs, f"payee {p.id}: organisation {p.org} does not exist")
    for fact in world.facts:
        for r in fact.refs:
            ref(r in all_ids, f"fact {fact.key}: reference {r} does not exist")
    return out


def check(world: World) -> World:
    """`world` unchanged if sound, else WorldError naming every problem."""
    found = problems(world)
    if found:
        raise WorldError(world.id, found)
    return world
