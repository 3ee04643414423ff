"""Food families: order a dish with its options, use the coupon that saves most, reorder a past order, buy
just enough for free delivery, tell what a past order cost; and one cross-app family (one dish per person at a
calendar meeting).

Single-app tasks run on the phone, the app's primary form factor; ground truth comes from the world's
projection read with the app's own pricing rules.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime

from contracts.family import Family, PhoneFamily, Requirements, money, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as food
from .pricing import coupon_error, delivery_fee, line_price, reorder_choices, total
from .projection import project

__all__ = ["FAMILIES"]

OFFICE = 1
"""The projection's office address (the first), where every task's order goes."""


def _dishes(rows: dict) -> list[tuple[dict, dict, list[dict], list[dict]]]:
    """(restaurant, item, its pick-one choices (first of each group = default), its add-ons) for every item."""
    rest = {r["id"]: r for r in rows["restaurant"]}
    out = []
    for item in rows["menuitem"]:
        choices = [c for c in rows["choice"] if c["item_id"] == item["id"]]
        out.append((rest[item["restaurant_id"]], item, [c for c in choices if not c["multi"]], [c for c in choices if c["multi"]]))
    return out


def _pick_options(rng: random.Random, singles: list[dict], addons: list[dict]) -> list[dict]:
    """One choice per pick-one group (not always the default) and maybe one add-on."""
    chosen = []
    for group in dict.fromkeys(c["group"] for c in singles):
        chosen.append(rng.choice([c for c in singles if c["group"] == group]))
    if addons and rng.random() < 0.8:
        chosen.append(rng.choice(addons))
    return sorted(chosen, key=lambda c: c["id"])


def _line(item_id: int, options: str, quantity: int) -> dict:
    """One order line in the answer context: named fields, so every line has one type per key (a dataset column)."""
    return {"item_id": item_id, "options": options, "quantity": quantity}


def _verify_order(restaurant_id: int, lines: list, method_id: int, coupon_id=None, extra: str = "") -> str:
    return food.new_orders_source("_food_new") + f'''

def verify(final):
    new = _food_new(final)
    right = [o for o in new if o["restaurant_id"] == {restaurant_id!r} and [list(l) for l in o["lines"]] == {[[l["item_id"], l["options"], l["quantity"]] for l in lines]!r}
             and o["address_id"] == {OFFICE!r}]
    return {{
        "ordered": bool(right),
        "paid_with": any(o["payment_method_id"] == {method_id!r} for o in right),
        "coupon": any(o["coupon_id"] == {coupon_id!r} for o in right),
        "only_once": len(new) == 1,{extra}
    }}
'''


def _criteria(what: str, method: str, coupon: str | None) -> list[Criterion]:
    return [
        Criterion(id="ordered", description=f"A new order of {what}, delivered to the office."),
        Criterion(id="paid_with", description=f"Paid with {method}."),
        Criterion(id="coupon", description=f"With the coupon '{coupon}'." if coupon else "Without a coupon."),
        Criterion(id="only_once", description="Exactly one new order.", weight=0.5),
    ]


class OrderDish(PhoneFamily):
    name = "food.order_dish"
    apps = ("food",)
    description = "Order a dish with given options and add-ons, enough of it to meet the minimum order."
    difficulty = "medium"
    capabilities = ("navigate", "select_option", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        r, item, singles, addons = rng.choice([d for d in _dishes(rows) if d[2] or d[3]])
        chosen = _pick_options(rng, singles, addons)
        unit = line_price(item["price"], [c["price"] for c in chosen])
        qty = max(1, math.ceil(r["min_order"] / unit))
        if qty > 6:
            return None
        method = food.method_label(world, 0)
        names = [c["name"] for c in chosen]
        what = f"{qty} × {item['name']}" + (f" ({', '.join(names)})" if names else "")
        instruction = say(rng, world, "Order {what} from {r} to the office, paid with the card.",
                          "Get {what} delivered from {r} to the office; pay by card.", what=what, r=r["name"])
        ctx = {"restaurant": r["name"], "restaurant_id": r["id"], "item": item["name"], "options": names, "quantity": qty,
               "lines": [_line(item["id"], ", ".join(names), qty)], "method": method, "method_id": 1}
        return self._req(instruction, ctx, _criteria(f"{what} from {r['name']}", method, None))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(food.open_restaurant(c["restaurant"]), food.add_item(c["item"], c["options"], c["quantity"]), food.checkout(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_order(c["restaurant_id"], c["lines"], c["method_id"])


class BestCoupon(PhoneFamily):
    name = "food.best_coupon"
    apps = ("food",)
    description = "Order a dish and use the coupon that saves the most on that order (minimums, restaurant, expiry)."
    difficulty = "hard"
    capabilities = ("navigate", "compute", "disambiguate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        today = world.scenario.clock.date().isoformat()
        r, item, singles, _ = rng.choice(_dishes(rows))
        qty = rng.randint(2, 6)
        defaults = [next(c for c in singles if c["group"] == g) for g in dict.fromkeys(c["group"] for c in singles)]
        subtotal = round(line_price(item["price"], [c["price"] for c in defaults]) * qty, 2)
        if subtotal < r["min_order"]:
            return None
        usable = [c for c in rows["coupon"]
                  if coupon_error(c["used"], c["expires"], c["restaurant_id"], c["min_spend"], subtotal, r["id"], today) is None]
        if not usable:  # the expired and the out-of-reach coupons (bigger discounts) are the distractors
            return None
        best = max(usable, key=lambda c: (c["discount"], -c["id"]))
        fee = delivery_fee(subtotal, r["delivery_fee"], r["free_delivery_over"])
        method = food.method_label(world, 0)
        instruction = say(rng, world, "Order {qty} {item} from {r} (default options) to the office and use whichever of my coupons saves the most. Card payment.",
                          "{r}: {qty} × {item}, standard options, to the office. Apply the best coupon I have and pay by card.",
                          qty=qty, item=item["name"], r=r["name"])
        ctx = {"restaurant": r["name"], "restaurant_id": r["id"], "item": item["name"], "quantity": qty, "coupon": best["title"],
               "coupon_id": best["id"], "total": total(subtotal, fee, best["discount"]),
               "lines": [_line(item["id"], ", ".join(c["name"] for c in defaults), qty)], "method": method, "method_id": 1}
        return self._req(instruction, ctx, _criteria(f"{qty} × {item['name']} from {r['name']} for {money(ctx['total'])}", method, best["title"]))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(food.open_restaurant(c["restaurant"]), food.add_item(c["item"], [], c["quantity"]), food.checkout(c["method"], c["coupon"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_order(c["restaurant_id"], c["lines"], c["method_id"], c["coupon_id"])


def _reorder_subtotal(rows: dict[str, list[dict]], order: dict) -> float:
    """What reordering `order` puts in the cart at today's prices, by the app's own rule (`pricing.reorder_choices`).

    A past order's extras line was billed at what the charge left over, so today's subtotal can fall under the
    restaurant's minimum, and that order cannot be placed again as it was (the golden run met "Add ... more to reach the minimum order")."""
    items = {i["id"]: i for i in rows["menuitem"]}
    subtotal = 0.0
    for line in (x for x in rows["orderline"] if x["order_id"] == order["id"] and x["item_id"] in items):
        options = sorted((c for c in rows["choice"] if c["item_id"] == line["item_id"]), key=lambda c: c["id"])
        picked = reorder_choices(options, line["options"])
        subtotal += line_price(items[line["item_id"]]["price"], [c["price"] for c in picked]) * line["quantity"]
    return round(subtotal, 2)


