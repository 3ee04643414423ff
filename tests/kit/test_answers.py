"""The kit's answer matcher: every unambiguous form a person writes is paid, another value or a hedge is not.

The honest forms and the cheats are judged twice: by the matcher here, and by shipped verifiers that inline
it, run confined in the real sandbox at the task's clock (a date written without its year is the task's).
"""

from __future__ import annotations

import ast
from datetime import date, datetime
from types import SimpleNamespace

import pytest

from contracts.scoring import Final
from factory.tasks.synthesize import Author, SynthConfig, synthesize
from factory.verifiers.probes import derive_probes
from factory.verifiers.review import rule_findings
from mocked_apps.kit.answers import VERIFIER_SOURCE, answer_matches, answer_values, is_answer
from mocked_apps.kit.spec.derive.lookup import LookupValue
from runtime.sandbox import run_verifier

TODAY = date(2026, 10, 15)
DUE = "2026-10-20"  # a Tuesday
HONEST_DATES = ["October 20", "Tuesday, October 20", "the 20th of October 2026", "10/20/2026", "20.10.2026", "2026/10/20",
                "2026-10-20", "Oct. 20th, 2026", "20 Oct 2026", "It is due on October 20, 2026 (2026-10-20).", "october the 20th",
                "Invoice INV-2041 is due Oct 20.", "2026-10-20T00:00",
                # without the comma after the day (issue 41), and with a time after the day
                "October 20 2026", "Oct 20 2026", "Tuesday October 20 2026", "Oct. 20th 2026 (a Tuesday)", "20-Oct-2026",
                "October 20 3 pm", "Oct 20 2026 15:00", "It is due October 20 2026."]
WRONG_DATES = ["October 21", "10/21/2026", "20.11.2026", "2025-10-20", "October 20, 2025", "no idea", "", None]
HEDGED_DATES = ["either Oct 20 or Oct 21", "October 20 or 21", "Oct 20-21", "2026-10-20 or 2026-10-21", "October 19, 20 or 21",
                "October 20 or October 21 2026", "Oct 20 2026 or Oct 21 2026", "October 20 2026 or 21"]


@pytest.mark.parametrize("text", HONEST_DATES)
def test_every_form_of_the_date_is_the_answer(text):
    assert is_answer(text, "date", DUE, today=TODAY)


@pytest.mark.parametrize("text", WRONG_DATES)
def test_another_date_or_none_is_not(text):
    assert answer_matches(text, "date", DUE, today=TODAY) == {"right": False, "only": False}


@pytest.mark.parametrize("text", HEDGED_DATES)
def test_a_hedged_list_names_the_date_but_is_no_answer(text):
    assert answer_matches(text, "date", DUE, today=TODAY) == {"right": True, "only": False}


def test_a_number_after_the_day_is_a_year_a_time_or_no_date():
    """A time after a day is not read as a year; another bare number there may be a second day, so no date is read."""
    assert answer_values("October 20 15:00", "date", today=TODAY) == [{date(2026, 10, 20)}]
    assert answer_values("Oct 20 2026 3:30 pm", "time") == [{"15:30"}]
    assert answer_values("October 20 1530 hrs", "date", today=TODAY) == []
    assert answer_values("June 10:30", "date", today=TODAY) == [] and answer_values("October 2026", "date", today=TODAY) == []
    assert answer_matches("October 20 21", "date", DUE, today=TODAY) == {"right": False, "only": False}


def test_a_date_without_a_year_is_the_occurrence_nearest_the_task_clock():
    assert answer_values("January 5", "date", today=date(2026, 12, 20)) == [{date(2027, 1, 5)}]
    assert answer_values("December 28", "date", today=date(2027, 1, 3)) == [{date(2026, 12, 28)}]
    assert answer_values("10/11/2026", "date") == [{date(2026, 10, 11)}]  # slashes: month first, as the apps write
    assert answer_values("10/11/2026", "date", day_first=True) == [{date(2026, 11, 10)}]


@pytest.mark.parametrize("text", ["$1,234.50", "1234.5 USD", "USD 1,234.50", "1,234.50 dollars", "The total is $1,234.5.",
                                  "1234.50", "Invoice INV-2041 totals $1,234.50, due 2026-10-20", "US$ 1,234.50"])
def test_every_form_of_the_amount_is_the_answer(text):
    assert is_answer(text, "amount", 1234.5, currency="USD")


@pytest.mark.parametrize("text", ["$1,234.51", "$1,243.50", "€1,234.50", "1,234.50 EUR", "$1,234.50 or $1,243.50", "$12.34"])
def test_another_amount_currency_or_a_hedge_is_not(text):
    assert not is_answer(text, "amount", 1234.5, currency="USD")


