"""Shop families: buy a product in a named colour and size, send one to a new address by express, return
an item of a recent order for a reason, buy the cheapest product of a department that is in stock in a
colour and size; a look-up answered in text (the day an order arrives or arrived); and one cross-app family
(one item per person at a calendar meeting).

Ground truth comes from the world's projection read with the app's own rules (stock, shipping, the
return window). Verifiers read the state semantics (new orders, their lines as [variant id, units],
address, speed, payment; new return requests); golden code uses the UI's labels through `recipes`.
"""

from __future__ import annotations

import random
from datetime import date

from contracts.family import Family, Requirements, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as shop
from .models import RETURN_REASONS
from .pricing import returnable_until
from .projection import project

__all__ = ["FAMILIES"]

OFFICE = 1
"""The projection's office address (the first, the default)."""
CARD, CHECKING = 1, 2
"""Payment method ids of the world's card and checking account."""


def _variant_text(v: dict) -> str:
    return v["colour"].lower() if v["size"] == "One size" else f"{v['colour'].lower()}, size {v['size']}"


def _buyable(rows: dict, units: int) -> list[tuple[dict, dict]]:
    """(product, variant) pairs with at least `units` in stock."""
    products = {p["id"]: p for p in rows["product"]}
    return [(products[v["product_id"]], v) for v in rows["variant"] if v["stock"] >= units]


def _order_verifier(lines: list[list[int]], address: str, speed: str, method_id: int, extra: str = "") -> str:
    """Criteria: a new order of exactly `lines`, shipped to `address` (a check on the order row `o`), at `speed`, paid with
    `method_id`; `extra`: more criterion lines of the returned dict."""
    return shop.new_orders_source("_shop_new") + f'''

def verify(final):
    new = _shop_new(final)
    right = [o for o in new if o["lines"] == {sorted(lines)!r}]
    shipped = [o for o in right if {address}]
    return {{
        "ordered": bool(right),
        "ship_to": bool(shipped),
        "speed": any(o["shipping"] == {speed!r} for o in shipped),
        "paid_with": any(o["payment_method_id"] == {method_id!r} for o in shipped),{extra}
        "only_once": len(new) == 1,
    }}
'''


def _order_criteria(what: str, where: str, speed: str, method: str) -> list[Criterion]:
    return [
        Criterion(id="ordered", description=f"A new order of exactly {what}."),
        Criterion(id="ship_to", description=f"Shipped to {where}."),
        Criterion(id="speed", description=f"With {shop.speed_label(speed).lower()} shipping."),
        Criterion(id="paid_with", description=f"Paid with {method}."),
        Criterion(id="only_once", description="Exactly one new order.", weight=0.5),
    ]


