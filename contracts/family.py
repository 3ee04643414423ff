"""Task families: requirements from a world's facts, then golden and verifier code apart.

A family writes the requirements (instruction, hidden answer context, criteria) from a world.
Golden code and verifier code are two separate generations from those requirements: the
verifier's author (a template here, an LLM elsewhere) is handed the requirements and the apps'
manifests and schemas, never the golden code.
"""

from __future__ import annotations

import functools
import random
import re
from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any, ClassVar, Literal

import jinja2
from pydantic import BaseModel, ConfigDict, Field

from .registry import UnknownName, check_name
from .task import Capability, Criterion
from .world import Invoice, World

__all__ = ["ALTERNATIVE", "Family", "PhoneFamily", "Requirements", "UnknownFamily", "first_name", "invoice_subject", "lookup", "money",
           "open_invoices", "pick", "render_code", "say", "solve_source", "with_alternative"]

ALTERNATIVE = "solve_another_way"
"""The name, in golden code, of a family's optional second solution: `solve_another_way(env)`, another route to
the same end written apart from `solve` (search instead of browse). Validation runs it too and requires success."""


class Requirements(BaseModel):
    """What a task asks and how success is judged, before any code exists."""

    model_config = ConfigDict(frozen=True)

    family: str
    apps: tuple[str, ...]
    instruction: str
    answer_context: dict[str, Any] = Field(description="Hidden ground truth the code is written against.")
    criteria: tuple[Criterion, ...]
    difficulty: Literal["easy", "medium", "hard"] = "medium"
    form_factor: Literal["desktop", "mobile"] = "desktop"
    clock: datetime | None = Field(default=None, exclude=True, description=(
        "The world's 'now', the task's clock: a verifier that reads a date relative to today carries it (set when the task "
        "is built; left out of the dump, so task ids stay as they were)."))


_CODE = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
_CODE.filters["py"] = repr
_template = functools.lru_cache(maxsize=None)(_CODE.from_string)  # a family's template compiles once, not per task


def render_code(template: str, values: dict[str, Any]) -> str:
    """Golden or verifier source from a family's Jinja template (`|py` writes a value as a Python literal)."""
    return _template(template).render(**values)


class Family(ABC):
    """One kind of task. Subclasses set the class attributes and write `requirements`."""

    name: ClassVar[str]
    apps: ClassVar[tuple[str, ...]]
    description: ClassVar[str]
    difficulty: ClassVar[Literal["easy", "medium", "hard"]] = "medium"
    capabilities: ClassVar[tuple[Capability, ...]] = ()
    form_factor: ClassVar[Literal["desktop", "mobile"]] = "desktop"  # the viewport its tasks run at
    golden_template: ClassVar[str]
    verifier_template: ClassVar[str]

    @property
    def cross_app(self) -> bool:
        return len(self.apps) > 1

    @abstractmethod
    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        """Requirements for a task in `world`, or None when the world lacks what the family needs."""

    def golden(self, req: Requirements) -> str:
        """Golden code (`solve(env)`) rendered from the requirements' answer context."""
        return render_code(self.golden_template, req.answer_context)

    def alternative(self, req: Requirements) -> str | None:
        """Optional: a second solution, `solve(env)` source taking another route than `golden`; None when there is none.

        A family that declares one returns `with_alternative(golden, alternative)` from `golden`, so the task's
        golden code carries both and validation runs each (`factory.verifiers.recall`, reason `recall_alternative`).
        """
        return None

    def verifier(self, req: Requirements) -> str:
        """Verifier code (`verify(final)`) rendered from the requirements alone."""
        return render_code(self.verifier_template, req.answer_context)

    def _req(self, instruction: str, answer_context: dict, criteria: list[Criterion]) -> Requirements:
        return Requirements(family=self.name, apps=self.apps, instruction=instruction, answer_context=answer_context,
                            criteria=tuple(criteria), difficulty=self.difficulty, form_factor=self.form_factor)


class PhoneFamily(Family):
    """A family whose tasks run at phone size (the real services are used on phones too)."""

    form_factor = "mobile"


_REQUESTS = frozenset(
    "accept add answer book buy cancel change check collect count create find flag follow forward get give go hand invite "
    "like look mark move open order pay post put rate refund rename reorder reply reschedule reserve return review save "
    "schedule send set settle share star start submit tell transfer".split())
"""Verbs a phrasing may open with to be a request, before which a formal voice says "Please" or "Kindly". What opens
otherwise (a question, "I need ...", "In Drive, ...", a name, "New note: ...") reads as written: "Kindly what time
...?" and "Please jonathan needs ..." are no English. A verb missing here only costs a phrasing its lead."""


def say(rng: random.Random, world: World, *phrasings: str, **values: Any) -> str:
    """One of several phrasings, in the persona's voice, with `values` filled in. A formal voice leads a request
    (a phrasing that opens with a verb of `_REQUESTS` and says no please of its own) with "Please" or "Kindly"."""
    phrasing = rng.choice(phrasings)
    text = phrasing.format(**values)
    style = world.persona.style
    if style == "friendly":
        text = rng.choice(["", "Hey! ", "Hi, ", "Quick one: "]) + text + rng.choice(["", " Thanks!", " Thanks a lot."])
    elif style == "formal" and text[0].isupper():
        lead = rng.choice(["Please ", "Kindly ", ""])  # with no lead the sentence keeps its capital
        if lead and _is_request(phrasing):
            text = lead + text[0].lower() + text[1:]
    return text.strip()


def _is_request(phrasing: str) -> bool:
    opener = re.match(r"[A-Za-z]+", phrasing)
    return bool(opener) and opener.group(0).lower() in _REQUESTS and not re.search(r"\b(?:please|kindly)\b", phrasing, re.I)


class UnknownFamily(UnknownName):
    """No family by that name; the message suggests near names."""


def lookup(families: dict[str, Family], name: str) -> Family:
    return families[check_name("task family", name, families, UnknownFamily)]


def solve_source(*steps: str) -> str:
    """Golden code `solve(env)` whose body is the given steps, in order (each: unindented lines, e.g. a recipe's)."""
    body = "\n".join("    " + line for step in steps for line in step.strip("\n").splitlines())
    return f"\ndef solve(env):\n{body}\n"


def with_alternative(golden: str, alternative: str | None) -> str:
    """Golden code carrying a second solution: `alternative`'s `solve(env)` renamed to `ALTERNATIVE` after `golden`."""
    if alternative is None:
        return golden
    renamed, count = re.subn(r"^def solve\(", f"def {ALTERNATIVE}(", alternative, count=1, flags=re.M)
    if not count:
        raise ValueError("the alternative solution defines no solve(env)")
    return golden.rstrip("\n") + "\n\n" + renamed


def open_invoices(world: World) -> list[Invoice]:
    """The world's invoices not yet paid."""
    return [i for i in world.invoices if not i.paid]


def pick(rng: random.Random, items: list):
    """One of `items` at random, or None when there are none."""
    return rng.choice(items) if items else None


def money(amount: float) -> str:
    """An amount as a person writes it in the instruction: `$1,234.50`."""
    return f"${amount:,.2f}"


def first_name(name: str) -> str:
    return name.split()[0]


def invoice_subject(world: World, inv: Invoice) -> str:
    """Subject of the message that carried the invoice (a world fact every mail projection keeps)."""
    return next(m.subject for m in world.messages if inv.filename in m.attachments)
