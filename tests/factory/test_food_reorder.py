"""food.reorder over generated worlds: the family asks only for past orders the app can place again (the cart a reorder
makes is checked against the app itself in mocked_apps/food/tests/test_food.py)."""

from __future__ import annotations


def test_reorder_tasks_only_ask_for_orders_the_app_can_place_again():
    """A past order whose extras line was billed above today's price can reorder to under the restaurant's minimum:
    such an order is never the task (food.reorder-812aa2ea1a83 asked for one, and its golden run could not check out)."""
    import random

    from factory.tasks.synthesize import SynthConfig, worlds
    from mocked_apps.food.families import Reorder, _reorder_subtotal
    from mocked_apps.food.projection import project

    below = asked = 0
    for world in worlds(SynthConfig(seed=0), limit=40):
        rows = project(world)
        minimum = {r["id"]: r["min_order"] for r in rows["restaurant"]}
        below += sum(_reorder_subtotal(rows, o) < minimum[o["restaurant_id"]] for o in rows["foodorder"])
        for draw in range(3):
            req = Reorder().requirements(world, random.Random(f"{world.id}/{draw}"))
            if req is not None:
                asked += 1
                order = next(o for o in rows["foodorder"] if o["number"] == req.answer_context["number"])
                assert _reorder_subtotal(rows, order) >= minimum[order["restaurant_id"]], (world.id, order["number"])
    assert asked >= 30 and below, (asked, below)  # the case the filter exists for occurs in these worlds
