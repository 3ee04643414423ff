"""Appearance and wording variants of an app (compiled or hand-made), deterministic from a variant seed.

FAIR's OpenApps found one agent's success swinging by more than 50% across appearance and content variants of
one app: a policy that sees one look learns positions and wordings instead of reading the page. A variant
changes how a compiled app looks and words its own controls, never what it holds:

- theme: palette, font, density, corners, header;
- layout: navigation in a sidebar, top tabs or a bottom bar; record lists as a table or as cards;
- icon-only controls (navigation, the search and "new" buttons), each keeping its accessible name;
- the kit's own words by synonyms ("Search" / "Find" / "Look up", "Remove" / "Delete" / "Trash"); a hand-made app
  that draws a synonym ("Dashboard", "Reserve") says it through the same vocabulary, so its variants reword it too;
- the date format (always one a person reads unambiguously: never 03/04).

Variant 0 is the app as its spec draws it. An instance gets a variant through its seed's reserved key
`_variant` (`variant_seed(k)`), kept beside the clock out of state dumps: the state, and so every verifier,
is the same under every variant. A task carries its variant (`Task.variant`); golden code says a kit word
through `env.word("Search")`, which answers in the task's variant. The spec's own words (entity names,
transition labels, field names) never change: they are the service's vocabulary, which the task's
instruction uses.
"""

from __future__ import annotations

import functools
import hashlib
import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import VARIANT_KEY

__all__ = ["VARIANT_KEY", "WORDS", "Variant", "drawn_variant", "split_variant", "variant_of", "variant_seed"]

WORDS: dict[str, tuple[str, ...]] = {
    "Search": ("Search", "Find", "Look up"),
    "New": ("New", "Add", "Create new"),
    "Create": ("Create", "Save", "Submit"),
    "Next": ("Next", "Continue"),
    "Back": ("Back", "Go back"),
    "Remove": ("Remove", "Delete", "Trash"),
    "Add to cart": ("Add to cart", "Add to basket", "Add to bag"),
    "Checkout": ("Checkout", "Check out", "Go to checkout"),
    "Place order": ("Place order", "Confirm order", "Buy now"),
    "Back to cart": ("Back to cart", "Return to cart"),
    "Send": ("Send", "Send message"),
    "Post": ("Post", "Reply"),
    "Book": ("Book", "Reserve"),
    "Save settings": ("Save settings", "Save changes", "Apply settings"),
    "Home": ("Home", "Overview", "Dashboard"),
    "All": ("All", "Everything", "Any status"),
}
"""The kit's own words and their synonyms (the first is the kit's); a variant picks one of each."""

_GROUP: dict[str, str] = {word: kit for kit, options in WORDS.items() for word in options}
"""Any word of a synonym group -> its kit word (each word is in one group)."""

# palettes readable by the checker's contrast rules: dark ink on a light background, white text on the accent
PALETTES: dict[str, tuple[str, str, str, str]] = {  # name -> accent, background, surface, ink
    "harbour": ("#1f5fbf", "#f4f6fa", "#ffffff", "#1b2230"),
    "forest": ("#2e6b3a", "#f3f6f1", "#ffffff", "#1d2a1f"),
    "plum": ("#6b2f8a", "#f7f3f9", "#ffffff", "#2a1f30"),
    "brick": ("#a33a22", "#faf5f2", "#ffffff", "#2d1f1a"),
    "slate": ("#37474f", "#eef1f3", "#fbfcfc", "#182024"),
    "teal": ("#00696b", "#f0f7f7", "#ffffff", "#132526"),
    "ochre": ("#8a5300", "#fbf7ef", "#fffdf8", "#2b2010"),
    "ink": ("#222222", "#f5f5f2", "#ffffff", "#111111"),
}

DATES: dict[str, str] = {
    "us": "%b %d, %Y",       # Mar 03, 2026 (the kit's own)
    "uk": "%d %b %Y",        # 03 Mar 2026
    "iso": "%Y-%m-%d",       # 2026-03-03
    "long": "%d %B %Y",      # 03 March 2026
}


