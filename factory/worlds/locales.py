"""Locales of generated personas: currency, date format, and pools of names, cities, streets and companies.

The pools come from `faker`, drawn once per locale with a fixed seed (so the same Faker version
gives the same pools) and cached; worlds then draw from the pools with their own `random.Random`,
which keeps building a world fast and deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

__all__ = ["LOCALES", "Locale", "NamePools", "ascii_slug", "pools"]


class Locale(BaseModel):
    """What a locale decides about a world: its money and how it writes dates."""

    model_config = ConfigDict(frozen=True)

    code: str
    currency: str
    date_format: str


LOCALES: dict[str, Locale] = {
    loc.code: loc
    for loc in (
        Locale(code="en_US", currency="USD", date_format="%m/%d/%Y"),
        Locale(code="en_GB", currency="GBP", date_format="%d/%m/%Y"),
        Locale(code="en_IE", currency="EUR", date_format="%d/%m/%Y"),
        Locale(code="en_AU", currency="AUD", date_format="%d/%m/%Y"),
        Locale(code="en_CA", currency="CAD", date_format="%Y-%m-%d"),
        Locale(code="de_DE", currency="EUR", date_format="%d.%m.%Y"),
        Locale(code="de_AT", currency="EUR", date_format="%d.%m.%Y"),
        Locale(code="fr_FR", currency="EUR", date_format="%d/%m/%Y"),
        Locale(code="es_ES", currency="EUR", date_format="%d/%m/%Y"),
        Locale(code="it_IT", currency="EUR", date_format="%d/%m/%Y"),
        Locale(code="nl_NL", currency="EUR", date_format="%d-%m-%Y"),
        Locale(code="sv_SE", currency="SEK", date_format="%Y-%m-%d"),
        Locale(code="da_DK", currency="DKK", date_format="%d.%m.%Y"),
        Locale(code="pl_PL", currency="PLN", date_format="%d.%m.%Y"),
        Locale(code="pt_PT", currency="EUR", date_format="%d/%m/%Y"),
        Locale(code="pt_BR", currency="BRL", date_format="%d/%m/%Y"),
    )
}


class NamePools(BaseModel):
    """Distinct values faker gives for one locale."""

    model_config = ConfigDict(frozen=True)

    first: tuple[str, ...]
    last: tuple[str, ...]
    cities: tuple[str, ...]
    streets: tuple[str, ...]
    companies: tuple[str, ...]


def _distinct(make, n: int, ok=lambda s: True) -> tuple[str, ...]:
    out: dict[str, None] = {}
    for _ in range(n * 4):
        value = make().strip()
        if value and ok(value):
            out[value] = None
        if len(out) >= n:
            break
    return tuple(out)


_ONE_WORD = re.compile(r"^[^\s,]+$")
_UNORDERED_CITIES = ("it_IT",)
"""Locales whose Faker city list is built from a set, so its order, and every draw from it, follows the interpreter's hash
seed: two processes made different Italian worlds from one seed. Their cities are drawn from the list sorted."""


@lru_cache(maxsize=None)
def pools(code: str) -> NamePools:
    """The cached pools of locale `code` (faker seeded with 0: the same pools in every process)."""
    from faker import Faker

    fake = Faker(code)
    fake.seed_instance(0)
    city = fake.city
    if code in _UNORDERED_CITIES:
        known = sorted(next(p.cities for p in fake.get_providers() if hasattr(p, "cities")))
        city = lambda: fake.random_element(known)  # noqa: E731
    return NamePools(
        first=_distinct(fake.first_name, 160, _ONE_WORD.match),
        last=_distinct(fake.last_name, 160, _ONE_WORD.match),
        cities=_distinct(city, 60),
        streets=_distinct(fake.street_address, 60, lambda s: "\n" not in s),
        companies=_distinct(fake.company, 60, lambda s: len(s) <= 40),
    )


def ascii_slug(text: str, sep: str = "") -> str:
    """`text` folded to lower-case ASCII letters and digits (accents dropped), words joined by `sep`."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return sep.join(w for w in re.split(r"[^a-z0-9]+", folded) if w)
