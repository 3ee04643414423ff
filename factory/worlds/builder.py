"""The procedural world builder (offline): persona + scenario spec + seed + size -> a consistent `World`.

Every world gets the persona's routine life (colleagues, family, vendors with invoices, clients,
payroll and rent, stand-ups, a budget and an invoice log); the scenario's beats then add its
events, documents, mail and money, and the distractors make tasks need careful reading.
Same arguments -> the same world, byte for byte; every world is integrity-checked.
"""

from __future__ import annotations

import random
from datetime import datetime, time, timedelta

from .beats import context, expand
from .catalog import CLIENT_SUFFIXES, CLIENTS, PERSONAS, ROOMS, SCENARIOS, SECTORS, VENDORS
from .distractors import add_distractors
from .draft import Draft
from .integrity import check
from contracts.world import Account, Fact, Persona, Scenario, World
from .personas import generated_persona
from .scenarios import ScenarioSpec
from .size import WorldSize

__all__ = ["UnknownName", "build_world", "generated_world", "world_from"]


class UnknownName(LookupError):
    """No persona or scenario by that name."""


def build_world(persona: str, scenario: str, seed: int, size: WorldSize | None = None) -> World:
    """A world for a fixture persona and a catalogue scenario, varied by `seed`; integrity-checked."""
    if persona not in PERSONAS:
        raise UnknownName(f"unknown persona {persona!r}; known: {', '.join(PERSONAS)}")
    if scenario not in SCENARIOS:
        raise UnknownName(f"unknown scenario {scenario!r}; known: {', '.join(SCENARIOS)}")
    return world_from(PERSONAS[persona], SCENARIOS[scenario], seed, size)


def generated_world(seed: int, index: int, size: WorldSize | None = None, scenarios: tuple[str, ...] | None = None) -> World:
    """World number `index` of the unbounded generated population of `seed`: a generated persona of its own
    in a catalogue scenario (each in turn, of all or of those in `scenarios`)."""
    names = scenarios or tuple(SCENARIOS)
    for s in names:
        if s not in SCENARIOS:
            raise UnknownName(f"unknown scenario {s!r}; known: {', '.join(SCENARIOS)}")
    spec = SCENARIOS[names[index % len(names)]]
    return world_from(generated_persona(seed, index), spec, seed, size)


def world_from(persona: Persona, spec: ScenarioSpec, seed: int, size: WorldSize | None = None) -> World:
    """The world of any persona in any catalogue scenario; integrity-checked (WorldError when unsound)."""
    size = size or WorldSize()
    rng = random.Random(f"{persona.id}/{spec.id}/{seed}/{size.model_dump_json()}")
    month = rng.choice(spec.months)
    day = rng.randint(*spec.days)
    clock = datetime(2026, month, min(day, 28), rng.choice([8, 9]), rng.choice([0, 15, 30]))
    while clock.weekday() >= 5:
        clock += timedelta(days=1)
    scenario = Scenario(id=spec.id, title=spec.title, description=spec.description, clock=clock, kind=spec.kind)
    draft = Draft(persona, scenario, seed, size, rng)
    _routine(draft)
    context(draft, spec)
    draft.scenario = scenario.model_copy(update={"title": draft.fmt(spec.title), "description": draft.fmt(spec.description)})
    expand(draft, spec)
    _documents(draft)
    _mail(draft)
    add_distractors(draft)
    return check(draft.world(f"{persona.id}-{spec.id}-{seed}"))


