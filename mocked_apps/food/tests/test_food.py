"""The food app over real HTTP and a real browser: restaurants by cuisine and sort, options and add-ons,
cart rules (one restaurant, minimum order, free delivery), coupons, checkout, tracking, cancel, reorder."""

from __future__ import annotations

import re

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.food")


@pytest.fixture
def food(server):
    with Client(server) as instance:
        yield instance


def _choices(state, item_id):
    return [c for c in state["choice"] if c["item_id"] == item_id]


def _item(state, name):
    return next(i for i in state["menuitem"] if i["name"] == name)


def test_restaurants_filter_and_sort(food):
    state = food.state()
    page = food.get("/", cuisine="Pizza").text
    assert "Bella Napoli" in page and "Golden Wok" not in page
    nearest = food.get("/", sort="distance").text
    by_km = sorted(state["restaurant"], key=lambda r: (r["distance_km"], r["id"]))
    positions = [nearest.index(r["name"]) for r in by_km]
    assert positions == sorted(positions)
    assert "Green Bowl" in food.get("/", q="falafel").text and "Burger Barn" not in food.get("/", q="falafel").text


def test_options_add_ons_and_the_one_restaurant_cart(food):
    state = food.state()
    pizza = _item(state, "Margherita")
    size16, cheese = [c["id"] for c in _choices(state, pizza["id"]) if c["name"] in ("16 inch", "Extra cheese")]
    assert food.post("/cart/add", item=str(pizza["id"]), quantity="2", **{"choice-size": str(size16), "choice-add-ons": str(cheese)}).startswith("/r/")
    line = food.state()["cartline"][0]
    assert (line["item_id"], line["choices"], line["quantity"]) == (pizza["id"], f"{size16},{cheese}", 2)
    cart = food.get("/cart").text
    assert "16 inch, Extra cheese" in cart and "$18.00 each" in cart and "$36.00" in cart
    # the same item with the same options adds up; a pick-one group needs exactly one choice
    food.post("/cart/add", item=str(pizza["id"]), quantity="1", **{"choice-size": str(size16), "choice-add-ons": str(cheese)})
    assert food.state()["cartline"][0]["quantity"] == 3
    before = food.state()
    assert food.post("/cart/add", item=str(pizza["id"]), quantity="1").endswith("error=options")
    wok = _item(state, "Jasmine tea")
    assert food.post("/cart/add", item=str(wok["id"]), quantity="1").endswith("error=other")
    assert "Your cart has items from Bella Napoli" in food.get(f"/r/{wok['restaurant_id']}/item/{wok['id']}", error="other").text
    assert food.state() == before


def test_minimum_order_delivery_fee_and_coupons(food):
    state = food.state()
    soup = _item(state, "Lentil soup")  # Green Bowl: minimum 12.00, fee 1.50, free over 30.00
    food.post("/cart/add", item=str(soup["id"]), quantity="1")
    before = food.state()
    assert food.post("/checkout", address="1", method="1") == "/cart?error=minimum&address=1&method=1"
    assert "Add $5.50 more to reach the minimum order of $12.00." in food.get("/cart", error="minimum").text
    assert food.state() == before
    line = before["cartline"][0]["id"]
    food.post(f"/cart/{line}/more")
    food.post(f"/cart/{line}/more")  # 3 x 6.50 = 19.50: over the minimum, delivery still charged
    assert "$1.50" in food.get("/cart").text
    # coupon 1 needs 30.00: refused, nothing placed
    assert food.post("/checkout", address="1", method="1", coupon="1").startswith("/cart?error=coupon")
    for _ in range(2):
        food.post(f"/cart/{line}/more")  # 5 x 6.50 = 32.50: free delivery, both coupons usable
    where = food.post("/checkout", address="1", method="2", coupon="3", note="No cutlery")
    order = food.state()["foodorder"][-1]
    assert where == f"/orders/{order['id']}?notice=Order+placed%3A+Green+Bowl+is+preparing+it"
    assert (order["subtotal"], order["delivery_fee"], order["discount"], order["total"], order["coupon_id"]) == (32.5, 0.0, 4.0, 28.5, 3)
    after = food.state()
    assert after["cartline"] == [] and next(c for c in after["coupon"] if c["id"] == 3)["used"] is True
    assert [(l["name"], l["quantity"], l["unit_price"]) for l in after["orderline"] if l["order_id"] == order["id"]] == [("Lentil soup", 5, 6.5)]
    assert "Preparing" in food.get(f"/orders/{order['id']}").text


