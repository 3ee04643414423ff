"""Distractors: records that look like the ones a task is about, so a task needs careful reading —
a vendor with a near-identical name and a near-identical invoice number, a card charge of almost an
open invoice's amount, an outdated copy of a document, a namesake of a colleague.

Each distractor is drawn with probability `size.distractor_rate`; none breaks an integrity rule, and
exact names stay unique (a document, a vendor and a person are still found by their exact name).
"""

from __future__ import annotations

from datetime import timedelta

from .catalog import VENDORS
from .draft import Draft

__all__ = ["add_distractors"]

_VENDOR_VARIANTS = (" Ltd", " Group", " & Co", " Services", " International")
_DOC_VARIANTS = ("{name} (old)", "{name} v1", "Copy of {name}", "{name} - draft", "{name} (superseded)")


def add_distractors(d: Draft) -> None:
    """All distractor kinds, each at the world's distractor rate."""
    if d.size.distractor_rate <= 0:
        return
    _near_vendors(d)
    _similar_amounts(d)
    _outdated_documents(d)
    _namesakes(d)


def _hit(d: Draft) -> bool:
    return d.rng.random() < d.size.distractor_rate


def _near_vendors(d: Draft) -> None:
    """A sibling vendor whose name differs by a word, billing a near-identical number and amount."""
    rng = d.rng
    for org, _contact in list(d.vendors):
        first = next((i for i in d.invoices if i.vendor == org.id), None)
        if first is None or not _hit(d):
            continue
        sibling = d.org(org.name + _variant(org.name, rng.choice(_VENDOR_VARIANTS)), "vendor", org.category)
        contact = d.person(sibling, "accounts")
        items = [(i.description, round(i.unit_price * rng.choice([0.97, 0.98, 1.02, 1.03]), 2)) for i in first.items]
        issued = max(first.issued - timedelta(days=rng.randint(1, 9)), d.now.date() - timedelta(days=d.size.history_days))
        d.invoice(sibling, contact, items or list(VENDORS[org.category].items[:1]), first.description, min(issued, d.now.date()),
                  paid=rng.random() < 0.5, number=d.invoice_number(sibling, near=first.number))


def _variant(name: str, drawn: str) -> str:
    """The drawn suffix, or the next one when the name already ends with it ("Ovenfix Services" + " Services" was
    "Ovenfix Services Services"); no second draw, so the rest of the world stays as drawn."""
    if not name.endswith(drawn):
        return drawn
    return _VENDOR_VARIANTS[(_VENDOR_VARIANTS.index(drawn) + 1) % len(_VENDOR_VARIANTS)]


def _similar_amounts(d: Draft) -> None:
    """A card charge within a few percent of an open invoice's total, from nobody who bills."""
    rng = d.rng
    names = {o.id: o.name for o in d.orgs}
    for inv in [i for i in d.invoices if not i.paid]:
        if not _hit(d):
            continue
        amount = round(inv.amount * rng.choice([0.96, 0.98, 0.99, 1.01, 1.02, 1.04]), 2)
        posted = d.now - timedelta(days=rng.randint(1, 10), hours=rng.randint(1, 8))
        what = f"{names[inv.vendor].split()[0]} {rng.choice(['deposit', 'pre-authorisation', 'online order', 'card payment'])}"
        d.tx("a3", posted, what, -amount, "card", what)


def _outdated_documents(d: Draft) -> None:
    """An older copy of a scenario document (or the budget), with a variant name and stale content."""
    rng = d.rng
    budget = next((doc for doc in d.documents if doc.name.startswith("Budget ")), None)
    for doc in [*d.scenario_docs, *([budget] if budget else [])]:
        if not _hit(d):
            continue
        name = rng.choice(_DOC_VARIANTS).format(name=doc.name)
        older = doc.modified - timedelta(days=rng.randint(7, 40))
        owner = next(p for p in d.people if p.id == doc.owner)
        if doc.kind == "table":
            rows = [doc.rows[0]] + [tuple(c if not _is_amount(c) else f"{float(c) * rng.choice([0.9, 1.1]):.2f}" for c in r) for r in doc.rows[1:]]
            d.doc(name, "table", doc.folder, owner, rows=rows, modified=older)
        else:
            d.doc(name, "doc", doc.folder, owner, text="(Outdated draft) " + doc.text, modified=older)


def _namesakes(d: Draft) -> None:
    """A client's contact who shares a colleague's first name (and the initial of the surname)."""
    rng = d.rng
    for colleague in d.colleagues[:3]:
        if not _hit(d):
            continue
        first, last = colleague.name.split()[0], colleague.name.split()[-1]
        same_initial = [n for n in d.pools.last if n[:1] == last[:1] and n != last] or list(d.pools.last)
        name = f"{first} {rng.choice(same_initial)}"
        if name in d.names:
            continue
        org, _contact = rng.choice(d.clients)
        d.person(org, "coordinator", name)


def _is_amount(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return "." in cell
