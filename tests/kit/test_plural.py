"""The kit's plural helper: the regular endings, irregular and unchanging nouns, and labels of several words."""

from __future__ import annotations

import pytest

from mocked_apps.kit.spec import read_spec
from mocked_apps.kit.spec.plural import plural
from mocked_apps.catalogue import compiled


@pytest.mark.parametrize("word, expected", [
    ("Delivery", "Deliveries"), ("Coach", "Coaches"), ("Journey", "Journeys"), ("Box", "Boxes"), ("Class", "Classes"),
    ("Quiz", "Quizzes"), ("Shelf", "Shelves"), ("Person", "People"), ("child", "children"), ("Analysis", "Analyses"),
    ("Series", "Series"), ("Feedback", "Feedback"), ("SKU", "SKUs"), ("Day", "Days"), ("Task", "Tasks"),
    ("Delivery window", "Delivery windows"), ("Bill of lading", "Bills of lading"), ("Leave request", "Leave requests"),
])
def test_plural(word, expected):
    assert plural(word) == expected


def test_compiled_entities_are_pluralised_properly_unless_the_spec_says_otherwise():
    cornerstore, trailhead = read_spec(compiled()["cornerstore"]), read_spec(compiled()["trailhead"])
    assert cornerstore.entity("delivery").display_plural == "Deliveries"
    assert trailhead.entity("coach").display_plural == "Coaches"
    named = cornerstore.entity("delivery").model_copy(update={"plural": "Orders out"})
    assert named.display_plural == "Orders out"
