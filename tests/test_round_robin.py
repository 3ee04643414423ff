"""contracts.spread.round_robin: one of every group before a second of any, nested keys, order kept inside groups."""

from contracts.spread import round_robin


def test_one_of_every_group_before_a_second_of_any_in_first_seen_order():
    items = ["b1", "a1", "b2", "b3", "c1", "a2"]
    assert round_robin(items, lambda s: s[0]) == ["b1", "a1", "c1", "b2", "a2", "b3"]


def test_nested_keys_interleave_inside_each_group():
    items = [("x", "f", 1), ("x", "f", 2), ("x", "g", 3), ("y", "h", 4)]
    assert round_robin(items, lambda t: t[0], lambda t: t[1]) == [("x", "f", 1), ("y", "h", 4), ("x", "g", 3), ("x", "f", 2)]


def test_no_key_or_no_items_leaves_them_as_they_are():
    assert round_robin([3, 1, 2]) == [3, 1, 2] and round_robin([], len) == []
