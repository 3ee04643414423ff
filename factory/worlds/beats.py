"""Expanding a scenario spec into world records: the cast and placeholders (`context`), then one
small function per kind of beat (`expand`), chosen by the beat's type."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from functools import singledispatch

from .draft import Draft
from contracts.world import Fact, Person
from .scenarios import Bill, Booking, Doc, Mail, Meet, ScenarioSpec, Spend

__all__ = ["context", "expand"]


def context(d: Draft, spec: ScenarioSpec) -> None:
    """Bring in the scenario's cast and fill `d.ctx`, the values its templates use."""
    rng, user = d.rng, d.user
    client, client_contact = d.clients[0]
    vendor, vendor_contact = d.vendors[0]
    colleague = d.colleagues[0]
    relative = d.household[0]
    dest = rng.choice([c for c in d.pools.cities if c != d.persona.city] or d.pools.cities)
    nxt = (d.now.replace(day=1) + timedelta(days=32)).strftime("%B")
    d.ctx.update({
        "user": user.name, "user_first": user.name.split()[0], "company": d.persona.company, "city": d.persona.city or dest,
        "dest": dest, "month": d.now.strftime("%B"), "next_month": nxt, "year": str(d.now.year),
        "client": client.name, "client_first": client_contact.name.split()[0], "vendor": vendor.name,
        "vendor_first": vendor_contact.name.split()[0], "colleague": colleague.name, "colleague_first": colleague.name.split()[0],
        "relative": relative.name, "relative_first": relative.name.split()[0],
        "key_date": d.day(d.now + timedelta(days=rng.randint(3, 12))), "ref": f"{rng.randint(100000, 999999)}",
    })
    for key, values in spec.choices.items():
        d.ctx[key] = rng.choice(values)
    for cast in spec.cast:
        name = rng.choice(cast.names).format(last=d.surname())
        org = d.org(name, "vendor" if cast.kind == "vendor" else cast.kind, cast.category)
        members = [d.person(org, role) for role in cast.roles]
        d.cast[cast.key] = (org, members)
        d.ctx[cast.key] = org.name
        d.ctx[f"{cast.key}_first"] = members[0].name.split()[0]


def expand(d: Draft, spec: ScenarioSpec) -> None:
    """Every beat of `spec`, in order (documents before the mail that attaches them)."""
    for i, beat in enumerate(spec.beats):
        _beat(beat, d, f"{spec.id}-{i}")


def _party(d: Draft, who: str) -> list[Person]:
    """The people `who` names (see `factory.worlds.scenarios.spec`)."""
    rng = d.rng
    if who == "user":
        return [d.user]
    if who == "colleague":
        return [d.colleagues[0]]
    if who == "colleagues":
        return rng.sample(d.colleagues, min(len(d.colleagues), rng.randint(2, 4)))
    if who == "client":
        return [d.clients[0][1]]
    if who == "vendor":
        return [d.vendors[0][1]]
    if who == "household":
        return list(d.household)
    if who in d.cast:
        return list(d.cast[who][1])
    raise KeyError(f"scenario {d.scenario.id}: unknown party {who!r}")


@singledispatch
def _beat(beat, d: Draft, key: str) -> None:
    raise TypeError(f"no expansion for beat {type(beat).__name__}")


@_beat.register
def _(beat: Meet, d: Draft, key: str) -> None:
    rng = d.rng
    party = _party(d, beat.who)
    first = d.now.date() + timedelta(days=rng.randint(*beat.days))
    for n in range(beat.count):
        day = first + timedelta(days=n * beat.every_days)
        while day.weekday() >= 5:
            day += timedelta(days=1)
        start = datetime.combine(day, time(rng.choice(beat.hours), rng.choice([0, 30])))
        if beat.organizer == "user":
            organizer, guests = d.user, party
        else:
            organizer, guests = party[0], [d.user, *party[1:2]]
        d.meeting(d.fmt(beat.title), start, beat.minutes, organizer, guests, d.fmt(rng.choice(beat.location)), d.fmt(beat.description))


