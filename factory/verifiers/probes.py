"""Adversarial probes: negative finals derived from the golden one, on which a task must not succeed.

From the golden run's final (and the task's footprint) validation derives finals that look almost
done and scores each through the one scoring path (`score_final`: footprint guard, then the
verifier). Success on any of them rejects the task, with a reason that names the probe:

| probe | the final | reason when it succeeds |
|---|---|---|
| partial | one golden change (a row, or one field of a changed row) reverted alone | `probe_partial`, or `unverified_golden_change` when no verdict even moved |
| partial (new rows) | one field the golden run wrote into a new row, and the task names, blanked alone (a payment's memo) | `probe_partial` when it keeps full reward too |
| collateral | the golden final plus a row outside the footprint deleted or edited | `probe_collateral` |
| wrong target | a changed row's change applied to a sibling row instead; a new row re-pointed at a sibling of the record it belongs to | `probe_wrong_target` |
| answer | no answer, an empty one, a refusal, or every date of the month / amount / name in the state | `probe_answer_spam` |
| clock | the dates and times the golden run wrote (and the answer's dates) shifted | `probe_clock` |
| fuzz | the untouched state with the amounts the golden run moves as consequences (balances) scaled up and down; the golden final with a status it sets changed to another value of its column | `probe_fuzz` |

A blanked field of a new row may leave success standing when only an optional criterion checks it
(the memo of a payment whose memo is a nicety): that probe counts against the task only when it
also keeps full reward, i.e. no criterion at all reads the field. Fields the app fills itself are
never blanked: ids and references (`*_id`), the consequences the app declares (timestamps), values
the row copies from a record it references (a payment's payee name) and values its column already
holds (a kind, a status). Fuzz probes are few (two scales, at most two statuses) and drawn from the
task id, so a task gets the same probes in every run; they stay inside the footprint, since the
guard already fails any other change. A verifier that crashes on a blanked or fuzzed final is not
held against the task (the app may never produce that state).

A criterion the untouched state already meets ("nothing else changed") must still be false
somewhere: on a probe, or on one of two scrambled finals (every row deleted; every field of every
row edited). One that holds on all of them checks nothing: `criterion_vacuous`. A verifier that
crashes on a scrambled final (a state no app produces) is not held against it.

The new-row and fuzz probes live in `factory.verifiers.probes_state`, what every probe shares in
`factory.verifiers.probe_kit`.

Changes the apps declare as consequences (`AppManifest.consequences`: timestamps, posted
transaction lines, balances) are never reverted or shifted alone. Every probe that passes the
guard runs in ONE sandbox child (one process start for the whole batch), together with the golden
final as a control: its verdicts must equal the golden phase's, which ran in another process
(another hash seed), so verdicts that hang on set order or process state are caught too.
"""

from __future__ import annotations

import calendar
import re
import time
from datetime import date, datetime, timedelta
from typing import Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.footprint import Change, collateral, diff, row_key
from contracts.scoring import Final, VerdictError, score_final
from contracts.task import Task
from factory.verifiers.footprint import AppRules, app_rules
from factory.verifiers.probe_kit import DATETIME, Probe, ProbeKind, another_value, make_probe, referenced, rows_by_key, task_text, with_rows
from factory.verifiers.probes_state import fuzz, inserted
from runtime.sandbox import verify_many

__all__ = ["Probe", "ProbeKind", "ProbeReason", "ProbeReport", "REFUSAL", "check_probes", "derive_probes"]

ProbeReason = Literal[
    "probe_partial", "probe_collateral", "probe_wrong_target", "probe_answer_spam", "probe_clock", "probe_fuzz",
    "unverified_golden_change", "criterion_vacuous", "nondeterministic_verdicts", "verifier_crash", "verifier_timeout",
    "verifier_forbidden", "bad_output",
]
REFUSAL = "I'm sorry, but I can't help with that."