class Reorder(PhoneFamily):
    name = "food.reorder"
    apps = ("food",)
    description = "Place a past order again, the same dishes and quantities."
    difficulty = "easy"
    capabilities = ("navigate", "disambiguate", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        minimum = {x["id"]: x["min_order"] for x in rows["restaurant"]}
        order = pick(rng, [o for o in rows["foodorder"] if _reorder_subtotal(rows, o) >= minimum[o["restaurant_id"]]])
        if order is None:
            return None
        r = next(x for x in rows["restaurant"] if x["id"] == order["restaurant_id"])
        items = {i["id"]: i for i in rows["menuitem"]}
        lines = []
        for line in rows["orderline"]:
            if line["order_id"] == order["id"]:
                singles = [c for c in rows["choice"] if c["item_id"] == line["item_id"] and not c["multi"]]
                defaults = [next(c for c in singles if c["group"] == g)["name"] for g in dict.fromkeys(c["group"] for c in singles)]
                lines.append([line["item_id"], ", ".join(defaults), line["quantity"]])
        day = order["placed_at"][:10]
        when = date.fromisoformat(day)
        method = food.method_label(world, 0)
        instruction = say(rng, world, "Order the same again as my {r} order of {when}, to the office, paid with the card.",
                          "Reorder what I got from {r} on {when} - same dishes, to the office, card payment.", r=r["name"], when=f"{when:%B} {when.day}")
        ctx = {"number": order["number"], "restaurant_id": r["id"], "lines": [_line(*line) for line in sorted(lines)], "method": method, "method_id": 1, "items": [items[i[0]]["name"] for i in lines]}
        return self._req(instruction, ctx, _criteria(f"the dishes of order {order['number']} from {r['name']}", method, None))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(food.reorder(c["number"]), food.checkout(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_order(c["restaurant_id"], c["lines"], c["method_id"])


class FreeDelivery(PhoneFamily):
    name = "food.free_delivery"
    apps = ("food",)
    description = "Order the fewest of a dish that make delivery free."
    difficulty = "medium"
    capabilities = ("navigate", "compute", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        r, item, singles, _ = rng.choice([d for d in _dishes(rows) if d[0]["free_delivery_over"]])
        defaults = [next(c for c in singles if c["group"] == g) for g in dict.fromkeys(c["group"] for c in singles)]
        unit = line_price(item["price"], [c["price"] for c in defaults])
        qty = math.ceil(r["free_delivery_over"] / unit - 1e-9)
        if qty > 20:
            return None
        method = food.method_label(world, 0)
        instruction = say(rng, world, "Order {item} from {r} to the office for the team: just enough of them that delivery is free, no more. Default options, card.",
                          "We want {item} from {r} at the office. Buy the smallest number that gets free delivery (standard options) and pay by card.",
                          item=item["name"], r=r["name"])
        ctx = {"restaurant": r["name"], "restaurant_id": r["id"], "item": item["name"], "quantity": qty,
               "lines": [_line(item["id"], ", ".join(c["name"] for c in defaults), qty)], "method": method, "method_id": 1}
        return self._req(instruction, ctx, _criteria(f"{qty} × {item['name']} from {r['name']} (free delivery from {money(r['free_delivery_over'])})", method, None))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(food.open_restaurant(c["restaurant"]), food.add_item(c["item"], [], c["quantity"]), food.checkout(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_order(c["restaurant_id"], c["lines"], c["method_id"])


class OrderTotal(PhoneFamily, AnswerFamily):
    name = "food.order_total"
    apps = ("food",)
    description = "Look up what a past order from a restaurant cost in total and answer with the amount."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {r["id"]: r["name"] for r in rows["restaurant"]}
        days = [(o["restaurant_id"], o["placed_at"][:10]) for o in rows["foodorder"]]
        order = pick(rng, [o for o, day in zip(rows["foodorder"], days) if days.count(day) == 1])
        if order is None:
            return None
        placed = datetime.fromisoformat(order["placed_at"])
        instruction = say(rng, world, "How much did my {restaurant} order on {day} come to in total?",
                          "What was the total of the order I placed with {restaurant} on {day}?",
                          "Check my food orders: what did the {restaurant} order of {day} cost, all in?",
                          restaurant=names[order["restaurant_id"]], day=f"{placed:%A, %B} {placed.day}")
        if float(order["total"]).is_integer() and str(int(order["total"])) in instruction:  # "February 12" and a total of $12.00
            return None
        ctx = {"number": order["number"], "restaurant": names[order["restaurant_id"]], "amount": order["total"],
               "amount_text": money(order["total"])}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {money(order['total'])}, the total of order {order['number']}.",
                                                         "The answer names no other amount (listing every amount is no answer)."))

    answer = AnswerSpec("amount", "amount", golden="{amount_text}", sentence="It came to {amount:.2f}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Read the total off the order history without opening the order; the amount without its currency sign."""
        return (('env.click("Orders", role="link")', f'env.click({"Order " + c["number"] + " from " + c["restaurant"]!r}, role="link")'),
                'env.click("Orders", role="link")')


class LunchForMeeting(Family):
    name = "cross.lunch_for_meeting"
    apps = ("calendar", "food")
    description = "Order one dish per person attending a calendar meeting (the headcount is only in the calendar)."
    difficulty = "hard"
    capabilities = ("cross_app", "compute", "navigate", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        clock = world.scenario.clock
        meetings = [m for m in world.meetings if m.start > clock and len(m.attendees) >= 2 and sum(x.title == m.title for x in world.meetings) == 1]
        meeting = pick(rng, sorted(meetings, key=lambda m: m.start))
        if meeting is None:
            return None
        people = len({meeting.organizer, *meeting.attendees})
        rows = project(world)
        fits = [d for d in _dishes(rows) if d[1]["section"] != "Drinks" and not d[2]
                and d[1]["price"] * people >= d[0]["min_order"]]
        dish = pick(rng, fits)
        if dish is None:
            return None
        r, item, _, _ = dish
        method = food.method_label(world, 0)
        instruction = say(rng, world, "Order lunch for the \"{title}\" meeting: one {item} from {r} for each person in it (see the calendar), to the office, paid by card.",
                          "For \"{title}\", get one {item} per attendee (you included; the calendar has the guest list) from {r}, delivered to the office. Card payment.",
                          title=meeting.title, item=item["name"], r=r["name"])
        ctx = {"restaurant": r["name"], "restaurant_id": r["id"], "item": item["name"], "quantity": people,
               "lines": [_line(item["id"], "", people)], "method": method, "method_id": 1, "title": meeting.title}
        return self._req(instruction, ctx, _criteria(f"{people} × {item['name']} from {r['name']}", method, None))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), food.open_app(), food.open_restaurant(c["restaurant"]),
                            food.add_item(c["item"], [], c["quantity"]), food.checkout(c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_order(c["restaurant_id"], c["lines"], c["method_id"])


FAMILIES = (OrderDish(), BestCoupon(), Reorder(), FreeDelivery(), OrderTotal(), LunchForMeeting())