def _routine(d: Draft) -> None:
    """The persona's cast and ordinary weeks: colleagues, family, vendors, clients, accounts, invoices, meetings."""
    rng, p, size = d.rng, d.persona, d.size
    sector = SECTORS.get(p.sector, SECTORS["studio"])
    home = d.org(p.company, "self", domain=p.domain)
    d.user = d.person(home, p.role, p.name, p.email)
    n_colleagues = max(3, round(size.people * 0.35))
    n_vendors = max(3, round(size.people * 0.25))
    n_clients = max(2, round(size.people * 0.15))
    roles = list(sector.roles)
    d.colleagues = [d.person(home, roles[i % len(roles)] if i < len(roles) else rng.choice(roles)) for i in range(n_colleagues)]
    rng.shuffle(d.colleagues)
    family_last = p.name.split()[-1]
    household = d.org(f"{family_last} family", "household", domain="mailbox.example")
    d.household = [d.person(household, rel, d.full_name(family_last)) for rel in rng.sample(["partner", "son", "daughter", "mother", "father", "sister", "brother"], rng.randint(1, 3))]
    d.vendors = []
    categories = list(sector.vendors)
    rng.shuffle(categories)
    for i in range(n_vendors):
        cat = categories[i % len(categories)]
        kind = VENDORS[cat]
        name = rng.choice(kind.names) if rng.random() < 0.35 else f"{d.surname()} {rng.choice(kind.suffixes)}"
        org = d.org(name, "vendor", cat)
        d.vendors.append((org, d.person(org, "accounts")))
    d.clients = []
    for i in range(n_clients):
        name = rng.choice(CLIENTS) if rng.random() < 0.4 else f"{d.surname()} {rng.choice(CLIENT_SUFFIXES)}"
        org = d.org(name, "client", "client")
        d.clients.append((org, d.person(org, "project lead")))
    _money(d)
    _meetings(d)


