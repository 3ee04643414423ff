"""The content law's judge on text: the placeholder text issue 29 found in compiled apps is caught, the real
text of apps is not (the planted lorem and word-salad apps are in defects.py, checked on a real browser)."""

from __future__ import annotations

import pytest

from mocked_apps.checker.content import SALAD_LIMIT, failing, problem, problems, units


@pytest.mark.parametrize("text, kind", [
    ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "lorem"),
    ("Accusantium voluptatem quia", "lorem"),
    ("Synergized bi-directional groupware", "catch phrase"),
    ("Customer-focused responsive functionalities", "catch phrase"),
    ("DarkOrchid Strategy", "colour name"),
    ("LightSlateGray Parent", "colour name"),
    ("Bill performance kid political", "word salad"),
    ("Floor Enough Husband", "word salad"),
    ("Suddenly religious wish another treat", "word salad"),
])
def test_placeholder_text_is_caught(text, kind):
    assert problem(text) == (kind, text)


@pytest.mark.parametrize("text", [
    "Call the dentist", "Reschedule to next week", "Mark as delivered", "Refund order", "Price per bag", "PRICE PER BAG",
    "Pay out claim", "Hand back car", "Sourdough loaf", "Leaking kitchen tap", "Fresh groceries from the corner, delivered today.",
    "Do you want to keep this?", "Plan it once.", "Orange juice", "Semi-skimmed milk", "Mature cheddar", "Ran my first half marathon",
])
def test_real_text_is_not(text):
    assert problem(text) is None


def test_a_page_is_cut_into_lines_cells_and_sentences_and_a_few_salad_lookalikes_pass():
    assert units("Name\tAisle\nPlan it once. Travel light.\n\n") == ["Name", "Aisle", "Plan it once.", "Travel light."]
    lookalikes = ["Key account manager", "Enough water left"]
    assert not failing(problems(lookalikes)) and len(lookalikes) < SALAD_LIMIT
    salad = problems(["Bill performance kid political", "Floor Enough Husband", "Various Fact Such", "Floor Enough Husband"])
    assert salad == {"word salad": ["Bill performance kid political", "Floor Enough Husband", "Various Fact Such"]}
    assert failing(salad) and failing(problems(["Lorem ipsum dolor"]))