_ISO_IN_TEXT = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_MONTHS = [m for m in calendar.month_name if m]
_NAMED_IN_TEXT = re.compile(r"\b(" + "|".join(_MONTHS) + r"|" + "|".join(m[:3] for m in _MONTHS) + r")\.? (\d{1,2}),? (\d{4})\b")
_ERROR_REASONS: dict[str, ProbeReason] = {"timeout": "verifier_timeout", "forbidden": "verifier_forbidden", "bad_output": "bad_output"}


class ProbeReport(BaseModel):
    """The outcome of the probes of one task: the first one it failed, or none."""

    model_config = ConfigDict(frozen=True)

    probes: int = Field(description="Probes derived.")
    kinds: tuple[str, ...] = Field(default=(), description="The kinds of the probes derived (partial, collateral, ...), sorted.")
    verified: int = Field(description="Probes that passed the footprint guard and so ran the verifier (in one batch).")
    reason: ProbeReason | None = Field(default=None, description="None when the task passed every probe.")
    detail: str = ""
    seconds: float = 0.0


# ---- deriving probes ---------------------------------------------------------------------------
def derive_probes(task: Task, golden: Final) -> list[Probe]:
    """Every probe of `task`, from its golden final (the task must carry its footprint)."""
    rules = {app: app_rules(app) for app in golden.state}
    view_state = task.footprint.view_state if task.footprint else {}
    changes = diff(golden.initial_state, golden.state, view_state, task.footprint.inert_rows if task.footprint else {})
    probes: list[Probe] = []
    probes += _partial(golden, changes, rules)
    probes += _collateral(golden, changes, view_state)
    probes += _wrong_target(task, golden, changes, rules)
    probes += _answers(golden)
    probes += _clock(golden, changes, rules)
    probes += inserted(task, golden, changes, rules)  # after the others: a verifier blind to more than one field gets their reason
    probes += fuzz(task, golden, changes, rules)
    return probes


def _partial(golden: Final, changes: list[Change], rules: dict[str, AppRules]) -> Iterator[Probe]:
    for change in changes:
        rule, table = rules[change.app], change.table
        before, after = rows_by_key(golden.initial_state, change.app, table), rows_by_key(golden.state, change.app, table)
        if change.kind == "added":
            if rule.follows(table):
                continue
            rows = [r for k, r in after.items() if k != change.key]
        elif change.kind == "deleted":
            rows = [*after.values(), before[change.key]]
        else:
            own = [f for f in change.fields if not rule.follows(table, f)]
            if not own:
                continue
            rows = [before[change.key] if k == change.key else r for k, r in after.items()]
            if len(own) > 1:
                for field in own:
                    alone = [{**r, field: before[k][field]} if k == change.key else r for k, r in after.items()]
                    yield make_probe("partial", f"reverted {change.app}.{table}[{change.key}].{field} alone", golden,
                                 with_rows(golden, change.app, table, alone))
        yield make_probe("partial", f"reverted {change}", golden, with_rows(golden, change.app, table, rows))


def _collateral(golden: Final, changes: list[Change], view_state: dict[str, tuple[str, ...]]) -> Iterator[Probe]:
    touched = {(c.app, c.table, c.key) for c in changes}
    for app, tables in golden.state.items():
        for table, rows in tables.items():
            spare = next((r for r in rows if (app, table, row_key(r)) not in touched), None)
            if spare is None:
                continue
            key = row_key(spare)
            kept = [r for r in rows if row_key(r) != key]
            yield make_probe("collateral", f"deleted {app}.{table}[{key}]", golden, with_rows(golden, app, table, kept))
            field = next((f for f in sorted(spare) if f != "id" and f"{table}.{f}" not in view_state.get(app, ())), None)
            if field is not None and "id" in spare:
                edited = [{**r, field: another_value(r[field])} if row_key(r) == key else r for r in rows]
                yield make_probe("collateral", f"edited {app}.{table}[{key}].{field}", golden, with_rows(golden, app, table, edited))


