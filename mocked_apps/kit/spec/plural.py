"""English plurals of the kit's display names ("Delivery" -> "Deliveries", "Coach" -> "Coaches").

The rules of an English grammar (the regular endings, then the irregular and unchanging nouns a business app
names); a label of several words pluralises its head noun: "Delivery window" -> "Delivery windows",
"Bill of lading" -> "Bills of lading". The case of the word is kept.
"""

from __future__ import annotations

import re

IRREGULAR = {
    "person": "people", "child": "children", "man": "men", "woman": "women", "foot": "feet", "tooth": "teeth",
    "mouse": "mice", "goose": "geese", "ox": "oxen", "criterion": "criteria", "datum": "data", "medium": "media",
    "phenomenon": "phenomena", "cactus": "cacti", "quiz": "quizzes", "bus": "buses", "leaf": "leaves",
    "loaf": "loaves", "shelf": "shelves", "half": "halves", "knife": "knives", "life": "lives", "wife": "wives",
    "wolf": "wolves", "calf": "calves", "thief": "thieves", "hero": "heroes", "potato": "potatoes",
    "tomato": "tomatoes", "echo": "echoes", "veto": "vetoes", "index": "indices", "appendix": "appendices",
    "matrix": "matrices",
}
"""Nouns whose plural no ending rule gives."""
UNCHANGED = frozenset(
    "sheep fish deer species series equipment information staff news feedback luggage baggage furniture "
    "software hardware aircraft offspring moose salmon trout advice research music traffic mail".split()
)
"""Nouns with no distinct plural (or none at all)."""
_OF = re.compile(r"^(.+?)( (?:of|in|for|to|with|on|at|from|by|per) .+)$")


def plural(label: str) -> str:
    """The plural of a display name: its head noun pluralised, the rest as it is."""
    label = label.strip()
    if not label:
        return label
    match = _OF.match(label)
    if match:  # "Bill of lading": the head noun comes before the preposition
        return plural(match.group(1)) + match.group(2)
    head, _, last = label.rpartition(" ")
    word = _word(last)
    return f"{head} {word}" if head else word


def _word(word: str) -> str:
    lower = word.lower()
    if word.isupper() and len(word) > 1:  # an acronym: "SKU" -> "SKUs"
        return word + "s"
    if lower in UNCHANGED or not lower.isalpha():
        return word
    if lower in IRREGULAR:
        return _cased(word, IRREGULAR[lower])
    if re.search(r"[^aeiou]y$", lower):
        ending = word[:-1] + "ies"
    elif lower.endswith("sis"):  # analysis, diagnosis, thesis
        ending = word[:-2] + "es"
    elif re.search(r"(s|x|z|ch|sh)$", lower):
        ending = word + "es"
    else:
        ending = word + "s"
    return ending


def _cased(word: str, replacement: str) -> str:
    return replacement.capitalize() if word[:1].isupper() else replacement


__all__ = ["IRREGULAR", "UNCHANGED", "plural"]
