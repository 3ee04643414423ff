"""Deterministic sample data for a spec: believable rows from a seed (Faker for people, places and codes; the domain
vocabularies of `vocab/` for products, titles and notes), or from a world's people and organisations.

The same (spec, seed, clock, world) always gives the same rows, so a spec's default seed and each
world's projection are reproducible. Dates are offsets from the clock, so data stays "recent".
"""

from __future__ import annotations

import functools
import hashlib
import threading
import random
from datetime import datetime, time, timedelta
from typing import Any, Callable

from faker import Faker

from .model import AppSpec, EntitySpec, FieldSpec
from .vocab import domain_of, vocabularies

FAKER_SAMPLES: dict[str, Callable[[Faker], Any]] = {
    "name": lambda f: f.name(), "first_name": lambda f: f.first_name(), "last_name": lambda f: f.last_name(),
    "company": lambda f: f.company(), "city": lambda f: f.city(), "street": lambda f: f.street_address(),
    "address": lambda f: f"{f.street_address()}, {f.city()}", "country": lambda f: f.country(),
    "color": lambda f: f.safe_color_name().capitalize(), "plate": lambda f: f.license_plate(), "email": lambda f: f.email(),
    "phone": lambda f: f.numerify("(###) 555-01##"), "code": lambda f: f.bothify("??-####").upper(), "isbn": lambda f: f.isbn13(),
    "username": lambda f: "@" + f.user_name(), "street_name": lambda f: f.street_name(), "postcode": lambda f: f.postcode(),
    "seat": lambda f: f"{f.random_int(1, 32)}{f.random_element('ABCDEF')}",
}
"""Faker generators of real-world data a spec may name in `sample:` (a fixed list: specs never name arbitrary methods)."""

DOMAIN_SAMPLES = {"words": "titles", "word": "titles", "title": "titles", "catch_phrase": "titles", "product": "titles",
                  "sentence": "notes", "paragraph": "notes"}
"""Sample names of free text (once lorem): drawn from the domain of the spec's category (`vocab/domains.yaml`)."""
ALIASES = {"job": "job_title"}
"""Sample names kept for older specs, and the vocabulary each now draws from."""

DEFAULT_SAMPLES = {"phone": "phone", "email": "email", "address": "address", "text": "sentence", "longtext": "paragraph"}
"""Sample of a field that names none, by type (a text field that titles its entity draws a name, not a sentence)."""


def sample_names() -> list[str]:
    """Every name a spec's `sample:` may give."""
    return sorted({*FAKER_SAMPLES, *DOMAIN_SAMPLES, *ALIASES, *vocabularies()})


def sample_text(spec: AppSpec, e: EntitySpec, f: FieldSpec, fake: Faker, row: dict[str, Any] | None = None) -> str:
    """A value of a text-like field by its sample name: real-world data (Faker), a vocabulary of the domain (grouped
    by one of the row's values where the vocabulary is grouped: a product by its aisle), or the domain's names and notes."""
    rule = f.sample if isinstance(f.sample, str) else DEFAULT_SAMPLES.get(f.type, "sentence")
    if rule == "sentence" and f.sample is None and f.name == e.title:
        rule = "title"
    name = ALIASES.get(rule, rule)
    if name in FAKER_SAMPLES:
        return FAKER_SAMPLES[name](fake)
    found = vocabularies().get(name)
    if found is not None:
        return found.pick(fake.random, (row or {}).values())
    if name not in DOMAIN_SAMPLES:
        raise SampleError(f"field {f.name}: unknown sample {rule!r}; known: {', '.join(sample_names())}")
    domain = domain_of(spec.category)
    if name == "paragraph":
        return " ".join(fake.random.sample(domain.notes, 2 + fake.random.randint(0, 1)))
    return fake.random.choice(domain.titles if DOMAIN_SAMPLES[name] == "titles" else domain.notes)


def _grouped_last(e: EntitySpec) -> list[FieldSpec]:
    """Fields in the order their values are drawn: those of a grouped vocabulary after the values that pick the group."""
    grouped = {n for n, v in vocabularies().items() if len(v.groups) > 1}
    return sorted(e.fields, key=lambda f: isinstance(f.sample, str) and ALIASES.get(f.sample, f.sample) in grouped)


_FAKE_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _fake() -> Faker:
    return Faker("en_US")


class SampleError(ValueError):
    """A sample rule the generator does not know; the message names the field."""


def sample_seed(spec: AppSpec, seed: int | str, clock: datetime, world=None) -> dict[str, list[dict]]:
    """Seed records {table: [rows]} for the spec's entities (and settings), deterministic for (spec, seed, clock, world)."""
    key = int(hashlib.sha256(f"{spec.name}/{seed}".encode()).hexdigest()[:12], 16)
    rng = random.Random(key)
    with _FAKE_LOCK:  # one Faker per process (building one costs ~0.2 s), re-seeded per call
        fake = _fake()
        fake.seed_instance(key)
        return _seed_rows(spec, rng, fake, clock, world)