def test_amounts_in_the_locale_forms_people_write():
    assert is_answer("1.234,50 €", "amount", 1234.5) and is_answer("1'234.50", "amount", 1234.5)
    assert answer_values("1,234", "amount") == [{(1234.0, None)}] and answer_values("12,5", "amount") == [{(12.5, None)}]


@pytest.mark.parametrize("text", ["3", "three", "There are 3 overdue tasks.", "Three.", "3 tasks", "3 (tasks TSK-2041, TSK-2042, TSK-2050)"])
def test_every_form_of_the_count_is_the_answer(text):
    assert is_answer(text, "count", 3)


@pytest.mark.parametrize("text", ["4", "four", "3 or 4", "3-4", "three or four", "none", "There are no overdue tasks", "twenty-three"])
def test_another_count_or_a_hedge_is_not(text):
    assert not is_answer(text, "count", 3)


def test_zero_is_written_as_none_or_no_items():
    assert is_answer("There are no overdue tasks.", "count", 0) and is_answer("none", "count", 0) and is_answer("0", "count", 0)


@pytest.mark.parametrize("text", ["3 pm", "3:00 PM", "15:00", "15h00", "at 3pm on October 20", "3:00", "3 p.m."])
def test_every_form_of_the_time_is_the_answer(text):
    assert is_answer(text, "time", "15:00", today=TODAY)


@pytest.mark.parametrize("text", ["3:30 pm", "4 pm", "3 am", "noon", "3 pm or 4 pm"])
def test_another_time_is_not(text):
    assert not is_answer(text, "time", "15:00", today=TODAY)


@pytest.mark.parametrize("text", ["John Smith", "john  smith", "Smith, John", "JOHN SMITH.", "It's John Smith!"])
def test_names_ignore_case_spacing_punctuation_and_order(text):
    assert is_answer(text, "name", "John Smith", others=["Jane Doe", "John"])


@pytest.mark.parametrize("text", ["Jon Smith", "Jane Doe", "John Smith or Jane Doe", "Smith"])
def test_another_name_a_part_or_a_hedge_is_not(text):
    assert not is_answer(text, "name", "John Smith", others=["Jane Doe", "John"])


def test_free_text_phones_and_accents():
    assert is_answer("Jose Garcia", "name", "José García") and is_answer("in progress", "text", "in_progress")
    assert is_answer("(555) 123-4567", "text", "555-123-4567") and is_answer("+1 555 123 4567", "text", "555-123-4567")
    assert not is_answer("555-123-4568", "text", "555-123-4567")


def test_the_verifier_part_is_the_module_itself_and_runs_alone():
    """One copy: the text a verifier inlines is this module's code, and it needs nothing of the project."""
    namespace: dict = {}
    exec(compile(VERIFIER_SOURCE, "<inlined>", "exec"), namespace)
    assert namespace["is_answer"]("Tuesday, October 20", "date", DUE, today=TODAY)
    imported = {alias.name for node in ast.walk(ast.parse(VERIFIER_SOURCE)) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(ast.parse(VERIFIER_SOURCE)) if isinstance(node, ast.ImportFrom)}
    assert imported == {"re", "unicodedata", "datetime"}  # the standard library only: the confined child has nothing else


# ---- the shipped verifiers that inline it, confined, at the task's clock -------------------------------------------
DUE_TASKS = synthesize(SynthConfig(n=3, seed=3, families=("drive.invoice_due_date",), tasks_per_world=1), Author())


def _forms(day: date) -> list[str]:
    return [f"{day:%B} {day.day}", f"{day:%A}, {day:%B} {day.day}", f"the {day.day}th of {day:%B} {day.year}",
            f"{day:%m/%d/%Y}", f"{day:%d.%m.%Y}", f"{day:%Y/%m/%d}", day.isoformat(), f"It's due {day:%b}. {day.day}, {day.year}.",
            f"{day:%B} {day.day} {day.year}", f"{day:%b} {day.day} {day.year}"]


def _verdicts(task, answer):
    run = run_verifier(task.verifier, Final(state={}, initial_state={}, answer=answer), timeout_s=5.0, clock=task.clock)
    assert run.error is None, run.error
    return run.verdicts


def test_the_due_date_verifier_pays_every_honest_form_and_refuses_the_cheats():
    task = DUE_TASKS[0]
    due = date.fromisoformat(task.answer_context["due"])
    assert VERIFIER_SOURCE in task.verifier
    for form in _forms(due):
        assert _verdicts(task, form) == {"right_date": True, "no_wrong_date": True}, form
    other = date.fromordinal(due.toordinal() + 1)
    for cheat in (f"{other:%B} {other.day}", f"either {due:%B} {due.day} or {other:%B} {other.day}", f"{due:%B} {due.day} or {other.day}",
                  f"{due:%B} {due.day} or {other:%B} {other.day} {other.year}"):
        assert not all(_verdicts(task, cheat).values()), cheat


