"""Names with did-you-mean: one helper behind the registries of apps, agents, providers, backends and families.

    AGENTS = Registry("agent", {"golden": "runtime.agents.golden:GoldenAgent"}, hidden={"scripted"})
    cls = AGENTS.load("goldne")   # UnknownName: unknown agent 'goldne'; did you mean golden?

Entry points are `module:attr` strings, imported only when used. Hidden names (test-only
plug-ins) resolve from Python but are never offered: not in `names()`, not in the hints.
"""

from __future__ import annotations

import difflib
import importlib
from typing import Any, Iterable, Mapping

from contracts.errors import InputError

__all__ = ["Registry", "UnknownName", "check_name", "suggest"]


class UnknownName(InputError, LookupError):
    """A name that is not registered; the message suggests near names or lists the known ones."""

    def __init__(self, kind: str, name: str, known: Iterable[str]):
        self.kind, self.name, self.known = kind, name, sorted(known)
        self.near = suggest(name, self.known)
        hint = f"did you mean {', '.join(self.near)}?" if self.near else f"known: {', '.join(self.known) or 'none'}"
        super().__init__(f"unknown {kind} {name!r}; {hint}")

    def __str__(self) -> str:  # KeyError subclasses would quote it otherwise
        return str(self.args[0])


def suggest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Near names of `name` among `known`, best first: difflib ratio >= 0.5 and within 0.1 of the best one (with 216
    apps, 'gmial' came back as 'mail, inkseal, gearlog')."""
    near = difflib.get_close_matches(name, list(known), n=n, cutoff=0.5)
    if not near:
        return []
    ratio = lambda other: difflib.SequenceMatcher(None, name, other).ratio()  # noqa: E731 - as get_close_matches scores
    best = ratio(near[0])
    return [other for other in near if ratio(other) >= best - 0.1]


def check_name(kind: str, name: str, known: Iterable[str], error: type[UnknownName] = UnknownName) -> str:
    """`name` if it is among `known`; else `error` (an UnknownName) with did-you-mean."""
    known = list(known)
    if name in known:
        return name
    raise error(kind, name, known)


class Registry:
    """`name -> "module:attr"` entry points of one kind; `hidden` names are for tests, never offered."""

    def __init__(self, kind: str, entries: Mapping[str, str], hidden: Iterable[str] = (), error: type[UnknownName] = UnknownName):
        self.kind, self.error = kind, error
        self._entries = dict(entries)
        self._hidden = set(hidden)

    def register(self, name: str, entry_point: str, hidden: bool = False) -> None:
        self._entries[name] = entry_point
        (self._hidden.add if hidden else self._hidden.discard)(name)

    def names(self) -> list[str]:
        """The names offered to users (hidden ones left out), sorted."""
        return sorted(n for n in self._entries if n not in self._hidden)

    def check(self, name: str, *, public: bool = True) -> str:
        """`name` if registered (and offered, when `public`); else UnknownName suggesting offered names only."""
        if name in self._entries and not (public and name in self._hidden):
            return name
        raise self.error(self.kind, name, self.names())

    def entry_point(self, name: str) -> str:
        return self._entries[self.check(name, public=False)]

    def load(self, name: str) -> Any:
        """The object the entry point names, imported now."""
        module, _, attr = self.entry_point(name).partition(":")
        return getattr(importlib.import_module(module), attr)

    def __contains__(self, name: object) -> bool:
        return name in self._entries
