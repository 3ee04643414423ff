"""Every task family, by name: each app's own (its package's `families.py`, found by app discovery)
and the cross-app ones here, which call only the apps' recipes.

A family of an app outside this repository comes with its app folder: nothing here names it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping

from contracts.family import Family
from contracts.spread import round_robin
from mocked_apps.registry import AppParts, part

from .cross import LogPaymentInDrive, MeetEveryoneOnThread, PayAndConfirm, PayInvoiceFromDrive, ReplyWithInvoiceTotal
from .cross_qa import TotalOfEmailedInvoice, WhoSentInvoice

CROSS: tuple[Family, ...] = (ReplyWithInvoiceTotal(), PayInvoiceFromDrive(), PayAndConfirm(), MeetEveryoneOnThread(),
                             LogPaymentInDrive(), TotalOfEmailedInvoice(), WhoSentInvoice())


def _app_families(app: str) -> tuple[Family, ...] | None:
    module = part(app, "families")
    return tuple(getattr(module, "FAMILIES", ())) or None if module is not None else None


APP_FAMILIES: AppParts[tuple[Family, ...]] = AppParts(_app_families)
"""App name -> the single-app families its package declares."""


class _Families(Mapping[str, Family]):
    """Family name -> family: the apps' families (in app order), then the cross-app ones; discovered on use."""

    def _all(self) -> dict[str, Family]:
        return {f.name: f for fams in APP_FAMILIES.values() for f in fams} | {f.name: f for f in CROSS}

    def __getitem__(self, name: str) -> Family:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def items(self):  # one discovery for every family (Mapping's default rebuilds the whole map per family)
        return self._all().items()

    def values(self):
        return self._all().values()


FAMILIES: Mapping[str, Family] = _Families()


def with_catalogue() -> dict[str, Family]:
    """FAMILIES and the families derived from every compiled catalogue app's spec (`SynthConfig.catalogue`)."""
    from mocked_apps.catalogue import compiled
    from mocked_apps.kit.compiler import derived_families

    derived = {f.name: f for ref in compiled().values() for f in derived_families(ref)}
    return dict(FAMILIES.items()) | derived


def spread_over_apps(families: list[Family], seed: int = 0) -> list[Family]:
    """The families in the order that reaches the most apps first: round-robin over hand-made and compiled apps
    (alternating while both last), then over each app's families. An app is a family's first app; apps of a kind
    come in an order drawn from `seed`. So the first N families of a catalogue synthesis span min(N, apps) apps,
    where the declared order gave the hand-made apps' families first (24 tasks from five hand-made apps)."""
    handmade = set(FAMILIES)
    by_app: dict[tuple[bool, str], list[Family]] = {}
    for family in families:
        by_app.setdefault((family.name not in handmade, family.apps[0]), []).append(family)
    drawn = sorted(by_app, key=lambda key: hashlib.sha256(f"{seed}/{key[1]}".encode()).hexdigest())
    place = {key: i for kind in (False, True) for i, key in enumerate(k for k in drawn if k[0] == kind)}
    ordered = sorted(families, key=lambda f: (place[(f.name not in handmade, f.apps[0])], f.name not in handmade))
    return round_robin(ordered, lambda f: (f.name not in handmade, f.apps[0]))


__all__ = ["APP_FAMILIES", "CROSS", "FAMILIES", "spread_over_apps", "with_catalogue"]
