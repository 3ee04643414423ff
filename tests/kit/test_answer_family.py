"""The one look-up verifier template: it renders to a verifier that runs on the kit's matcher alone, and refuses an unknown kind;
and a look-up declared by its AnswerSpec and routes gets its criteria, verifier, golden code and second solution."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from contracts.family import ALTERNATIVE, Requirements, render_code
from mocked_apps.kit.answer_family import CRITERIA, AnswerFamily, AnswerSpec, answer_verifier
from mocked_apps.kit.answers import VERIFIER_SOURCE


def _verdicts(kind: str, expected, answer: str, **keys) -> dict:
    values = {"value": expected, "others": ["Ada Lovelace"], "task_today": "2026-10-15"}
    source = VERIFIER_SOURCE + render_code(answer_verifier(kind, "value", **keys), values)
    scope: dict = {}
    exec(compile(source, "<verifier>", "exec"), scope)
    return scope["verify"](SimpleNamespace(answer=answer))


def test_every_kind_pays_an_honest_form_and_names_its_two_criteria():
    assert _verdicts("date", "2026-10-01", "On the 1st of October 2026.") == {"right_date": True, "no_wrong_date": True}
    assert _verdicts("date", "2026-10-01", "October 1") == {"right_date": True, "no_wrong_date": True}  # the task's year, not this one's
    assert _verdicts("time", "15:00", "It starts at 3 pm.") == {"right_time": True, "no_other_time": True}
    assert _verdicts("amount", 172.0, "$172.00") == {"right_amount": True, "no_other_amount": True}
    assert _verdicts("count", 3, "three") == {"right_count": True, "no_other_count": True}
    assert _verdicts("name", "Grace Hopper", "grace hopper", others="others") == {"right_name": True, "no_other_name": True}


def test_a_hedge_names_the_value_but_not_only_it_and_own_criterion_ids_are_kept():
    said = _verdicts("amount", 172.0, "Either $172.00 or $180.00", right="right_total", only="no_other_amount")
    assert said == {"right_total": True, "no_other_amount": False}
    assert set(CRITERIA) >= {"date", "time", "amount", "count", "name"}


def test_an_unknown_kind_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="known: date, time"):
        answer_verifier("colour", "value")


class _DueDate(AnswerFamily):
    """A toy look-up declared the way the apps' are: an AnswerSpec and two routes."""

    name = "toy.due_date"
    apps = ("toy",)
    description = "When a thing is due."
    answer = AnswerSpec("date", "due", golden="{due_text}", sentence="Due {due:%A}, {due.day} {due:%B}.")

    def requirements(self, world, rng):
        return None

    def routes(self, c):
        return 'env.click("Search", role="link")', ('env.click("Browse", role="link")', f'env.click({c["title"]!r}, role="link")')


def test_a_declared_look_up_gets_its_criteria_verifier_golden_and_second_solution():
    family = _DueDate()
    req = Requirements(family=family.name, apps=family.apps, instruction="When is the report due?",
                       answer_context={"title": "Report", "due": "2026-03-02", "due_text": "March 2, 2026"},
                       criteria=tuple(family.criteria("The answer gives 2026-03-02.", "No other date.")))
    assert [(c.id, c.weight) for c in req.criteria] == [("right_date", 1.0), ("no_wrong_date", 0.5)]
    assert family.verifier_template == answer_verifier("date", "due")
    golden = family.golden(req)
    assert "def solve(env):\n    env.click(\"Search\", role=\"link\")\n    env.answer('March 2, 2026')\n" in golden
    assert f"def {ALTERNATIVE}(env):" in golden and "env.answer('Due Monday, 2 March.')" in golden
    assert family.alternative(req) is not None and "env.click('Report', role=\"link\")" in family.alternative(req)


def test_an_answer_spec_of_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown answer kind 'colour'"):
        AnswerSpec("colour", "value", golden="{value}")
