"""Domain vocabularies for compiled apps' sample data: products by aisle, books by genre, breeds by species, notes
by kind of service, so a compiled app reads like the service it stands for, never lorem.

The lists are small curated YAML files beside this module, each naming its source. A vocabulary is grouped (a
row draws from the group named by one of its own values, e.g. its aisle) or a flat list; a domain, found from a
spec's category, gives the names and notes of any text field that names no vocabulary of its own.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

_HERE = Path(__file__).parent


class Vocabulary(BaseModel):
    """Named values of one kind, optionally grouped by a value a row carries (its aisle, genre, species)."""

    model_config = ConfigDict(frozen=True)

    name: str
    about: str = Field(description="What the values are, and what they are grouped by.")
    source: str = Field(description="Where the list comes from (its file's `source`).")
    groups: dict[str, tuple[str, ...]] = Field(description="Group -> values; a flat list is the one group ''.")

    @property
    def items(self) -> tuple[str, ...]:
        """Every value once, in file order."""
        return tuple(dict.fromkeys(v for values in self.groups.values() for v in values))

    def pick(self, rng: random.Random, among: Iterable[object] = ()) -> str:
        """A value of the first group named in `among` (a row's values), or of the whole list."""
        for key in among:
            if isinstance(key, str) and key in self.groups:
                return rng.choice(self.groups[key])
        return rng.choice(self.items)


class Domain(BaseModel):
    """A kind of service: what its records are called and what its staff write on them."""

    model_config = ConfigDict(frozen=True)

    name: str
    match: tuple[str, ...] = Field(description="Words or phrases of a spec's category that put it here: whole words and "
                                               "their plurals; a word ending in `*` is a prefix (`utilit*`).")
    titles: tuple[str, ...] = Field(min_length=4, description="Names of records (a title field with no vocabulary).")
    notes: tuple[str, ...] = Field(min_length=4, description="Sentences staff write: notes, reasons, comments.")

    def matches(self, category: str) -> bool:
        text = category.lower()
        return any(re.search(_pattern(word), text) for word in self.match)


def _pattern(word: str) -> str:
    """A match word as a regex: a whole word or phrase with its plural (tax, taxes; pharmacy, pharmacies), never the
    start of another word (tax is not taxi, tour is not tournament); `stem*` is a prefix on purpose."""
    if word.endswith("*"):
        return rf"\b{re.escape(word[:-1])}"
    stem, plural = re.escape(word), "(?:s|es)?"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":  # pharmacy, pharmacies; holiday, holidays
        stem, plural = re.escape(word[:-1]), "(?:y|ies)"
    return rf"\b{stem}{plural}\b"


@functools.lru_cache(maxsize=1)
def vocabularies() -> dict[str, Vocabulary]:
    """Every vocabulary of the YAML files here, by name."""
    out: dict[str, Vocabulary] = {}
    for path in sorted(_HERE.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for name, body in (data.get("vocabularies") or {}).items():
            groups = body["groups"] if "groups" in body else {"": body["items"]}
            out[name] = Vocabulary(name=name, about=body.get("about", ""), source=data["source"],
                                   groups={str(k): tuple(str(v) for v in values) for k, values in groups.items()})
    return out


@functools.lru_cache(maxsize=1)
def domains() -> tuple[Domain, ...]:
    """The domains, in the order a category is matched against them (`general` last, matching anything)."""
    data = yaml.safe_load((_HERE / "domains.yaml").read_text())
    return tuple(Domain(name=name, **body) for name, body in data["domains"].items())


def domain_of(category: str) -> Domain:
    """The first domain whose words the category contains; `general` when none does."""
    found = domains()
    return next((d for d in found if d.matches(category)), next(d for d in found if d.name == "general"))


__all__ = ["Domain", "Vocabulary", "domain_of", "domains", "vocabularies"]