class BuyVariant(Family):
    name = "shop.buy_variant"
    apps = ("shop",)
    description = "Buy a product in a named colour and size (other sizes may be sold out), to the office, standard shipping, by card."
    difficulty = "medium"
    capabilities = ("search", "select_option", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        qty = rng.choice([1, 1, 2, 3])
        sized = [pv for pv in _buyable(rows, qty) if pv[1]["size"] != "One size"]
        choice = pick(rng, sized if sized and rng.random() < 0.7 else _buyable(rows, qty))
        if choice is None:
            return None
        product, v = choice
        method = shop.method_label(world, 0)
        what = f"{qty} × {product['name']} ({_variant_text(v)})"
        instruction = say(rng, world, "Order {what} to the office with standard shipping, paid with the card.",
                          "Buy {what} from the shop; ship it to the office (standard) and pay by card.", what=what)
        ctx = {"product": product["name"], "colour": v["colour"], "size": v["size"], "quantity": qty, "variant_id": v["id"],
               "address": shop.office_label(world), "method": method, "method_id": CARD}
        return self._req(instruction, ctx, _order_criteria(what, "the office (the default address)", "standard", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(shop.open_product(c["product"]), shop.add_to_cart(c["colour"], c["size"], c["quantity"]),
                            shop.checkout(c["address"], "standard", c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _order_verifier([[c["variant_id"], c["quantity"]]], f'o["address_id"] == {OFFICE}', "standard", c["method_id"])


_STREETS = ("Lakeview Road", "Station Street", "Mill Lane", "Park Avenue", "Rosewood Close", "Hillcrest Drive")


class SendToNewAddress(Family):
    name = "shop.send_to_new_address"
    apps = ("shop",)
    description = "Send a product to a colleague at an address not in the address book, by express, paid from the checking account."
    difficulty = "hard"
    capabilities = ("search", "select_option", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        me = next(p for p in world.people if p.id == world.user)
        colleagues = [p for p in world.people if p.org == me.org and p.id != world.user]
        person = pick(rng, colleagues)
        choice = pick(rng, _buyable(rows, 1))
        if person is None or choice is None or len(rows["paymentmethod"]) < 2:
            return None
        product, v = choice
        book = rows["address"][0]
        line = f"{rng.randint(2, 480)} {rng.choice(_STREETS)}"
        postcode = f"{rng.randint(10000, 99999)}"
        method = shop.method_label(world, 1)
        instruction = say(rng, world, "Send one {item} ({v}) to {who} at {line}, {city} {postcode}, by express. Pay from the checking account.",
                          "{who} needs the {item} in {v}: ship it by express to {line}, {city}, postcode {postcode}, paid with the checking account.",
                          item=product["name"], v=_variant_text(v), who=person.name, line=line, city=book["city"], postcode=postcode)
        ctx = {"product": product["name"], "colour": v["colour"], "size": v["size"], "variant_id": v["id"], "name": person.name, "line": line,
               "city": book["city"], "postcode": postcode, "method": method, "method_id": CHECKING}
        criteria = _order_criteria(f"1 × {product['name']} ({_variant_text(v)})", f"{person.name}, {line}, {book['city']} {postcode}", "express", method)
        criteria.insert(1, Criterion(id="saved", description=f"The address of {person.name} at {line} is in the address book."))
        return self._req(instruction, ctx, criteria)

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        label = shop.address_label({"name": c["name"], "line": c["line"], "city": c["city"], "postcode": c["postcode"]})
        return solve_source(shop.open_product(c["product"]), shop.add_to_cart(c["colour"], c["size"], 1),
                            'env.click("Proceed to checkout", role="link")', shop.add_address(c["name"], c["line"], c["city"], c["postcode"]),
                            shop.checkout(label, "express", c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        where = f'all(_n(x) in _n(o["ship_to"]) for x in {[c["name"], c["line"], c["postcode"]]!r})'
        saved = (f'\n        "saved": any(_n(a["name"]) == _n({c["name"]!r}) and _n(a["line"]) == _n({c["line"]!r}) '
                 f'and _n(a["postcode"]) == _n({c["postcode"]!r}) for a in final.state["shop"]["address"]),')
        return _NORMALISE + _order_verifier([[c["variant_id"], 1]], where, "express", c["method_id"], saved)


_NORMALISE = '''
def _n(text):
    """Lower case, commas as spaces, single spaces: how a person compares two addresses."""
    return " ".join(str(text).lower().replace(",", " ").split())
'''


_WHY = {  # reason as the return form lists it -> how a person says it
    "Doesn't fit": ("it doesn't fit", "it's the wrong size for me"),
    "Changed my mind": ("I don't need it after all", "I changed my mind"),
    "Damaged or defective": ("it arrived damaged", "it arrived faulty"),
    "Not as described": ("it's not what the listing described", "it looks nothing like the description"),
}


class ReturnItem(Family):
    name = "shop.return_item"
    apps = ("shop",)
    description = "Return units of an item from a delivered order still in its return window, with the reason the user gives."
    difficulty = "medium"
    capabilities = ("navigate", "disambiguate", "select_option", "form_fill", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        today = world.scenario.clock.date()
        orders = {o["id"]: o for o in rows["shoporder"]}
        open_lines = [l for l in rows["orderline"] if date.fromisoformat(orders[l["order_id"]]["arrives"]) <= today
                      <= returnable_until(date.fromisoformat(orders[l["order_id"]]["arrives"]))]
        line = pick(rng, open_lines)
        if line is None:
            return None
        order = orders[line["order_id"]]
        reason = rng.choice([r for r in RETURN_REASONS if r in _WHY and (r != "Doesn't fit" or line["size"] != "One size")])
        qty = line["quantity"] if line["quantity"] == 1 or rng.random() < 0.5 else rng.randint(1, line["quantity"] - 1)
        pickup = rng.random() < 0.4
        placed = date.fromisoformat(order["placed_at"][:10])
        item = f"{line['name']} ({line['colour'].lower()})"
        n = line["quantity"]
        what = f"the {item}" if n == 1 else f"all {n} {item}" if qty == n else f"{qty} of the {n} {item}"
        how = "a courier should pick it up" if pickup else "I'll drop it off at a parcel point"
        instruction = say(rng, world, "Return {what} I ordered on {when}: {why}; {how}.",
                          "I want to send back {what} from my {when} order because {why}; {how}.",
                          what=what, when=f"{placed:%B} {placed.day}", why=rng.choice(_WHY[reason]), how=how)
        ctx = {"number": order["number"], "line_id": line["id"], "item": shop.item_label(line["name"], line["colour"], line["size"]),
               "quantity": qty, "reason": reason, "method": "pickup" if pickup else "drop_off", "refund": round(line["unit_price"] * qty, 2)}
        return self._req(instruction, ctx, [
            Criterion(id="returned", description=f"A return of {qty} unit(s) of {line['name']} from order {order['number']}."),
            Criterion(id="reason", description=f"Its reason is '{reason}'."),
            Criterion(id="method", description="Sent back by courier pickup." if pickup else "Dropped off at a parcel point."),
            Criterion(id="only_once", description="Exactly one new return request.", weight=0.5),
        ])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(shop.open_order(c["number"]), shop.request_return(c["item"], c["quantity"], c["reason"], c["method"] == "pickup"))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return shop.new_returns_source("_shop_returns") + f'''

def verify(final):
    new = _shop_returns(final)
    right = [r for r in new if r["line_id"] == {c["line_id"]!r} and r["quantity"] == {c["quantity"]!r}]
    return {{
        "returned": bool(right),
        "reason": any(r["reason"] == {c["reason"]!r} for r in right),
        "method": any(r["method"] == {c["method"]!r} for r in right),
        "only_once": len(new) == 1,
    }}
'''


class CheapestInStock(Family):
    name = "shop.cheapest_in_stock"
    apps = ("shop",)
    description = "Buy one of the cheapest product of a department that is in stock in a colour (and size); pricier or sold-out ones are distractors."
    difficulty = "hard"
    capabilities = ("filter_sort", "compute", "disambiguate", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        cats = {c["id"]: c["name"] for c in rows["category"]}
        products = {p["id"]: p for p in rows["product"]}
        asks = sorted({(products[v["product_id"]]["category_id"], v["colour"], v["size"]) for v in rows["variant"]})
        rng.shuffle(asks)
        price = lambda v: (products[v["product_id"]]["price"], v["product_id"])  # noqa: E731
        offers = []
        for cat, colour, size in asks:
            offered = [v for v in rows["variant"] if products[v["product_id"]]["category_id"] == cat and v["colour"] == colour and v["size"] == size]
            in_stock = [v for v in offered if v["stock"] > 0]
            if len(offered) >= 2 and in_stock:
                best = min(in_stock, key=price)
                if sum(price(v)[0] == price(best)[0] for v in in_stock) == 1:
                    offers.append((min(offered, key=price)["stock"] == 0, cat, colour, size, best))
        if not offers:
            return None
        traps = [o for o in offers if o[0]]  # the cheapest offered is sold out: the list's first is not the answer
        for _, cat, colour, size, best in [pick(rng, traps) if traps and rng.random() < 0.6 else pick(rng, offers)]:
            product = products[best["product_id"]]
            sized = "" if size == "One size" else f" in size {size}"
            method = shop.method_label(world, 0)
            instruction = say(rng, world, "Buy the cheapest {cat} item you can get in {colour}{sized} right now (it must be in stock). One of it, to the office, standard shipping, card.",
                              "I need one thing from {cat}: whichever is cheapest among those available in {colour}{sized}. Ship it to the office by standard shipping and pay by card.",
                              cat=cats[cat].lower(), colour=colour.lower(), sized=sized)
            ctx = {"product": product["name"], "colour": colour, "size": size, "variant_id": best["id"], "category": cats[cat],
                   "address": shop.office_label(world), "method": method, "method_id": CARD}
            return self._req(instruction, ctx, _order_criteria(f"1 × {product['name']} ({_variant_text(best)})", "the office", "standard", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(shop.open_product(c["product"]), shop.add_to_cart(c["colour"], c["size"], 1),
                            shop.checkout(c["address"], "standard", c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _order_verifier([[c["variant_id"], 1]], f'o["address_id"] == {OFFICE}', "standard", c["method_id"])


class SuppliesForMeeting(Family):
    name = "cross.supplies_for_meeting"
    apps = ("calendar", "shop")
    description = "Buy one of a product per person at a calendar meeting (the headcount is only in the calendar), express to the office."
    difficulty = "hard"
    capabilities = ("cross_app", "compute", "search", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        clock = world.scenario.clock
        meetings = [m for m in world.meetings if m.start > clock and len(m.attendees) >= 2 and world.user in (m.organizer, *m.attendees)
                    and sum(x.title == m.title for x in world.meetings) == 1]
        meeting = pick(rng, sorted(meetings, key=lambda m: m.start))
        if meeting is None:
            return None
        people = len({meeting.organizer, *meeting.attendees})
        rows = project(world)
        choice = pick(rng, [pv for pv in _buyable(rows, people) if pv[1]["size"] == "One size" and pv[0]["price"] < 40])
        if choice is None:
            return None
        product, v = choice
        method = shop.method_label(world, 0)
        instruction = say(rng, world, "For the \"{title}\" meeting, order one {item} in {colour} for each person attending (check the calendar; count me too). Express to the office, card.",
                          "Everyone at \"{title}\" (see my calendar, me included) gets a {colour} {item}: order exactly that many, express shipping to the office, paid by card.",
                          title=meeting.title, item=product["name"], colour=v["colour"].lower())
        ctx = {"title": meeting.title, "product": product["name"], "colour": v["colour"], "size": v["size"], "quantity": people,
               "variant_id": v["id"], "address": shop.office_label(world), "method": method, "method_id": CARD}
        return self._req(instruction, ctx, _order_criteria(f"{people} × {product['name']} ({v['colour'].lower()})", "the office", "express", method))

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(calendar.open_app(), shop.open_app(), shop.open_product(c["product"]),
                            shop.add_to_cart(c["colour"], c["size"], c["quantity"]), shop.checkout(c["address"], "express", c["method"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _order_verifier([[c["variant_id"], c["quantity"]]], f'o["address_id"] == {OFFICE}', "express", c["method_id"])


class OrderArrival(AnswerFamily):
    name = "shop.order_arrival"
    apps = ("shop",)
    description = "Find the order of a named product in the order history and answer with the day it was (or will be) delivered."
    difficulty = "easy"
    capabilities = ("navigate", "read_answer", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = [line["name"] for line in rows["orderline"]]
        line = pick(rng, [x for x in rows["orderline"] if names.count(x["name"]) == 1])
        if line is None:
            return None
        order = next(o for o in rows["shoporder"] if o["id"] == line["order_id"])
        arrives = date.fromisoformat(order["arrives"])
        if arrives <= world.scenario.clock.date():
            instruction = say(rng, world, "When was my {p} delivered?", "On what day did the {p} I ordered arrive?",
                              "Check my orders: which day did the {p} get delivered?", p=line["name"])
        else:
            instruction = say(rng, world, "When will my {p} arrive?", "What's the expected delivery day of the {p} I ordered?",
                              "Check my orders: which day is the {p} being delivered?", p=line["name"])
        ctx = {"number": order["number"], "product": line["name"], "arrives": arrives.isoformat(),
               "arrives_text": f"{arrives:%B} {arrives.day}, {arrives.year}",
               "tab": "Delivered" if arrives <= world.scenario.clock.date() else "Open"}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {arrives.isoformat()}, the delivery day of order {order['number']}.",
                                                         "The answer names no other date (the day it was placed is no answer)."))

    answer = AnswerSpec("date", "arrives", golden="{arrives_text}", sentence="On {arrives.day} {arrives:%B} {arrives.year}.")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Filter the order history to delivered (or open) orders and read the day off the list, day first."""
        return shop.open_order(c["number"]), ('env.click("Orders", role="link")', f'env.click({c["tab"]!r}, role="link")')


FAMILIES = (BuyVariant(), SendToNewAddress(), ReturnItem(), CheapestInStock(), SuppliesForMeeting(), OrderArrival())