def test_answer_spam_probes_still_fail_on_the_matcher():
    task = DUE_TASKS[1]
    seed = {app: {t: rows for t, rows in tables.items() if isinstance(rows, list)} for app, tables in task.seed.items()}
    golden = Final(state=seed, initial_state=seed, answer=task.answer_context["due_text"])
    spam = [p for p in derive_probes(task, golden) if p.kind == "answer_spam"]
    assert any(p.name == "every date of the month" for p in spam)
    for probe in spam:
        assert not all(_verdicts(task, probe.final.answer).values()), probe.name


def test_lookup_verifiers_read_counts_in_words_and_amounts_in_any_form():
    lookup = LookupValue.__new__(LookupValue)  # its verifier needs only the answer context
    count = lookup.verifier(SimpleNamespace(answer_context={"kind": "number", "expected": "3.0", "others": [], "title": None}))
    price = lookup.verifier(SimpleNamespace(answer_context={"kind": "number", "expected": "1234.5", "others": [], "title": "Spa day"}))
    task = SimpleNamespace(verifier=count, clock="2026-10-15T09:00:00")
    assert _verdicts(task, "There are three.") == {"right_value": True, "no_other_value": True}
    assert _verdicts(task, "3 or 4") == {"right_value": True, "no_other_value": False}
    task = SimpleNamespace(verifier=price, clock="2026-10-15T09:00:00")
    assert _verdicts(task, "USD 1,234.50") == {"right_value": True, "no_other_value": True}


def test_the_review_reads_the_matchers_words_as_no_hidden_answer():
    """The kind a verifier asks for ("date") and the matcher's own literals are not the task's answer."""
    lookup = LookupValue.__new__(LookupValue)
    ctx = {"kind": "date", "expected": "2026-10-20", "others": [], "title": "Spa day", "shown": "Oct 20, 2026"}
    req = SimpleNamespace(answer_context=ctx, clock=datetime(2026, 10, 15, 9), family="spa.lookup")
    task = DUE_TASKS[0].model_copy(update={"verifier": lookup.verifier(req), "answer_context": ctx,
                                           "instruction": "What is the date of the appointment \"Spa day\"? Answer with it."})
    assert not [f for f in rule_findings(task) if f.startswith("answer_in_instruction")]
    leaked = task.model_copy(update={"instruction": "Is the appointment \"Spa day\" on 2026-10-20? Answer with the date."})
    assert [f for f in rule_findings(leaked) if f.startswith("answer_in_instruction")]


def test_an_llm_written_verifier_that_calls_the_matcher_gets_it_inlined():
    from factory.tasks.llm_author import with_matcher

    written = ("from datetime import date\n\ndef verify(final):\n"
               "    said = answer_matches(final.answer, 'date', '2026-10-20', today=date.today())\n"
               "    return {'right_date': said['right'] and said['only']}\n")
    verifier = with_matcher(written)
    assert verifier.startswith(VERIFIER_SOURCE) and with_matcher(verifier) == verifier
    assert with_matcher("def verify(final):\n    return {'a': True}\n") == "def verify(final):\n    return {'a': True}\n"
    task = SimpleNamespace(verifier=verifier, clock="2026-10-15T09:00:00")
    assert _verdicts(task, "Tuesday, October 20") == {"right_date": True}
    assert _verdicts(task, "Oct 20 or Oct 21") == {"right_date": False}


@pytest.mark.parametrize("type_, value, other, kind", [
    ("money", 1234.5, 1243.5, "amount"), ("money", -12.0, 12.0, "amount"), ("date", "2026-03-03", "2026-03-04", "date"),
    ("number", 2.5, 3.5, "amount"), ("int", 7, 8, "count"), ("phone", "555-123-4567", "555-123-9999", "text"),
    ("email", "ana@example.com", "bo@example.com", "text"), ("text", "In progress", "Done", "text")])
def test_the_form_the_app_itself_displays_is_the_answer(type_, value, other, kind):
    """What a person reads off a compiled app's page (display.fmt) is paid as the stored value; with another
    value of the field beside it, it is not."""
    from mocked_apps.kit.spec.display import fmt
    from mocked_apps.kit.spec.model import FieldSpec

    field = FieldSpec(name="field", type=type_)
    shown, also = fmt(field, value), fmt(field, other)
    assert is_answer(shown, kind, value, today=TODAY, others=[str(other)]), shown
    assert not is_answer(f"{shown} or {also}", kind, value, today=TODAY, others=[str(other)]), (shown, also)