@_beat.register
def _(beat: Doc, d: Draft, key: str) -> None:
    owner = {"user": d.user, "colleague": d.colleagues[0], "client": d.clients[0][1]}[beat.owner]
    folder = d.fmt(beat.folder)
    if beat.columns:
        rows = [beat.columns] + [tuple(d.fmt(c) for c in r) for r in beat.rows]
        doc = d.doc(d.fmt(beat.name), "table", folder, owner, rows=rows)
    else:
        doc = d.doc(d.fmt(beat.name), "doc", folder, owner, text=d.fmt(beat.text))
    if doc is not None and beat.outdated:
        d.scenario_docs.append(doc)


@_beat.register
def _(beat: Mail, d: Draft, key: str) -> None:
    rng = d.rng
    sender = _party(d, beat.sender)[0]
    to = _party(d, beat.to) if sender.id != d.user.id or beat.to != "user" else [d.colleagues[0]]
    cc = [p for who in beat.cc for p in _party(d, who)]
    files = {doc.name for doc in d.documents} | {i.filename for i in d.invoices}
    attach = [n for n in (d.fmt(a) for a in beat.attach) if n in files]
    sent = d.now - timedelta(days=rng.randint(*beat.days_ago), hours=rng.randint(1, 8))
    subject = d.fmt(beat.subject)
    d.send(key, sender, to, subject, d.fmt(beat.body), sent, attach, cc, read=not beat.unread)
    speakers = [to[0], sender]
    for n, body in enumerate(beat.replies):
        sent += timedelta(hours=rng.randint(2, 20))
        if sent >= d.now:
            break
        who = speakers[n % 2]
        d.send(key, who, [speakers[(n + 1) % 2]], f"Re: {subject}", d.fmt(body), sent, read=who.id == d.user.id or not beat.unread)


@_beat.register
def _(beat: Spend, d: Draft, key: str) -> None:
    rng = d.rng
    account = "a3" if beat.account == "card" else "a1"
    for n in range(rng.randint(*beat.count)):
        text, lo, hi = rng.choice(beat.items)
        posted = d.now - timedelta(days=rng.randint(*beat.days_ago), hours=rng.randint(0, 9))
        amount = round(rng.uniform(lo, hi), 2)
        what = d.fmt(text)
        d.tx(account, posted, what, -amount, beat.category, what)
        if beat.refund and n == 0:
            back = amount if rng.random() < 0.6 else round(amount * rng.choice([0.5, 0.8]), 2)
            d.tx(account, posted + timedelta(days=rng.randint(2, 6)), f"Refund {what}", back, beat.category, what)


@_beat.register
def _(beat: Bill, d: Draft, key: str) -> None:
    rng = d.rng
    org, contact = d.vendors[0] if beat.sender == "vendor" else (d.cast[beat.sender][0], d.cast[beat.sender][1][0])
    issued = d.now.date() - timedelta(days=rng.randint(1, 12))
    items = rng.sample(list(beat.items), rng.randint(1, len(beat.items)))
    d.invoice(org, contact, items, d.fmt(beat.description), issued, paid=rng.random() < beat.paid)


@_beat.register
def _(beat: Booking, d: Draft, key: str) -> None:
    rng = d.rng
    org, members = d.cast[beat.provider]
    ref = f"{org.name[:2].upper()}{rng.randint(10000, 99999)}"
    day = d.now.date() + timedelta(days=rng.randint(*beat.day))
    start = datetime.combine(day, time(rng.choice(beat.hour), rng.choice([0, 15, 45])))
    what = d.fmt(beat.what)
    price = round(rng.uniform(*beat.price), 2)
    d.meeting(what, start, beat.minutes, d.user, [], d.ctx.get("dest", ""), f"Booking {ref} with {org.name}.")
    booked = d.now - timedelta(days=rng.randint(2, 14), hours=rng.randint(1, 6))
    d.send(f"{key}-{ref}", members[0], [d.user], f"Booking confirmed: {what} ({ref})",
           f"Dear {d.user.name.split()[0]},\n\nyour booking {ref} is confirmed: {what}, {d.day(start)} at {start:%H:%M}. "
           f"Total charged: {price:.2f} {d.persona.currency}.\n\n{org.name}", booked)
    d.tx("a3", booked + timedelta(minutes=5), f"{org.name} {ref}", -price, beat.category, org.id, ref)
    d.facts.append(Fact(key=f"booking.{ref}.start", value=start.isoformat(timespec="minutes"), refs=(org.id,)))
