"""Recall in validation: honest variants of the golden final, on which a task must still succeed.

The probes (`factory.verifiers.probes`) prove a verifier refuses what is wrong; these prove it pays what
is right but done another way, as an honest agent does it. From the golden run's final validation
derives finals that change nothing a person asked about, and scores each through the one scoring path
(`score_final`: footprint guard, then the verifier). Failure on any of them rejects the task, with a
reason that names the variant:

| variant | the final | reason when it is refused |
|---|---|---|
| answer form | the golden answer rephrased: a date in every unambiguous form ("October 20", "Tuesday, October 20", "the 20th of October 2026", "10/20/2026", "20.10.2026", "2026/10/20"), a time, an amount with or without its currency, a count in words, a name in another case, each alone and in a sentence | `recall_answer_form` |
| view | every row's declared view state (`message.read`: what the user looked at) set one way, then the other | `recall_view` |
| note | a friendly note in an empty optional comment of the record the golden run changed (the harmless-note rule of `factory.verifiers.footprint`) | `recall_note` |
| alternative | the family's second solution (`contracts.family.ALTERNATIVE`), another route, run for real by validation | `recall_alternative` |

The first three are data and run in ONE sandbox child for the whole batch (`check_recall`); the
alternative takes a browser run, so validation drives it (`alternative_task` gives the task to play).
"""

from __future__ import annotations

import re
import time
from datetime import date, datetime
from typing import Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.family import ALTERNATIVE
from contracts.footprint import collateral, diff, row_key
from contracts.scoring import Final, VerdictError, score_final
from contracts.task import Task
from factory.verifiers.footprint import app_rules, note_fields
from mocked_apps.kit.answers import answer_values
from runtime.sandbox import verify_many

__all__ = ["RecallKind", "RecallReason", "RecallReport", "Variant", "alternative_task", "answer_forms", "check_recall",
           "derive_variants", "has_alternative"]

RecallKind = Literal["answer_form", "view", "note", "alternative"]
RecallReason = Literal["recall_answer_form", "recall_view", "recall_note", "recall_alternative"]
NOTE = "Thanks, all good!"
"""The harmless note an honest agent adds beside what it was asked to do."""

_ORDINAL = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty").split()
_SENTENCES = ("The answer is {}.", "It's {}, I checked.")
_ALTERNATIVE_DEF = re.compile(rf"^def {ALTERNATIVE}\(", re.M)


class Variant(BaseModel):
    """One honest final derived from the golden one, and how it was made."""

    model_config = ConfigDict(frozen=True)

    kind: RecallKind
    name: str = Field(description="What the variant did, e.g. \"answer '10/20/2026'\".")
    final: Final


class RecallReport(BaseModel):
    """The honest variants of one task: how many were tried and paid, and the first refused."""

    model_config = ConfigDict(frozen=True)

    tried: int = Field(default=0, description="Honest variants scored.")
    paid: int = Field(default=0, description="Of those, the ones that succeeded.")
    kinds: tuple[str, ...] = Field(default=(), description="The kinds of the variants tried, sorted.")
    refused: tuple[str, ...] = Field(default=(), description="'kind: name' of every variant refused.")
    reason: RecallReason | None = Field(default=None, description="None when every variant was paid.")
    detail: str = ""
    seconds: float = 0.0


# ---- answer forms --------------------------------------------------------------------------------
def answer_forms(answer: str, today: date | None = None) -> list[str]:
    """Rephrasings of a golden answer an honest agent may write, each giving the same one value.

    The value is read with the kit's matcher: one date, else one time, else one amount, else one
    count; anything else is a name or free text. Each form also comes inside a sentence.
    """
    text = answer.strip()
    if not text:
        return []
    forms = _value_forms(text, today)
    forms = [f for f in dict.fromkeys(forms) if f != text]
    return forms + [s.format(f) for s, f in zip(_SENTENCES, [text, *forms[:1]])]


