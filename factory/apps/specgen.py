"""New app specs for a category: deterministic variations of catalogue specs (template provider), or a spec an
LLM writes against the spec schema (any other provider). Either way the result is an `AppSpec` the kit compiles.

The template provider keeps a catalogue spec's state machine (so its derived families stay sound) and varies
what makes a product look and read differently: name and title, tagline, palette, typography, density, corners,
header and navigation, page order and titles, and the sample data's seed and size.
"""

from __future__ import annotations

import json
import random

from contracts.registry import check_name
from factory.providers import ProviderError, get_provider
from mocked_apps.catalogue import compiled
from mocked_apps.kit.spec import AppSpec, read_spec

_PALETTES = [("#2563eb", "#f8fafc", "#ffffff", "#0f172a"), ("#db2777", "#fdf2f8", "#ffffff", "#1f1020"),
             ("#059669", "#f0fdf4", "#ffffff", "#052e16"), ("#ea580c", "#fff7ed", "#ffffff", "#1c1917"),
             ("#7c3aed", "#f5f3ff", "#ffffff", "#1e1b4b"), ("#0891b2", "#ecfeff", "#ffffff", "#083344"),
             ("#facc15", "#18181b", "#27272a", "#fafafa"), ("#22c55e", "#0b1120", "#111827", "#e5e7eb")]
_PREFIX = ["Nova", "Bright", "Blue", "Kind", "True", "Swift", "Civic", "Maple", "Harbor", "Open", "Peak", "Urban"]
_SUFFIX = ["Hub", "Desk", "Go", "Point", "Works", "Line", "Base", "Now", "Place", "Central"]


def categories() -> dict[str, list[str]]:
    """Catalogue category -> the specs in it."""
    out: dict[str, list[str]] = {}
    for name, path in compiled().items():
        out.setdefault(read_spec(path).category, []).append(name)
    return out


def vary_spec(category: str, seed: int = 0) -> AppSpec:
    """A deterministic variation of a catalogue spec of `category` (did-you-mean on an unknown category)."""
    cats = categories()
    category = check_name("app category", category, cats)
    rng = random.Random(f"{category}/{seed}")
    base = read_spec(compiled()[rng.choice(sorted(cats[category]))])
    word = rng.choice(_PREFIX) + rng.choice(_SUFFIX)
    accent, background, surface, ink = rng.choice(_PALETTES)
    theme = base.theme.model_copy(update={
        "accent": accent, "background": background, "surface": surface, "ink": ink,
        "font": rng.choice(["sans", "serif", "rounded", "mono", "condensed"]),
        "density": rng.choice(["compact", "comfortable", "spacious"]), "corners": rng.choice(["sharp", "rounded", "pill"]),
        "header": rng.choice(["light", "dark", "accent"])})
    pages = list(base.pages)
    rng.shuffle(pages)
    entities = tuple(e.model_copy(update={"rows": max(8, min(40, e.rows + rng.randint(-3, 8)))}) for e in base.entities)
    return base.model_copy(update={
        "name": f"{word.lower()}_{base.name}"[:40], "title": f"{word} {base.title.split()[-1]}",
        "tagline": f"{base.tagline or base.description.split(' - ')[0]} — by {word}.", "theme": theme,
        "nav": rng.choice(["sidebar", "tabs", "bottom"]), "pages": tuple(pages), "entities": entities,
        "sample_seed": rng.randint(1, 10_000)})


def llm_spec(category: str, provider: str, model: str | None = None) -> AppSpec:
    """A new spec written by an LLM provider for `category`, validated against `AppSpec` (retried with the error)."""
    example = read_spec(next(iter(compiled().values()))).model_dump(mode="json", by_alias=True)
    messages = [
        {"role": "system", "content": "You design mocked web apps as declarative specs for a GUI-agent training factory."},
        {"role": "user", "content": f"Write a new, original app spec for the category {category!r}: a believable product "
         "with 1-3 entities, a state machine on the main entity (3-5 states, 2-4 transitions, inputs where a person would "
         "type something), a create form, a table page per entity and 1-2 other archetype pages. Answer with JSON only, "
         f"shaped like this example:\n{json.dumps(example)[:6000]}"},
    ]
    llm = get_provider(provider, **({"model": model} if model else {}))
    try:
        return llm.structured(messages, AppSpec)
    except ProviderError:
        raise
    finally:
        llm.close()


def new_spec(category: str, provider: str = "template", seed: int = 0, model: str | None = None) -> AppSpec:
    """A new spec for `category`: `template` varies the catalogue; any other provider writes one."""
    return vary_spec(category, seed) if provider == "template" else llm_spec(category, provider, model)


__all__ = ["categories", "llm_spec", "new_spec", "vary_spec"]
