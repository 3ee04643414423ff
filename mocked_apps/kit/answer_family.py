"""Look-up families answered in text: one base class, one verifier template and one golden shape for all of them.

A look-up family's verifier judges `final.answer` with the kit's answer matcher (`answers.py`), whose source
it carries inlined (confined verifier code imports nothing of the project). Every such verifier has the same
shape, a "right" criterion (the answer gives the value) and an "only" one (it names no other candidate); every
golden solution too, a route to the value and the value, with a second solution taking another route and saying
the value in a sentence. So a family declares only what is its own:

    class EventStartTime(AnswerFamily):
        def requirements(self, world, rng):
            ...
            return self._req(instruction, ctx, self.criteria(f"The answer gives {ctx['time']}, ...", "The answer names no other time."))

        answer = AnswerSpec("time", "time", golden="{time_text}", sentence="It starts at {time}.")

        def routes(self, c):  # search for the event; or browse the agenda to it
            return _open_event(c["title"]), ('env.click("Agenda", role="link")', f'env.click({c["title"]!r}, role="link")')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from contracts.family import Family, Requirements, render_code, solve_source, with_alternative
from contracts.task import Criterion

from .answers import VERIFIER_SOURCE

CRITERIA = {"date": ("right_date", "no_wrong_date"), "time": ("right_time", "no_other_time"),
            "amount": ("right_amount", "no_other_amount"), "count": ("right_count", "no_other_count"),
            "name": ("right_name", "no_other_name"), "text": ("right_value", "no_other_value")}
"""Kind of answer -> the ids of its two criteria ("the answer gives the value", "and no other"), unless a family names its own."""

Steps = str | tuple[str, ...]
"""Golden steps: one step's source (a recipe's, or one `env.` call) or several, in order."""


@dataclass(frozen=True)
class AnswerSpec:
    """What a look-up answers: its kind, where the answer context keeps the expected value, and how the two solutions say it.

    `golden` and `sentence` are `str.format` templates over the answer context ("{time_text}", "${price:,.2f}"); in
    `sentence` the expected value of a date answer is a `date`, so "{due:%A}" gives its weekday.
    """

    kind: str
    key: str
    golden: str
    sentence: str = ""
    others: str | None = None
    """The context key of the other candidates (names: everyone else the app shows)."""

    def __post_init__(self) -> None:
        _ids(self.kind)


class AnswerFamily(Family):
    """A look-up answered in text: the verifier judges `final.answer` with the kit's answer matcher.

    A family declaring `answer` gets its verifier from it, and its golden code and second solution from `routes`
    (each route, then the value: as `answer.golden` after the first, as `said` after the second).
    """

    answer: ClassVar[AnswerSpec]

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "answer" in vars(cls):
            cls.verifier_template = answer_verifier(cls.answer.kind, cls.answer.key, others=cls.answer.others)

    def criteria(self, gives: str, no_other: str) -> list[Criterion]:
        """The two criteria of the answer: it `gives` the value, and (weight 0.5) `no_other`."""
        return answer_criteria(self.answer.kind, gives, no_other)

    def routes(self, c: dict) -> tuple[Steps, Steps | None]:
        """The golden steps to the value on screen, and another way there (browse instead of search) or None."""
        raise NotImplementedError(f"{type(self).__name__} declares neither routes nor golden")

    def said(self, c: dict) -> str:
        """The second solution's answer; a family whose sentence needs more than a template (a plural) overrides it."""
        key = self.answer.key
        return self.answer.sentence.format_map((c | {key: date.fromisoformat(c[key])}) if self.answer.kind == "date" else c)

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return with_alternative(_solve(self.routes(c)[0], self.answer.golden.format_map(c)), self.alternative(req))

    def alternative(self, req: Requirements) -> str | None:
        c = req.answer_context
        other = self.routes(c)[1]
        return None if other is None else _solve(other, self.said(c))

    def verifier(self, req: Requirements) -> str:
        today = {_TODAY: task_today(req)} if self.answer.kind == "date" else {}
        return VERIFIER_SOURCE + render_code(self.verifier_template, req.answer_context | today)


def _solve(steps: Steps, said: str) -> str:
    return solve_source(*((steps,) if isinstance(steps, str) else steps), f"env.answer({said!r})")


def _ids(kind: str, right: str | None = None, only: str | None = None) -> tuple[str, str]:
    if kind not in CRITERIA:
        raise ValueError(f"unknown answer kind {kind!r}; known: {', '.join(CRITERIA)}")
    return right or CRITERIA[kind][0], only or CRITERIA[kind][1]


def answer_criteria(kind: str, gives: str, no_other: str, *, right: str | None = None, only: str | None = None) -> list[Criterion]:
    """The two criteria of a `kind` answer, ids from `CRITERIA` (or `right`, `only`): `gives` the value, and (weight 0.5) `no_other`."""
    right, only = _ids(kind, right, only)
    return [Criterion(id=right, description=gives), Criterion(id=only, description=no_other, weight=0.5)]


_TODAY = "task_today"
"""The name, in a date verifier's template, of the task's today (ISO): `task_today(req)`, not an answer-context key."""


def task_today(req: Requirements) -> str:
    """The date of the task's clock (ISO), which a date verifier carries: "October 20" is the October 20 nearest it."""
    if req.clock is None:
        raise ValueError(f"{req.family}: a date answer is read against the task's clock, and these requirements carry none "
                         "(factory.tasks.synthesize.build_task sets it)")
    return req.clock.date().isoformat()


def answer_verifier(kind: str, key: str, *, others: str | None = None, right: str | None = None, only: str | None = None) -> str:
    """The verifier template of a look-up whose expected value is `answer_context[key]`, judged as a `kind` answer.

    `others` names the context key of the other candidates (names: everyone else the app shows). A date verifier
    carries the task's today as a literal (`task_today`), so "October 20" means the October 20 nearest the task's
    clock wherever the verifier runs, not the nearest to the day of the process that runs it.
    """
    right, only = _ids(kind, right, only)
    head = (f"from datetime import date\n\nTODAY = date.fromisoformat({{{{ {_TODAY}|py }}}})  # the task's clock\n\n\n"
            if kind == "date" else "")
    extra = (f", others={{{{ {others}|py }}}}" if others else "") + (", today=TODAY" if kind == "date" else "")
    return (f"\n{head}def verify(final):\n"
            f"    said = answer_matches(final.answer, \"{kind}\", {{{{ {key}|py }}}}{extra})\n"
            f"    return {{\"{right}\": said[\"right\"], \"{only}\": said[\"only\"]}}\n")


__all__ = ["AnswerFamily", "AnswerSpec", "CRITERIA", "Steps", "answer_criteria", "answer_verifier", "task_today"]
