"""The shop over real HTTP and a real browser: departments, search and sort; variants and their stock;
cart and checkout (address book, shipping rules, payment); cancel until shipped; returns in the window
with their refund; the projection keeps the world's money and dates."""

from __future__ import annotations

import re

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served

server = served("mocked_apps.shop")
TEE, SHOES, LAMP = 1, 5, 12
"""Product ids of the fixed catalogue: Merino crew T-shirt (5 sizes), Everyday running shoes, LED desk lamp (one size)."""


@pytest.fixture
def shop(server):
    with Client(server) as instance:
        yield instance


def _variant(state, product, colour, size):
    return next(v for v in state["variant"] if v["product_id"] == product and v["colour"] == colour and v["size"] == size)


def test_catalogue_departments_search_and_sort(shop):
    state = shop.state()
    shoes = shop.get("/", category="2").text
    assert "Canvas sneakers" in shoes and "Merino crew T-shirt" not in shoes
    assert "Packable rain jacket" in shop.get("/", q="northpeak").text and "Canvas tote bag" not in shop.get("/", q="northpeak").text
    cheap_first = shop.get("/", sort="price_low").text
    by_price = sorted(state["product"], key=lambda p: (p["price"], p["id"]))
    positions = [cheap_first.index(f'aria-label="{p["name"]}"') for p in by_price]
    assert positions == sorted(positions)
    # the product page shows the chosen colour's sizes with their stock; a sold-out size is disabled
    page = shop.get(f"/p/{TEE}", colour="Navy").text
    assert _variant(state, TEE, "Navy", "XS")["stock"] == 0
    assert re.search(r'value="XS" disabled> XS</label>\s*<span class="small warn">Sold out', page)


def test_stock_rules_cart_checkout_and_cancel(shop):
    state = shop.state()
    sold_out = _variant(state, TEE, "Navy", "XS")
    last_one = _variant(state, TEE, "Black", "M")  # 1 in stock
    assert shop.post("/cart/add", product=str(TEE), colour="Navy", size="XS", quantity="1") == f"/p/{TEE}?error=stock&colour=Navy"
    assert shop.post("/cart/add", product=str(TEE), colour="Black", size="M", quantity="2").endswith("error=stock&colour=Black")
    assert shop.post("/cart/add", product=str(TEE), colour="Black", size="Huge", quantity="1").endswith("error=size&colour=Black")
    assert shop.state() == state
    shop.post("/cart/add", product=str(TEE), colour="Black", size="M", quantity="1")
    assert "error=stock" in shop.post("/cart/add", product=str(TEE), colour="Black", size="M", quantity="1")  # the cart counts too
    cart = shop.get("/cart").text
    assert "Add $16.00 for free standard shipping." in cart
    # 34.00 < 50: standard costs 4.99; a missing payment method writes nothing
    before = shop.state()
    assert shop.post("/checkout", address="1", speed="standard") == "/checkout?error=method&address=1&speed=standard"
    assert shop.state() == before
    where = shop.post("/checkout", address="2", speed="standard", method="2")
    after = shop.state()
    order = after["shoporder"][-1]
    assert where.startswith(f"/orders/{order['id']}?notice=Order+placed")
    assert (order["subtotal"], order["shipping_fee"], order["total"], order["shipping"], order["payment_method_id"]) == (34.0, 4.99, 38.99, "standard", 2)
    assert order["ship_to"].startswith("Alex Morgan, ") and order["arrives"] == "2026-03-07" and after["cartline"] == []
    assert _variant(after, TEE, "Black", "M")["stock"] == 0 and sold_out["stock"] == 0
    assert [(l["variant_id"], l["quantity"], l["unit_price"]) for l in after["orderline"] if l["order_id"] == order["id"]] == [(last_one["id"], 1, 34.0)]
    # two running shoes: over 50, standard is free, express is not
    shop.post("/cart/add", product=str(SHOES), colour="Black", size="42", quantity="1")
    shop.post(f"/cart/{shop.state()['cartline'][0]['id']}/more")
    shop.post("/checkout", address="1", speed="express", method="1")
    express = shop.state()["shoporder"][-1]
    assert (express["subtotal"], express["shipping_fee"], express["total"], express["arrives"]) == (158.0, 12.99, 170.99, "2026-03-03")
    # cancelling before it ships puts the stock back
    assert shop.post(f"/orders/{order['id']}/cancel").endswith("will+not+be+charged")
    assert _variant(shop.state(), TEE, "Black", "M")["stock"] == 1 and shop.state()["shoporder"][-2]["status"] == "cancelled"
    shipped = next(o for o in state["shoporder"] if o["status"] == "shipped")
    assert "can+no+longer+be+cancelled" in shop.post(f"/orders/{shipped['id']}/cancel")


