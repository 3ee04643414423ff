"""Look-up families answered in text: one base class and one verifier template for all of them.

A look-up family's verifier judges `final.answer` with the kit's answer matcher (`answers.py`), whose source
it carries inlined (confined verifier code imports nothing of the project). Every such verifier has the same
shape, a "right" criterion (the answer gives the value) and an "only" one (it names no other candidate), so
it is written once here:

    class EventStartTime(AnswerFamily):
        verifier_template = answer_verifier("time", "time")   # answer_context["time"] is the expected value
"""

from __future__ import annotations

from contracts.family import Family, Requirements

from .answers import VERIFIER_SOURCE

CRITERIA = {"date": ("right_date", "no_wrong_date"), "time": ("right_time", "no_other_time"),
            "amount": ("right_amount", "no_other_amount"), "count": ("right_count", "no_other_count"),
            "name": ("right_name", "no_other_name"), "text": ("right_value", "no_other_value")}
"""Kind of answer -> the ids of its two criteria ("the answer gives the value", "and no other"), unless a family names its own."""


class AnswerFamily(Family):
    """A look-up answered in text: the verifier judges `final.answer` with the kit's answer matcher."""

    def verifier(self, req: Requirements) -> str:
        return VERIFIER_SOURCE + super().verifier(req)


def answer_verifier(kind: str, key: str, *, others: str | None = None, right: str | None = None, only: str | None = None) -> str:
    """The verifier template of a look-up whose expected value is `answer_context[key]`, judged as a `kind` answer.

    `others` names the context key of the other candidates (names: everyone else the app shows); a date is read
    relative to the verifier's frozen today, so "October 20" means the nearest October 20 to the task's clock.
    """
    if kind not in CRITERIA:
        raise ValueError(f"unknown answer kind {kind!r}; known: {', '.join(CRITERIA)}")
    right, only = right or CRITERIA[kind][0], only or CRITERIA[kind][1]
    head = "from datetime import date\n\n\n" if kind == "date" else ""
    extra = (f", others={{{{ {others}|py }}}}" if others else "") + (", today=date.today()" if kind == "date" else "")
    return (f"\n{head}def verify(final):\n"
            f"    said = answer_matches(final.answer, \"{kind}\", {{{{ {key}|py }}}}{extra})\n"
            f"    return {{\"{right}\": said[\"right\"], \"{only}\": said[\"only\"]}}\n")


__all__ = ["AnswerFamily", "CRITERIA", "answer_verifier"]
