"""Personas generated from a seed, as many as asked: a name, role and company in one of several
locales, with that locale's currency and date format, an address, habits and preferences.

`generated_persona(seed, index)` is a pure function of its arguments: the same pair gives the same
persona in every process. Ids look like `g<seed>n<index>` and never clash with the fixtures'.
"""

from __future__ import annotations

import random

from .catalog import HABITS, PREFERENCES, SECTORS
from .locales import LOCALES, ascii_slug, pools
from contracts.world import Persona

__all__ = ["generated_persona", "generated_personas"]

_STYLES = ("friendly", "terse", "formal")


def generated_persona(seed: int, index: int) -> Persona:
    """Persona number `index` of the generated population of `seed`."""
    rng = random.Random(f"persona/{seed}/{index}")
    locale = LOCALES[rng.choice(sorted(LOCALES))]
    names = pools(locale.code)
    sector_name = rng.choice(sorted(SECTORS))
    sector = SECTORS[sector_name]
    first, last = rng.choice(names.first), rng.choice(names.last)
    if rng.random() < 0.5 and names.companies:
        company = rng.choice(names.companies)
    else:
        company = f"{rng.choice(names.last)} {rng.choice(sector.company_words)}"
    domain = f"{ascii_slug(company)[:24] or 'company'}{index}.example"
    city = rng.choice(names.cities)
    return Persona(
        id=f"g{seed}n{index}", name=f"{first} {last}", email=f"{ascii_slug(first, '.')}.{ascii_slug(last, '.')}@{domain}",
        role=rng.choice(sector.owner_roles), company=company, domain=domain, style=rng.choice(_STYLES), sector=sector_name,
        locale=locale.code, currency=locale.currency, date_format=locale.date_format, city=city,
        address=f"{rng.choice(names.streets)}, {city}", habits=tuple(rng.sample(HABITS, 2)), preferences=tuple(rng.sample(PREFERENCES, 2)),
    )


def generated_personas(seed: int, n: int) -> list[Persona]:
    """The first `n` generated personas of `seed`."""
    return [generated_persona(seed, i) for i in range(n)]