def _value_forms(text: str, today: date | None) -> list[str]:
    dates = answer_values(text, "date", today=today)
    if len(dates) == 1 and len(dates[0]) == 1:
        return _date_forms(next(iter(dates[0])), today)
    if dates:
        return []  # several dates: the golden answer is no single value to rephrase
    times = answer_values(text, "time")
    if len(times) == 1 and len(times[0]) == 1:
        return _time_forms(next(iter(times[0])))
    amounts = answer_values(text, "amount")
    if len(amounts) == 1:
        value, currency = next(iter(amounts[0]))
        if currency is None and float(value).is_integer() and 0 <= value <= 20 and re.fullmatch(r"\d+", text):
            return [_WORDS[int(value)], _WORDS[int(value)].capitalize(), f"{int(value)} in total"]
        return _amount_forms(value, currency)
    return _text_forms(text)


def _date_forms(d: date, today: date | None) -> list[str]:
    forms = [f"{d:%B} {d.day}, {d.year}", f"{d:%b} {d.day}, {d.year}", f"{d:%B} {d.day} {d.year}", f"{d:%b} {d.day} {d.year}",
             f"{d.day} {d:%B} {d.year}",
             f"the {d.day}{_ORDINAL.get(d.day, 'th')} of {d:%B} {d.year}", f"{d:%A}, {d:%B} {d.day}, {d.year}",
             d.isoformat(), f"{d.year}/{d.month:02d}/{d.day:02d}", f"{d.day:02d}.{d.month:02d}.{d.year}"]
    if d.day > 12 or d.day == d.month:  # slashed, month first: unambiguous only then
        forms.append(f"{d.month}/{d.day}/{d.year}")
    if today is not None and abs((d - today).days) < 150:  # without a year: the occurrence nearest today
        forms += [f"{d:%B} {d.day}", f"{d:%A}, {d:%B} {d.day}"]
    return forms


def _time_forms(hhmm: str) -> list[str]:
    h, m = (int(x) for x in hhmm.split(":"))
    half = "am" if h < 12 else "pm"
    twelve = h % 12 or 12
    forms = [f"{h:02d}:{m:02d}", f"{twelve}:{m:02d} {half.upper()}", f"{twelve}:{m:02d} {half[0]}.m."]
    if m == 0:
        forms.append(f"{twelve} {half}")
    return forms


def _amount_forms(value: float, currency: str | None) -> list[str]:
    minus, size = "-" if value < 0 else "", abs(value)
    plain, grouped, short = f"{minus}{size:.2f}", f"{minus}{size:,.2f}", f"{minus}{size:g}"
    if currency is None:
        return [plain, grouped, short]
    sign = {"USD": "$", "EUR": "€", "GBP": "£"}.get(currency)
    forms = [f"{grouped} {currency}", f"{short} {currency}", f"{currency} {grouped}"]
    return forms + ([f"{minus}{sign}{size:,.2f}", f"{minus}{sign}{size:.2f}", f"{minus}{sign}{size:g}"] if sign else [])


def _text_forms(text: str) -> list[str]:
    """Case, quotes, spacing and a full stop: what a name or a title may come with (word order is kept)."""
    return [text.lower(), text.upper(), f"\u201c{text}\u201d", " ".join(text.split()) + "."]


# ---- deriving variants ---------------------------------------------------------------------------
def derive_variants(task: Task, golden: Final) -> list[Variant]:
    """Every honest data variant of `task`'s golden final (answer forms, view state, a note)."""
    today = datetime.fromisoformat(task.clock).date() if task.clock else None
    variants = [Variant(kind="answer_form", name=f"answer {form!r}", final=golden.model_copy(update={"answer": form}))
                for form in answer_forms(golden.answer or "", today)]
    return variants + list(_views(golden)) + list(_notes(golden))


def _views(golden: Final) -> Iterator[Variant]:
    """Each declared view-state field (a bool) set on every row, then cleared on every row."""
    for app, tables in golden.state.items():
        for spec in sorted(app_rules(app).view_state):
            table, field = spec.split(".", 1)
            rows = tables.get(table, [])
            if not rows or not all(isinstance(r.get(field), bool) for r in rows):
                continue
            for value in (True, False):
                if any(r[field] != value for r in rows):
                    state = {**golden.state, app: {**tables, table: [{**r, field: value} for r in rows]}}
                    yield Variant(kind="view", name=f"every {app}.{spec} {value}", final=golden.model_copy(update={"state": state}))


