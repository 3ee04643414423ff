"""The typical errors of failed attempts (bench.failures): each trait fires on what shows it, and not on an honest attempt."""

from __future__ import annotations

from bench.failures import TRAITS, markdown, traits
from runtime.store import StepRecord

TASK = 'Go to CareRota: find the visit "George Maldonado" and set off.'
BOARD = '[3] link "Today\'s rounds"\n[9] link "George Maldonado"\n[10] button "Set off George Maldonado"\n[12] textbox "Search"'


def steps(*actions: str | None, errors: dict[int, str] | None = None, page: str = BOARD) -> list[StepRecord]:
    """Steps with these actions; errors[i] is the error the harness showed at step i (that of action i - 1)."""
    errors = errors or {}
    return [StepRecord(index=i, axtree=page, action=a, raw_output=a or "I will look at the page",
                       error=errors.get(i) if a is not None else "no action found") for i, a in enumerate(actions)]


def test_an_attempt_that_writes_no_action_is_only_that():
    assert traits(TASK, steps(None, None), max_steps=8) == ["no_action"]


def test_invented_text_wrong_kind_and_repeats_are_each_seen():
    wrong = "element [9] is not a text field; fill() needs a textbox"
    found = traits(TASK, steps("click(3)", "fill(9, 'William')", "fill(9, 'William')", "fill(9, 'William')",
                               errors={2: wrong, 3: wrong}), max_steps=4)
    assert found == ["invented_text", "wrong_kind", "repeated_failure", "out_of_steps"]


def test_text_from_the_task_or_the_page_is_not_invented_and_case_does_not_matter():
    honest = steps("click(3)", "fill(12, 'george maldonado')", "click(10)", 'answer("Set off George Maldonado")')
    assert traits(TASK, honest, max_steps=8) == ["wrong_answer"]  # it answered, yet the task failed: only that


def test_a_missing_element_and_a_mixed_reply_are_named():
    found = traits(TASK, steps("click(99)", "click(10)", None, errors={1: "there is no element [99] on this page"}), max_steps=8)
    assert found == ["unparsed_reply", "missing_element"]


def test_a_repeat_that_had_not_failed_is_not_a_repeated_failure():
    assert "repeated_failure" not in traits(TASK, steps("scroll(0, 300)", "scroll(0, 300)", "click(10)"), max_steps=8)


def test_the_table_lists_only_traits_seen_and_an_example_of_each():
    rows = {"zero-shot": {"attempts": 2, "failed": 2, "traits": {t: (2 if t == "no_action" else 0) for t in TRAITS},
                          "examples": {"no_action": "a.b-1: (no action), (no action)"}},
            "apps-8": {"attempts": 2, "failed": 1, "traits": {t: (1 if t == "invented_text" else 0) for t in TRAITS},
                       "examples": {"invented_text": "a.b-2: fill(9, 'William')"}}}
    text = "\n".join(markdown(rows))
    assert "| zero-shot | 2/2 | 2 | 0 |" in text and "| apps-8 | 1/2 | 0 | 1 |" in text
    assert "wrong_kind" not in text and "fill(9, 'William')" in text and "(no action), (no action)" in text