def _wrong_target(task: Task, golden: Final, changes: list[Change], rules: dict[str, AppRules]) -> Iterator[Probe]:
    touched = {(c.app, c.table, c.key) for c in changes}
    named = task_text(task)
    for change in changes:
        rule, app, table = rules[change.app], change.app, change.table
        before, after = rows_by_key(golden.initial_state, app, table), rows_by_key(golden.state, app, table)
        if change.kind == "changed":
            own = [f for f in change.fields if not rule.follows(table, f)]
            target_before, target_after = before[change.key], after[change.key]
            siblings = [r for k, r in before.items() if (app, table, k) not in touched and k != change.key]
            sibling = next((r for r in siblings if all(r.get(f) == target_before.get(f) for f in own)), None)
            sibling = sibling or next((r for r in siblings if any(r.get(f) != target_after.get(f) for f in own)), None)
            if not own or sibling is None:
                continue
            moved = {**sibling, **{f: target_after[f] for f in own}}
            rows = [target_before if k == change.key else moved if k == row_key(sibling) else r for k, r in after.items()]
            yield make_probe("wrong_target", f"{change} applied to {app}.{table}[{row_key(sibling)}] instead", golden,
                         with_rows(golden, app, table, rows))
        elif change.kind == "added" and not rule.follows(table):
            row = after[change.key]
            yield from _sibling_content(golden, change, row, before, named)
            for field, value in sorted(row.items()):
                ref_table = referenced(field, golden.initial_state.get(app, {}))
                if ref_table is None or value is None:
                    continue
                refs = rows_by_key(golden.initial_state, app, ref_table)
                target = refs.get(str(value))
                if target is None or not _is_named(target, refs.values(), named):
                    continue  # only a record the task is about has siblings that would be the wrong one
                sibling = next((r for k, r in refs.items() if k != str(value)), None)
                if sibling is None:
                    continue
                moved = {f: sibling["id"] if f == field else _swap(v, target, sibling) for f, v in row.items()}
                rows = [moved if k == change.key else r for k, r in after.items()]
                yield make_probe("wrong_target", f"new {app}.{table} row's {field} pointed at {ref_table}[{sibling['id']}] instead of [{value}]",
                             golden, with_rows(golden, app, table, rows))


def _sibling_content(golden: Final, change: Change, row: dict, before: dict[str, dict], named: str) -> Iterator[Probe]:
    """The new row with a sibling record's content in every field the task names (another note's title and body)."""
    fields = [f for f, v in sorted(row.items()) if isinstance(v, str) and len(v.strip()) >= 3 and v.strip().lower() in named]

    def unlike(value: str, other) -> bool:
        a, b = value.strip().lower(), other.strip().lower() if isinstance(other, str) else ""
        return bool(b) and a not in b and b not in a and b not in named

    sibling = next((r for r in before.values() if fields and all(unlike(row[f], r.get(f)) for f in fields)), None)
    if sibling is None:
        return
    moved = {**row, **{f: sibling[f] for f in fields}}
    rows = [moved if k == change.key else r for k, r in rows_by_key(golden.state, change.app, change.table).items()]
    yield make_probe("wrong_target", f"new {change.app}.{change.table} row with {change.table}[{row_key(sibling)}]'s {', '.join(fields)}",
                 golden, with_rows(golden, change.app, change.table, rows))


def _is_named(row: dict, rows, text: str) -> bool:
    """Whether the task names this record: one of its own text values (not shared with a sibling) is in the task."""
    for field, value in row.items():
        if isinstance(value, str) and len(value.strip()) >= 4 and value.strip().lower() in text:
            if sum(1 for other in rows if other.get(field) == value) == 1:
                return True
    return False


def _swap(value: Any, target: dict, sibling: dict) -> Any:
    """A value the new row copied from its target record becomes the sibling's (e.g. a payee's name)."""
    if isinstance(value, str) and len(value) >= 3:
        for field, own in target.items():
            if own == value and field != "id":
                return sibling.get(field, value)
    return value


