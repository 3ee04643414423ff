"""Helpers shared by the families: picking world facts and formatting them as a person would."""

from __future__ import annotations

import random

from contracts.world import Invoice, World
from mocked_apps.kit import load_manifest
from mocked_apps.registry import resolve

_TITLES: dict[str, str] = {}


def app_title(app: str) -> str:
    """The title the launcher shows for an app (what golden code clicks to open it)."""
    if app not in _TITLES:
        _TITLES[app] = load_manifest(resolve(app)).title
    return _TITLES[app]


def open_invoices(world: World) -> list[Invoice]:
    return [i for i in world.invoices if not i.paid]


def pick(rng: random.Random, items: list):
    return rng.choice(items) if items else None


def money(amount: float) -> str:
    return f"${amount:,.2f}"


def first_name(name: str) -> str:
    return name.split()[0]


def invoice_thread_subject(world: World, inv: Invoice) -> str:
    """Subject of the email that carried the invoice (the world's mail projection keeps it)."""
    return next(m.subject for m in world.messages if inv.filename in m.attachments)