def _money(d: Draft) -> None:
    rng, today = d.rng, d.now.date()
    history = d.size.history_days
    savings = rng.choice(["Business Savings", "Reserve Savings", "Tax Reserve", "Rainy Day Savings"])
    card = rng.choice(["Company Card", "Business Card", "Corporate Visa"])
    d.accounts += [
        Account(id="a1", name="Business Checking", kind="checking", number=f"{rng.randint(1000, 9999)}", opening_balance=float(rng.randint(18, 45) * 1000)),
        Account(id="a2", name=savings, kind="savings", number=f"{rng.randint(1000, 9999)}", opening_balance=float(rng.randint(30, 90) * 1000)),
        Account(id="a3", name=card, kind="credit", number=f"{rng.randint(1000, 9999)}", opening_balance=0.0),
    ]
    for org, contact in d.vendors:
        _names = VENDORS[org.category].items
        for old in (True, False) if rng.random() < 0.6 else (False,):
            picks = rng.sample(_names, rng.randint(1, min(3, len(_names))))
            issued = today - timedelta(days=rng.randint(max(20, history // 2), max(25, history - 5)) if old else rng.randint(1, 14))
            d.invoice(org, contact, picks, f"{org.category} services", issued, paid=old)
    start = today - timedelta(days=history)
    for week in range(history // 7):
        day = datetime.combine(start + timedelta(days=7 * week + 1), time(9, 0))
        if week % 4 == 0:
            d.tx("a1", day, "Payroll", -rng.randint(6, 12) * 1000.0, "payroll", "Payroll")
            d.tx("a1", day + timedelta(hours=2), "Office rent", -float(rng.choice([1800, 2200, 2600])), "rent", "Landlord")
        if week % 2 == 1:
            org, _c = rng.choice(d.clients)
            d.tx("a1", day + timedelta(days=1), f"Payment from {org.name}", rng.randint(20, 80) * 100.0, "income", org.id, f"PO-{rng.randint(100, 999)}")
        for _ in range(rng.randint(1, 3)):
            what = rng.choice(["Coffee shop", "Taxi", "Stationery", "Lunch meeting", "Parking", "Train ticket"])
            d.tx("a3", day + timedelta(days=rng.randint(0, 5), hours=rng.randint(0, 8)), what, -round(rng.uniform(4, 90), 2), "card", what)


def _meetings(d: Draft) -> None:
    rng, user = d.rng, d.user
    team = d.colleagues[:8]
    monday = d.now.date() - timedelta(days=d.now.weekday())
    for week in (-1, 0, 1):
        d.meeting("Weekly team stand-up", datetime.combine(monday + timedelta(days=7 * week), time(10, 0)), 30, user, team, "Main meeting room")
    for c in rng.sample(d.colleagues, 2):
        day = d.now.date() + timedelta(days=rng.randint(1, 8))
        d.meeting(f"1:1 {user.name.split()[0]} / {c.name.split()[0]}", datetime.combine(day, time(rng.choice([9, 13, 16]), 0)), 30, user, [c], "Phone booth 1")
    org, vcontact = rng.choice(d.vendors)
    past = d.now.date() - timedelta(days=rng.randint(3, 9))
    d.meeting(f"Review with {org.name}", datetime.combine(past, time(15, 0)), 45, vcontact, [user], "Video call")
    client, contact = d.clients[-1]
    day = d.now.date() + timedelta(days=rng.randint(2, 9))
    d.meeting(f"Check-in with {client.name}", datetime.combine(day, time(rng.choice([11, 14, 15]), 0)), 30, contact, [user, rng.choice(d.colleagues)],
              rng.choice(ROOMS), f"Regular check-in with {client.name}.")


def _documents(d: Draft) -> None:
    """Budget and invoice log (from the money as it stands after the scenario), handbook, notes, routine docs."""
    rng, user = d.rng, d.user
    month = d.now.strftime("%B %Y")
    categories = sorted({t.category for t in d.transactions if t.amount < 0})
    d.doc(f"Budget {month}", "table", "Finance", user, rows=[("Category", "Budget", "Spent")] + [
        (c.title(), f"{rng.randint(5, 40) * 100:.2f}", f"{-sum(t.amount for t in d.transactions if t.category == c and t.amount < 0):.2f}") for c in categories])
    paid = sorted((i for i in d.invoices if i.paid), key=lambda i: (i.due, i.number))
    names = {o.id: o.name for o in d.orgs}
    log = d.doc("Invoice log", "table", "Finance", user, rows=[("Number", "Vendor", "Amount", "Due", "Status")] + [
        (i.number, names[i.vendor], f"{i.amount:.2f}", i.due.isoformat(), "paid") for i in paid[:-1]])
    if paid and log is not None:  # the bookkeeping lags: the latest payment is not logged yet
        d.facts.append(Fact(key="invoice_log.unlogged", value=paid[-1].number, refs=(paid[-1].id, log.id)))
    d.doc("Team handbook", "doc", "Team", user, text=f"Welcome to {d.persona.company}. Expenses are filed in the Finance folder.")
    for m in sorted(d.meetings, key=lambda m: m.start)[:2]:
        d.doc(f"Notes - {m.title} {m.start.date().isoformat()}", "doc", "Meetings", user, text=f"Attendees: {len(m.attendees) + 1}. Actions: follow up by Friday.")
    kinds = ["Weekly report", "Project notes", "Meeting notes", "Ideas", "Checklist", "Draft"]
    for i in range(d.size.documents):
        when = d.now - timedelta(days=rng.randint(1, d.size.history_days))
        owner = rng.choice([user, *d.colleagues[:4]])
        d.doc(f"{rng.choice(kinds)} {when:%Y-%m-%d} #{i + 1}", "doc", rng.choice(["Team", "Projects", "Archive"]), owner,
              text=f"Notes from {d.day(when)}: {rng.choice(['on track', 'two items blocked', 'waiting on the client', 'done'])}.", modified=when)


def _mail(d: Draft) -> None:
    """Invitation threads for meetings with two or more guests, and colleagues' questions over the history."""
    rng, user = d.rng, d.user
    people = {p.id: p for p in d.people}
    for m in list(d.meetings):
        organizer = people[m.organizer]
        sent = min(d.now - timedelta(hours=1), m.start - timedelta(days=rng.randint(2, 6)))
        if len(m.attendees) < 2:
            continue
        others = [people[a] for a in m.attendees]
        d.send(f"meet-{m.id}", organizer, others, m.title, f"Hi all, let's meet on {m.start:%A} {d.day(m.start)} at {m.start:%H:%M} ({m.location}).\n\n{organizer.name}",
               sent)
        replier = rng.choice([p for p in others if p.id != user.id] or others)
        if sent + timedelta(hours=3) <= d.now:
            d.send(f"meet-{m.id}", replier, [organizer], f"Re: {m.title}", "Works for me, see you there.", sent + timedelta(hours=3), read=False)
    for i in range(max(3, d.size.history_days // 10)):
        c = d.colleagues[i % len(d.colleagues)]
        doc = rng.choice(d.documents)
        d.send(f"note-{i}", c, [user], f"Quick question about {doc.name}", f"Hi {user.name.split()[0]}, could you take a look at {doc.name}? Thanks!",
               d.now - timedelta(days=rng.randint(1, max(2, d.size.history_days // 2)), hours=rng.randint(1, 6)), read=rng.random() < 0.5)