def _answers(golden: Final) -> Iterator[Probe]:
    """Nothing done but an answer given (every task); and, when the golden run answers, the wrong answers."""
    untouched = golden.initial_state
    values = list(_leaves(golden.state))
    names = sorted({v.strip() for v in values if isinstance(v, str) and 3 <= len(v.strip()) <= 60 and "\n" not in v})
    yield make_probe("answer_spam", "nothing done, a refusal as the answer", golden, untouched, answer=REFUSAL)
    yield make_probe("answer_spam", "nothing done, every name in the state as the answer", golden, untouched, answer="; ".join(names))
    if not (golden.answer or "").strip():
        return
    yield make_probe("answer_spam", "no answer", golden, answer=None)
    yield make_probe("answer_spam", "an empty answer", golden, answer="")
    yield make_probe("answer_spam", "a refusal", golden, answer=REFUSAL)
    found = _dates_in(golden.answer)
    if found:
        day = found[0]
        month = [date(day.year, day.month, d) for d in range(1, calendar.monthrange(day.year, day.month)[1] + 1)]
        text = ", ".join(f"{d:%B} {d.day}, {d.year} ({d.isoformat()})" for d in month)
        yield make_probe("answer_spam", "every date of the month", golden, answer=text)
    amounts = sorted({v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) >= 1})
    if amounts:
        yield make_probe("answer_spam", "every amount in the state", golden, answer=", ".join(f"${v:,.2f}" for v in amounts))
    if names:
        yield make_probe("answer_spam", "every name in the state", golden, answer="; ".join(names))


def _leaves(state: dict) -> Iterator[Any]:
    for tables in state.values():
        for rows in tables.values():
            for row in rows:
                for field, value in row.items():
                    if field != "id" and not field.endswith("_id"):
                        yield value


def _dates_in(text: str | None) -> list[date]:
    found = []
    for y, m, d in _ISO_IN_TEXT.findall(text or ""):
        try:
            found.append(date(int(y), int(m), int(d)))
        except ValueError:
            pass
    for name, d, y in _NAMED_IN_TEXT.findall(text or ""):
        month = next(i + 1 for i, full in enumerate(_MONTHS) if full.startswith(name[:3]))
        try:
            found.append(date(int(y), month, int(d)))
        except ValueError:
            pass
    return found


def _shift_text(text: str, delta: timedelta) -> str:
    """The same text with every date in it moved by `delta`, each written as it was."""
    def iso(m):
        try:
            return (date(int(m[1]), int(m[2]), int(m[3])) + delta).isoformat()
        except ValueError:
            return m[0]

    def named(m):
        month = next(i + 1 for i, full in enumerate(_MONTHS) if full.startswith(m[1][:3]))
        try:
            d = date(int(m[3]), month, int(m[2])) + delta
        except ValueError:
            return m[0]
        name = _MONTHS[d.month - 1] if len(m[1]) > 3 else _MONTHS[d.month - 1][:3]
        return f"{name} {d.day}, {d.year}"

    return _NAMED_IN_TEXT.sub(named, _ISO_IN_TEXT.sub(iso, text))


def _shifted(value: Any, delta: timedelta) -> Any:
    if not isinstance(value, str) or not DATETIME.match(value):
        return value
    if len(value) == 10:
        return (date.fromisoformat(value) + delta).isoformat()
    moved = datetime.fromisoformat(value.replace(" ", "T")) + delta
    sep = " " if " " in value else "T"
    text = moved.isoformat(sep=sep)
    if "." in value and "." not in text:
        text += ".000000"
    return text[: len(value)] if len(text) >= len(value) else text


def _clock(golden: Final, changes: list[Change], rules: dict[str, AppRules]) -> Iterator[Probe]:
    """The golden run's own dates and times moved by a day, and by an hour."""
    for delta, label in ((timedelta(days=1), "a day later"), (timedelta(hours=1), "an hour later")):
        state, moved = {a: dict(t) for a, t in golden.state.items()}, False
        for change in changes:
            rule, table = rules[change.app], change.table
            if change.kind == "deleted" or (change.kind == "added" and rule.follows(table)):
                continue
            rows = rows_by_key(state, change.app, table)
            row = rows[change.key]
            fields = change.fields if change.kind == "changed" else tuple(row)
            shifted = {f: _shifted(row[f], delta) for f in fields if not rule.follows(table, f)}
            if any(shifted[f] != row[f] for f in shifted):
                moved = True
                rows[change.key] = {**row, **shifted}
                state[change.app][table] = list(rows.values())
        answer = golden.answer
        if delta.days and answer and _dates_in(answer):
            answer, moved = _shift_text(answer, delta), True
        if moved:
            yield make_probe("clock", f"the golden run's dates and times {label}", golden, state, answer=answer)


