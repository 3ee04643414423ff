"""The content law: rendered pages read like the service they stand for, never lorem ipsum or word salad.

Judged on the visible text of the pages the crawl loaded, split into units (the lines and table cells a person
reads one at a time). The word lists are Faker's own (its Latin lorem, its English lorem, its catch-phrase and
CSS colour lists), so the law recognises exactly what a placeholder generator writes:

- Latin lorem: two or more lorem words (`consectetur adipisci`) in one unit;
- marketing nonsense: a Faker catch phrase (`Synergized bi-directional groupware`) or a CSS colour name
  (`DarkOrchid Strategy`);
- word salad: a unit of three or more words, every one a word of Faker's English lorem list, with almost none
  of the small words (the, of, to, your ...) that hold an English phrase together (`Bill performance kid
  political`). One such unit can be a fluke; `SALAD_LIMIT` of them fail the law.

Task instructions answer to the same law, and to what gives a generated sentence away (`instruction_problems`): "a"
before a vowel ("a appointment"), a program's value or name (`True`, `no_show`), a word said twice, or a polite lead
on what is no request ("Please in PawCare, ...", "Kindly pawCare: please ...", "Kindly i need ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from faker.providers.color.en_US import Provider as _Colours
from faker.providers.company.en_US import Provider as _Company
from faker.providers.lorem.en_US import Provider as _English
from faker.providers.lorem.la import Provider as _Latin

from .admin import Finding
from .crawl import Visit

SALAD_LIMIT = 3
"""Distinct word-salad units that fail the law (fewer are reported and pass: a real phrase can look like one)."""

GLUE = frozenset(
    "a an the of to in on at for with by from into over under about as and or but nor so if than then "
    "is are was were be been am it its this that these those there here i you he she we they me my your our "
    "their his her him them us not no do does did can will would should could may must have has had "
    "what which who when where how why all any each every some please per via up out off back down away near after "
    "before through between against without within during until since also just only more most very too".split()
)
"""Function words and particles (`Pay out`, `per bag`): real English phrases of a few words carry them; random draws
from a word list seldom do."""

_ENGLISH = frozenset(w.lower() for w in _English.word_list)
_LATIN = frozenset(w for w in _Latin.word_list if len(w) >= 5 and w not in _ENGLISH) - {
    "alias", "culpa", "minus", "magnam", "maxime", "error", "animi", "porro", "nobis", "omnis", "fugit", "quasi", "ratione"}
"""Latin lorem words that are no English words (short ones like `et`, `id`, `non` are left out)."""
_CATCH = tuple(frozenset(w.lower() for w in words) for words in _Company.catch_phrase_words)
_COLOURS = frozenset(name for name in _Colours.all_colors if re.search(r"[a-z][A-Z]", name))
"""CSS colour names written as one CamelCase word (`DarkOrchid`, `LightSlateGray`): never in a real text."""
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def units(text: str) -> list[str]:
    """The pieces of a page's visible text a person reads at once: its lines, tab-separated cells and sentences."""
    return [u.strip() for u in re.split(r"[\n\t]+|(?<=[.!?])\s+", text) if u.strip()]


def problem(unit: str) -> tuple[str, str] | None:
    """(kind, unit) when `unit` is lorem, marketing nonsense or word salad; None when it may be real text."""
    words = _WORD.findall(unit)
    lower = [w.lower() for w in words]
    if sum(w in _LATIN for w in lower) >= 2:
        return "lorem", unit
    if any(w in _COLOURS for w in words):
        return "colour name", unit
    for i in range(len(lower) - 2):
        if all(lower[i + k] in _CATCH[k] for k in range(3)):
            return "catch phrase", unit
    if len(lower) >= 3 and all(w in _ENGLISH for w in lower) and sum(w in GLUE for w in lower) / len(lower) < 0.25:
        return "word salad", unit
    return None


def problems(texts: Iterable[str]) -> dict[str, list[str]]:
    """kind -> the distinct units of that kind found in `texts` (the visible text of each page), in order."""
    found: dict[str, list[str]] = {}
    for text in texts:
        for unit in units(text):
            hit = problem(unit)
            if hit and hit[1] not in found.get(hit[0], ()):
                found.setdefault(hit[0], []).append(hit[1])
    return found


def failing(found: dict[str, list[str]]) -> bool:
    """Any lorem, catch phrase or colour name fails; word salad fails from SALAD_LIMIT distinct units on."""
    return any(kind != "word salad" and units for kind, units in found.items()) or len(found.get("word salad", ())) >= SALAD_LIMIT


def summary(found: dict[str, list[str]], pages: int) -> str:
    """One line per kind with up to three examples, or a clean verdict over `pages` pages."""
    if not found:
        return f"{pages} pages read as real text (no lorem, catch phrase, colour name or word salad)"
    return "\n".join(f"{kind}: {len(hits)} ({'; '.join(repr(h) for h in hits[:3])})" for kind, hits in found.items())


_TELLS = (
    ("a before a vowel", re.compile(r"\b[Aa] (?!uni|use|usu|ure|one|eu)[aeiouAEIOU]\w*")),
    ("a program's value", re.compile(r"\b(?:True|False)\b")),  # not None: "access arrangement: None" is a form's own choice
    ("a program's name", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("a word said twice", re.compile(r"(?<![\w-])(\w+) \1\b", re.I)),  # "walk-in in" is English
    ("a polite lead on no request", re.compile(r"^(?:(?:Hi|Hey|Quick one)[,!:]? )?(?:Please|Kindly) (?:in|how|what|who|which|when|"
                                                r"where|whose|could|can|would|i|we|my|our|the|for|on|at|until|"
                                                r"[a-z]+[A-Z]\w*)\b")),
    ("please twice", re.compile(r"\b(?:please|kindly)\b.*\bplease\b", re.I)),
)
"""What gives a generated instruction away, by name: a person writes none of them."""


def instruction_problems(instruction: str) -> list[str]:
    """'kind: the words' for each placeholder unit and each tell of generated text in a task instruction; [] when it
    reads as a person would write it."""
    found = [f"{kind}: {unit}" for kind, unit in filter(None, map(problem, units(instruction)))]
    said = re.sub(r'"[^"]*"', '"..."', instruction)  # quoted text is the data the task names (a title, a note), not its wording
    for kind, tell in _TELLS:
        hit = tell.search(said)
        if hit:
            found.append(f"{kind}: {hit.group(0)}")
    return found


def content_law(visits: Iterable[Visit]) -> Finding:
    """The content law over the pages a crawl rendered."""
    rendered = [v for v in visits if v.status is not None and v.status < 400]
    if not rendered:
        return Finding.not_run("no page was crawled")
    found = problems(v.text for v in rendered)
    return Finding(ok=not failing(found), evidence=summary(found, len(rendered)))


__all__ = ["GLUE", "SALAD_LIMIT", "content_law", "failing", "instruction_problems", "problem", "problems", "summary", "units"]