def test_address_book_validates_and_comes_back_to_checkout(shop):
    before = shop.state()
    assert shop.post("/addresses", name="Ann Matthews", line="", city="Portland", postcode="97!", back="checkout").startswith("/addresses/new?check=1")
    assert shop.state() == before
    form = shop.get("/addresses/new", name="Ann Matthews", city="Portland", postcode="97!", check="1").text
    assert "Enter the street and number." in form and "A postal code is 3 to 10" in form and 'value="Ann Matthews"' in form
    where = shop.post("/addresses", name="Ann Matthews", line="12 Mill Lane", city="Portland", postcode="97210", back="checkout")
    new = shop.state()["address"][-1]
    shop.post("/cart/add", product=str(LAMP), colour="White", size="One size", quantity="1")
    assert where == f"/checkout?notice=Address+saved%3A+Ann+Matthews%2C+Portland&address={new['id']}" and new["is_default"] is False
    assert re.search(rf'value="{new["id"]}" checked> Ann Matthews, 12 Mill Lane, Portland 97210', shop.get("/checkout", address=str(new["id"])).text)
    assert "Choose+another+default" in shop.post("/addresses/1/delete")
    shop.post(f"/addresses/{new['id']}/default")
    assert [a["id"] for a in shop.state()["address"] if a["is_default"]] == [new["id"]]
    shop.post("/addresses/1/delete")
    assert 1 not in {a["id"] for a in shop.state()["address"]}


def test_returns_in_the_window_with_their_refund(server, shop):
    state = shop.state()
    totes = next(l for l in state["orderline"] if l["name"] == "Canvas tote bag")  # 9 delivered on Feb 27
    order = f"/orders/{totes['order_id']}/return"
    for bad, error in (({"quantity": "10", "reason": "Changed my mind"}, "quantity"), ({"quantity": "2", "reason": "Too ugly"}, "reason"),
                       ({"quantity": "0", "reason": "Changed my mind"}, "quantity")):
        assert f"error={error}" in shop.post(order, line=str(totes["id"]), method="pickup", **bad)
    assert shop.state() == state
    assert shop.post(order, line=str(totes["id"]), quantity="4", reason="Damaged or defective", method="pickup").startswith("/returns?notice=Return+requested")
    (made,) = shop.state()["returnrequest"]
    assert (made["quantity"], made["refund"], made["status"], made["method"]) == (4, 75.68, "requested", "pickup")
    assert "error=quantity" in shop.post(order, line=str(totes["id"]), quantity="6", reason="Changed my mind")  # 5 left
    shop.post(f"/returns/{made['id']}/withdraw")
    assert shop.post(order, line=str(totes["id"]), quantity="9", reason="Changed my mind").startswith("/returns")
    # a month later the window has closed: the same return is refused
    with Client(server, clock="2026-04-15T09:00:00") as later:
        assert "error=window" in later.post(order, line=str(totes["id"]), quantity="1", reason="Changed my mind")
        assert "The return window closed on" in later.get(f"/orders/{totes['order_id']}").text