def test_cancel_within_five_minutes_and_reorder(food):
    state = food.state()
    soup = _item(state, "Falafel bowl")
    size = _choices(state, soup["id"])[0]["id"]
    food.post("/cart/add", item=str(soup["id"]), quantity="2", **{"choice-size": str(size)})
    food.post("/checkout", address="1", method="1")
    order = food.state()["foodorder"][-1]
    assert food.post(f"/orders/{order['id']}/cancel").endswith("not+charged")
    assert food.state()["foodorder"][-1]["status"] == "cancelled"
    past = state["foodorder"][0]
    assert food.post(f"/orders/{past['id']}/cancel").startswith(f"/orders/{past['id']}?notice=This+order+can+no+longer")
    assert food.post(f"/orders/{past['id']}/reorder") == "/cart?notice=Your+previous+order+is+back+in+the+cart"
    lines = [(l["item_id"], l["quantity"]) for l in state["orderline"] if l["order_id"] == past["id"]]
    assert [(c["item_id"], c["quantity"]) for c in food.state()["cartline"]] == lines


def test_main_flow_in_a_real_browser_at_both_sizes(food):
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(food.url("/"))
            page.get_by_role("link", name=re.compile("Bella Napoli")).click()
            page.get_by_role("link", name="Add Margherita").click()
            page.get_by_label("16 inch").check()
            page.get_by_label("Olives").check()
            page.get_by_label("Quantity").fill("2")
            page.get_by_role("button", name="Add to cart").click()
            page.get_by_role("navigation").get_by_role("link", name=re.compile("^Cart")).click()
            page.select_option("#method", index=1)
            page.get_by_role("button", name="Place order").click()
            assert "is preparing it" in page.inner_text("main"), form_factor
            page.get_by_role("button", name="Cancel order").click()
    assert pages.errors == []


def test_projection_keeps_the_worlds_money_and_dates():
    """Past orders are the world's lunch card charges (same total, delivered at the moment of the charge);
    coupons date from the world's clock; the office and the world's card are the defaults."""
    from datetime import datetime

    from contracts.world import Account, Organisation, Person, Persona, Scenario, Transaction, World
    from mocked_apps.food.projection import project

    persona = Persona(id="p", name="Rosa Delgado", email="r@db.example", role="owner", company="Delgado Bakery", domain="db.example",
                      city="San Antonio", address="42 Mission Road, San Antonio")
    lunch = Transaction(id="t1", account="a3", posted=datetime(2026, 4, 2, 13, 0), description="Lunch meeting", amount=-47.3,
                        category="card", counterparty="Lunch meeting")
    coffee = Transaction(id="t2", account="a3", posted=datetime(2026, 4, 3, 9, 0), description="Coffee shop", amount=-4.2,
                         category="card", counterparty="Coffee shop")
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=datetime(2026, 4, 6, 9)),
                  user="u", organisations=(Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),),
                  people=(Person(id="u", name="Rosa Delgado", email="r@db.example", org="o1", role="owner"),),
                  accounts=(Account(id="a3", name="Company Card", kind="credit", number="4242", opening_balance=0.0),),
                  transactions=(lunch, coffee))
    rows = project(world)
    (order,) = rows["foodorder"]
    lines = [l for l in rows["orderline"] if l["order_id"] == order["id"]]
    assert order["total"] == 47.3 and order["eta"] == "2026-04-02T13:00:00" and order["status"] == "delivered"
    assert round(sum(l["unit_price"] * l["quantity"] for l in lines) + order["delivery_fee"], 2) == 47.3
    assert rows["address"][0] == {"id": 1, "label": "Office", "line": "42 Mission Road, San Antonio"}
    assert rows["paymentmethod"] == [{"id": 1, "label": "Company Card •••• 4242"}]
    assert [c["expires"] >= "2026-04-06" for c in rows["coupon"]] == [True, True, True, False]
    assert project(world) == rows


def test_reorder_subtotal_is_what_the_app_puts_in_the_cart(food):
    """The food.reorder family predicts the cart a reorder makes (to skip orders under the minimum at today's prices);
    the prediction must be the app's own subtotal for every past order."""
    from mocked_apps.food.families import _reorder_subtotal
    from mocked_apps.food.pricing import line_price

    state = food.state()
    assert state["foodorder"]
    for past in state["foodorder"]:
        food.post(f"/orders/{past['id']}/reorder")
        after = food.state()
        items, choices = {i["id"]: i for i in after["menuitem"]}, {c["id"]: c for c in after["choice"]}
        cart = sum(line_price(items[l["item_id"]]["price"], [choices[int(c)]["price"] for c in l["choices"].split(",") if c])
                   * l["quantity"] for l in after["cartline"])
        assert _reorder_subtotal(state, past) == round(cart, 2), past["number"]