# ---- running them ------------------------------------------------------------------------------
def check_probes(task: Task, golden: Final, golden_verdicts: dict[str, bool], timeout_s: float) -> ProbeReport:
    """Derive the probes of `task` (stamped with its footprint), score each, and report the first success.

    Probes the footprint guard already fails cost nothing; the others, with the golden final as a
    control, run in one sandbox child. `golden_verdicts` are the golden phase's own verdicts.
    """
    started = time.monotonic()
    probes = derive_probes(task, golden)
    to_verify = [p for p in probes if not collateral(task.footprint, p.final.initial_state, p.final.state)]
    scrambles = _scrambled(golden)
    finals = [golden, *(p.final for p in to_verify), *scrambles]
    result = verify_many(task.verifier, finals, timeout_s=timeout_s * 2, clock=task.clock)

    def report(reason: ProbeReason | None = None, detail: str = "") -> ProbeReport:
        return ProbeReport(probes=len(probes), verified=len(to_verify), kinds=tuple(sorted({p.kind for p in probes})),
                           reason=reason, detail=detail, seconds=time.monotonic() - started)

    if not result.ok:
        return report(_ERROR_REASONS.get(result.error_kind or "crash", "verifier_crash"), f"probes: {result.error}")
    if not isinstance(result.value, list) or len(result.value) != len(finals):
        return report("bad_output", "probes: the batch gave no verdict list")
    control, *answers = result.value
    answers, scrambled = answers[: len(to_verify)], answers[len(to_verify):]
    if control.get("verdicts") != golden_verdicts:
        return report("nondeterministic_verdicts",
                      f"the golden final gave {golden_verdicts} in one process and {control.get('verdicts') or control.get('error')} in another")
    for probe, answer in zip(to_verify, answers):
        if "error" in answer:
            if not probe.crash_counts:
                continue
            return report("verifier_crash", f"on the probe '{probe.name}': {answer['error']}")
        try:
            scored = score_final(task, probe.final, answer["verdicts"])
        except VerdictError as err:
            return report("bad_output", f"on the probe '{probe.name}': {err}")
        if scored.success and (scored.reward >= 1.0 or not probe.full_reward_only):
            return report(_reason(probe, answer["verdicts"], golden_verdicts), f"succeeds on the probe '{probe.name}': verdicts {answer['verdicts']}")
    judged = [a["verdicts"] for a in answers if "verdicts" in a]
    seen = judged + [a["verdicts"] for a in scrambled if isinstance(a.get("verdicts"), dict)]
    if len(seen) > len(judged):  # at least one scrambled final was judged
        always = [c for c in task.footprint.met_at_start if all(v.get(c) is True for v in seen)]
        if always:
            return report("criterion_vacuous", f"criteria {always} hold on the untouched state, every probe and a scrambled state: they check nothing")
    return report()


def _scrambled(golden: Final) -> list[Final]:
    """Two finals no criterion about the state can call untouched: every row deleted, every field edited."""
    emptied = {app: {table: [] for table in tables} for app, tables in golden.state.items()}
    edited = {app: {table: [{f: v if f == "id" else another_value(v) for f, v in row.items()} for row in rows]
                    for table, rows in tables.items()} for app, tables in golden.state.items()}
    return [golden.model_copy(update={"state": emptied}), golden.model_copy(update={"state": edited})]


def _reason(probe: Probe, verdicts: dict[str, bool], golden_verdicts: dict[str, bool]) -> ProbeReason:
    if probe.kind == "partial":
        return "unverified_golden_change" if verdicts == golden_verdicts and not probe.full_reward_only else "probe_partial"
    return f"probe_{probe.kind}"  # type: ignore[return-value]