def test_main_flow_in_a_real_browser_at_both_sizes(shop):
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(shop.url("/"))
            page.get_by_label("Search the shop").fill("running")
            page.keyboard.press("Enter")
            page.get_by_role("link", name="Everyday running shoes").click()
            page.get_by_role("link", name="Blue", exact=True).click()
            page.get_by_label("41", exact=True).check()
            page.get_by_role("button", name="Add to cart").click()
            page.get_by_role("link", name="Proceed to checkout").click()
            page.get_by_label("Express (next day)").check()
            page.get_by_label("Payment method").select_option(index=1)
            page.get_by_role("button", name="Place your order").click()
            assert "Order placed" in page.inner_text("main"), form_factor
            page.get_by_role("button", name="Cancel order").click()
    assert pages.errors == []
    assert [o["status"] for o in shop.state()["shoporder"][-2:]] == ["cancelled", "cancelled"]


def test_projection_keeps_the_worlds_money_and_dates():
    """Past orders are the world's stationery and online-order charges up to its clock (same total, placed at the
    charge); the office is the default address, a relative's home is in the book; the world's card and checking
    account are the payment methods; the same world, the same rows."""
    from datetime import datetime

    from contracts.world import Account, Organisation, Person, Persona, Scenario, Transaction, World
    from mocked_apps.shop.projection import project

    persona = Persona(id="p", name="Rosa Delgado", email="r@db.example", role="owner", company="Delgado Bakery", domain="db.example",
                      city="San Antonio", address="42 Mission Road, San Antonio, TX 78210")
    charges = [Transaction(id="t1", account="a3", posted=datetime(2026, 3, 30, 13, 0), description="Stationery", amount=-37.5, category="card",
                           counterparty="Stationery"),
               Transaction(id="t2", account="a3", posted=datetime(2026, 4, 3, 9, 0), description="Peterson online order", amount=-88.0,
                           category="card", counterparty="o3"),
               Transaction(id="t3", account="a3", posted=datetime(2026, 4, 3, 10, 0), description="Coffee shop", amount=-4.2, category="card",
                           counterparty="Coffee shop"),
               Transaction(id="t4", account="a3", posted=datetime(2026, 4, 9, 10, 0), description="Stationery", amount=-20.0, category="card",
                           counterparty="Stationery")]  # after the clock: not an order yet
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=datetime(2026, 4, 6, 9)),
                  user="u", organisations=(Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),
                                           Organisation(id="o2", name="Delgado family", kind="household", domain="home.example")),
                  people=(Person(id="u", name="Rosa Delgado", email="r@db.example", org="o1", role="owner"),
                          Person(id="m", name="Luz Delgado", email="luz@home.example", org="o2", role="mother")),
                  accounts=(Account(id="a3", name="Company Card", kind="credit", number="4242", opening_balance=0.0),
                            Account(id="a1", name="Checking", kind="checking", number="1111", opening_balance=0.0)),
                  transactions=tuple(charges))
    rows = project(world)
    assert [(o["total"], o["placed_at"], o["status"]) for o in rows["shoporder"]] == [(37.5, "2026-03-30T13:00:00", "delivered"),
                                                                                      (88.0, "2026-04-03T09:00:00", "shipped")]
    for o in rows["shoporder"]:
        lines = [l for l in rows["orderline"] if l["order_id"] == o["id"]]
        assert round(sum(l["unit_price"] * l["quantity"] for l in lines) + o["shipping_fee"], 2) == o["total"]
    assert [o["shipping_fee"] for o in rows["shoporder"]] == [4.99, 0.0]  # free from $50
    assert rows["address"][0] == {"id": 1, "phone": "", "name": "Rosa Delgado", "line": "42 Mission Road", "city": "San Antonio TX",
                                  "postcode": "78210", "label": "Office", "is_default": True}
    assert [a["name"] for a in rows["address"]] == ["Rosa Delgado", "Rosa Delgado", "Luz Delgado"]
    assert rows["paymentmethod"] == [{"id": 1, "label": "Company Card •••• 4242"}, {"id": 2, "label": "Checking •••• 1111"}]
    assert project(world) == rows