def _seed_rows(spec: AppSpec, rng: random.Random, fake: Faker, clock: datetime, world) -> dict[str, list[dict]]:
    pools = _world_pools(spec, world)
    counts = {e.name: e.rows for e in spec.entities}
    out: dict[str, list[dict]] = {}
    for e in spec.entities:
        out[e.name] = _rows(spec, e, rng, fake, clock, counts, pools)
    if "chat" in {p.archetype for p in spec.pages}:
        thread = next(p.entity for p in spec.pages if p.archetype == "chat")
        lines, n = [], 0
        said = vocabularies()["chat_line"].items if domain_of(spec.category).name == "social" else domain_of(spec.category).notes
        for row in out[thread]:
            for k in range(rng.randint(2, 4)):
                n += 1
                lines.append({"id": n, "thread_id": row["id"], "body": rng.choice(said),
                              "mine": k % 2 == 1, "sent_at": (clock - timedelta(hours=rng.randint(2, 90), minutes=k)).isoformat()})
        out["chat_message"] = sorted(lines, key=lambda r: r["id"])
    if spec.settings:
        out["setting"] = [{"key": k, "value": _setting_default(v)} for k, v in spec.settings.items()]
    return out


def _setting_default(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return str(value[0])
    return str(value)


def _world_pools(spec: AppSpec, world) -> dict[str, list[str]]:
    if world is None:
        return {}
    concepts = {"people": [p.name for p in world.people], "orgs": [o.name for o in world.organisations if o.kind != "self"]}
    return {key: concepts.get(concept, []) for key, concept in spec.world.items() if concepts.get(concept)}


def _rows(spec: AppSpec, e: EntitySpec, rng: random.Random, fake: Faker, clock: datetime, counts: dict[str, int],
          pools: dict[str, list[str]]) -> list[dict]:
    inputs_of: dict[str, set[str]] = {}
    for t in e.transitions:
        for name in t.inputs:
            inputs_of.setdefault(name, set()).add(t.to)
    rows, seen = [], {f.name: set() for f in e.fields}
    for i in range(e.rows):
        row: dict[str, Any] = {"id": i + 1}
        state = None
        if e.states:
            weights = e.state_weights or [1.0] * len(e.states)
            state = e.states[i] if i < len(e.states) else rng.choices(e.states, weights=weights)[0]
            row[e.state_field] = state
        for f in _grouped_last(e):
            if f.name in inputs_of and state not in inputs_of[f.name]:
                row[f.name] = _empty(f)
                continue
            unique = f.unique or f.name == e.title
            for _ in range(40):
                value = _value(spec, e, f, rng, fake, clock, counts, pools.get(f"{e.name}.{f.name}"), row)
                if not unique or value not in seen[f.name]:
                    break
            else:
                value = f"{value} {i + 1}"
            seen[f.name].add(value)
            row[f.name] = value
        rows.append({k: row[k] for k in ("id", e.state_field, *(f.name for f in e.fields)) if k in row})
    return rows


def _empty(f: FieldSpec) -> Any:
    return False if f.type == "bool" else (None if f.type in ("int", "number", "money", "date", "datetime", "ref") else "")


def _value(spec: AppSpec, e: EntitySpec, f: FieldSpec, rng: random.Random, fake: Faker, clock: datetime, counts: dict[str, int],
           pool: list[str] | None, row: dict[str, Any]) -> Any:
    rule = f.sample
    if pool:
        return rng.choice(pool)
    if f.type == "choice":
        return rng.choice(list(rule) if isinstance(rule, list) else list(f.choices))
    if f.type == "bool":
        return rng.random() < (rule if isinstance(rule, (int, float)) and not isinstance(rule, bool) else 0.5)
    if f.type == "ref":
        return rng.randint(1, counts.get(f.ref, 1))
    if isinstance(rule, list) and len(rule) == 2 and all(isinstance(x, (int, float)) for x in rule):
        lo, hi = rule
    elif isinstance(rule, list) and rule:
        return rng.choice(rule)
    else:
        lo = hi = None
    if f.type in ("int", "number", "money"):
        lo = f.min if lo is None and f.min is not None else (lo if lo is not None else 1)
        hi = f.max if hi is None and f.max is not None else (hi if hi is not None else (20 if f.type == "int" else 500))
        if f.type == "int":
            return rng.randint(int(lo), int(hi))
        value = rng.uniform(lo, hi)
        return round(value) if f.type == "money" and hi >= 200 and rng.random() < 0.4 else round(value, 2)
    if f.type in ("date", "datetime"):
        lo, hi = (lo, hi) if lo is not None else (-30, 30)
        day = clock.date() + timedelta(days=rng.randint(int(lo), int(hi)))
        if f.type == "date":
            return day.isoformat()
        return datetime.combine(day, time(rng.randint(8, 17), rng.choice([0, 15, 30, 45]))).isoformat()
    return sample_text(spec, e, f, fake, row)


__all__ = ["ALIASES", "DEFAULT_SAMPLES", "DOMAIN_SAMPLES", "FAKER_SAMPLES", "SampleError", "sample_names", "sample_seed", "sample_text"]