class Variant(BaseModel):
    """One appearance and wording of every compiled app: what `variant_of(seed)` draws."""

    model_config = ConfigDict(frozen=True)

    seed: int = Field(ge=1)
    palette: str
    header: Literal["light", "dark", "accent"]
    font: Literal["sans", "serif", "rounded", "mono", "condensed"]
    density: Literal["compact", "comfortable", "spacious"]
    corners: Literal["sharp", "rounded", "pill"]
    nav: Literal["sidebar", "tabs", "bottom"]
    lists: Literal["table", "cards"] = Field(description="Record lists as a table or as a grid of cards.")
    icons: bool = Field(description="Navigation, search and 'new' buttons as icons with accessible names.")
    dates: Literal["us", "uk", "iso", "long"]
    words: dict[str, str] = Field(description="Kit word -> this variant's word for it.")

    def word(self, text: str) -> str:
        """This variant's word for a kit word or any of its synonyms: a hand-made app that draws "Dashboard" reads
        "Home" or "Overview" in other variants, as a compiled app's "Home" does. Any other text comes back as it is."""
        kit = _GROUP.get(text)
        return self.words.get(kit, text) if kit is not None else text

    @property
    def colors(self) -> tuple[str, str, str, str]:
        """accent, background, surface, ink."""
        return PALETTES[self.palette]

    @property
    def date_format(self) -> str:
        return DATES[self.dates]

    def theme(self, base):
        """The spec's theme (a `ThemeSpec`) in this variant's palette, font, density, corners and header."""
        accent, background, surface, ink = self.colors
        return base.model_copy(update={"accent": accent, "background": background, "surface": surface, "ink": ink,
                                       "header": self.header, "font": self.font, "density": self.density,
                                       "corners": self.corners})


@functools.lru_cache(maxsize=256)
def variant_of(seed: int) -> Variant | None:
    """The variant of `seed`: None for 0 (the app as its spec draws it); the same variant for the same seed, always."""
    if seed < 0:
        raise ValueError(f"a variant seed is 0 or more, not {seed}")
    if seed == 0:
        return None
    rng = random.Random(f"gymfactory-variant-{seed}")
    return Variant(
        seed=seed, palette=rng.choice(sorted(PALETTES)), header=rng.choice(("light", "dark", "accent")),
        font=rng.choice(("sans", "serif", "rounded", "mono", "condensed")),
        density=rng.choice(("compact", "comfortable", "spacious")), corners=rng.choice(("sharp", "rounded", "pill")),
        nav=rng.choice(("sidebar", "tabs", "bottom")), lists=rng.choice(("table", "cards")), icons=rng.random() < 0.5,
        dates=rng.choice(sorted(DATES)), words={kit: rng.choice(options) for kit, options in WORDS.items()},
    )


def drawn_variant(key: str, j: int) -> int:
    """The j-th variant seed (1-9999) drawn from `key` (a task's id, an app's name): the same key always gets the same
    looks, and two keys get different ones."""
    return 1 + int(hashlib.sha256(f"{key}/variant/{j}".encode()).hexdigest()[:8], 16) % 9999


def variant_seed(seed: int) -> dict[str, list[dict]]:
    """The seed entry that gives an instance variant `seed`: merge it into an app's seed (alone, it keeps the
    app's default records)."""
    return {VARIANT_KEY: [{"seed": int(seed)}]}


def split_variant(seed: dict) -> tuple[dict, int]:
    """(the seed without its variant entry, the variant seed: 0 when it has none); ValueError when malformed."""
    if VARIANT_KEY not in seed:
        return seed, 0
    rows = seed[VARIANT_KEY]
    if (not isinstance(rows, list) or len(rows) != 1 or not isinstance(rows[0], dict) or set(rows[0]) != {"seed"}
            or not isinstance(rows[0]["seed"], int) or isinstance(rows[0]["seed"], bool) or rows[0]["seed"] < 0):
        raise ValueError(f"seed.{VARIANT_KEY}: must be a list of one row {{\"seed\": a whole number >= 0}}")
    return {k: v for k, v in seed.items() if k != VARIANT_KEY}, rows[0]["seed"]