def _notes(golden: Final) -> Iterator[Variant]:
    """The golden final with a note written in the empty comment of each record the golden run changed."""
    for change in diff(golden.initial_state, golden.state):
        if change.kind != "changed":
            continue
        rows = golden.state[change.app][change.table]
        before = next((r for r in golden.initial_state[change.app][change.table] if row_key(r) == change.key), {})
        after = next(r for r in rows if row_key(r) == change.key)
        for field in note_fields(change.app, change.table, before, after):
            noted = [{**r, field: NOTE} if row_key(r) == change.key else r for r in rows]
            state = {**golden.state, change.app: {**golden.state[change.app], change.table: noted}}
            yield Variant(kind="note", name=f"a note in {change.app}.{change.table}[{change.key}].{field}",
                          final=golden.model_copy(update={"state": state}))


# ---- the second solution -------------------------------------------------------------------------
def has_alternative(task: Task) -> bool:
    """Whether the task's golden code carries a second solution (`contracts.family.ALTERNATIVE`)."""
    return bool(_ALTERNATIVE_DEF.search(task.golden))


def alternative_task(task: Task) -> Task:
    """The task whose golden code runs the second solution instead of the first."""
    return task.model_copy(update={"golden": f"{task.golden}\n\nsolve = {ALTERNATIVE}\n"})


# ---- running them --------------------------------------------------------------------------------
def check_recall(task: Task, golden: Final, timeout_s: float) -> RecallReport:
    """Derive the honest data variants of `task` (stamped with its footprint), score every one, report the refused.

    Variants the footprint guard refuses are refused without running the verifier; the others run
    in one sandbox child. Every variant is scored (recall is a rate), the first refused names the reason.
    """
    started = time.monotonic()
    variants = derive_variants(task, golden)
    kinds = tuple(sorted({v.kind for v in variants}))
    guarded = [i for i, v in enumerate(variants) if not task.footprint or not collateral(task.footprint, v.final.initial_state, v.final.state)]
    verdicts: dict[int, Any] = {}
    if guarded:
        result = verify_many(task.verifier, [variants[i].final for i in guarded], timeout_s=timeout_s * 2, clock=task.clock)
        if not result.ok or not isinstance(result.value, list) or len(result.value) != len(guarded):
            return RecallReport(tried=len(variants), kinds=kinds, reason=_REASONS[variants[guarded[0]].kind], seconds=time.monotonic() - started,
                                detail=f"the verifier gave no verdicts on the honest variants: {result.error or 'no list'}")
        verdicts = dict(zip(guarded, result.value))
    refused: list[tuple[Variant, str]] = []
    for i, variant in enumerate(variants):
        why = _refusal(task, variant, verdicts.get(i))
        if why:
            refused.append((variant, why))
    first = refused[0] if refused else None
    return RecallReport(
        tried=len(variants), paid=len(variants) - len(refused), kinds=kinds, refused=tuple(f"{v.kind}: {v.name}" for v, _ in refused),
        reason=_REASONS[first[0].kind] if first else None, seconds=time.monotonic() - started,
        detail=f"refuses the honest variant '{first[0].name}': {first[1]}" if first else "",
    )


_REASONS: dict[str, RecallReason] = {"answer_form": "recall_answer_form", "view": "recall_view", "note": "recall_note",
                                     "alternative": "recall_alternative"}


def _refusal(task: Task, variant: Variant, answer: dict | None) -> str:
    """Why the variant was not paid ('' when it was)."""
    if answer is None:
        outside = collateral(task.footprint, variant.final.initial_state, variant.final.state) if task.footprint else ()
        return f"the footprint guard counts {list(outside)} as collateral"
    if "error" in answer:
        return f"verify() crashed: {answer['error']}"
    try:
        scored = score_final(task, variant.final, answer["verdicts"])
    except VerdictError as err:
        return str(err)
    return "" if scored.success and scored.reward >= 1.0 else f"verdicts {scored.verdicts} (reward {scored.reward:g})"
