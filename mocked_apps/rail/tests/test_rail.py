"""The rail app over real HTTP and a real browser: search, availability that moves as tickets sell,
booking and paying, refunds with their fee, changing a trip, passengers, and the world projection."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served
from mocked_apps.rail.projection import project
from mocked_apps.rail.rules import duration_text, sold_elsewhere

server = served("mocked_apps.rail")
DAY = "2026-03-05"


@pytest.fixture
def rail(server):
    with Client(server) as instance:
        yield instance


def _left(page: str, label: str) -> int | None:
    """Seats left shown next to the 'Book <class> on <train>' link, None when sold out (no link)."""
    match = re.search(r'<span class="left[^"]*">(\d+) left</span>\s*<a[^>]*aria-label="%s"' % re.escape(label), page)
    return int(match.group(1)) if match else None


def _book(rail: Client, train: str, passengers: list[str], seat_class: str = "Second class", seat: str = "none") -> int:
    where = rail.post("/book", train=train, day=DAY, seat_class=seat_class, passenger=passengers, seat=seat)
    match = re.match(r"/orders/(\d+)\?", where)
    assert match, where
    return int(match.group(1))


def _train(state, number: str) -> dict:
    return next(t for t in state["service"] if t["number"] == number)


def test_search_lists_the_route_with_times_durations_and_classes(rail):
    page = rail.get("/trains", origin="1", destination="3", day=DAY).text
    state = rail.state()
    route = [t for t in state["service"] if (t["origin_id"], t["destination_id"]) == (1, 3)]
    assert len(route) == 8 and all(t["number"] in page for t in route)
    assert "Business class" in page and all(duration_text(t["duration_min"]) in page for t in route)
    # sorted by journey time: the high-speed trains come first
    fastest = min(route, key=lambda t: (t["duration_min"], t["depart"]))
    by_duration = rail.get("/trains", origin="1", destination="3", day=DAY, sort="duration").text
    assert by_duration.index(fastest["number"]) < min(by_duration.index(t["number"]) for t in route if t is not fastest)
    only_g = rail.get("/trains", origin="1", destination="3", day=DAY, kinds="G").text
    assert all((t["number"] in only_g) == (t["kind"] == "G") for t in route)
    # a bad search goes back to the form with the reason
    assert "Choose a destination other than" in rail.get("/", check="1", origin="1", destination="1", day=DAY).text
    assert "tickets go on sale 15 days ahead" in rail.get("/", check="1", origin="1", destination="2", day="2026-04-30").text


def test_booking_holds_seats_and_paying_confirms(rail):
    before = rail.state()
    train = _train(before, "G111")
    label = f"Book Second class on {train['number']}"
    page = rail.get("/trains", origin=str(train["origin_id"]), destination=str(train["destination_id"]), day=DAY).text
    left = _left(page, label)
    assert left and left >= 2
    oid = _book(rail, str(train["id"]), ["1", "2"], seat="window")
    held = rail.state()
    order = held["orders"][-1]
    assert (order["id"], order["status"], order["train_id"], order["travel_date"]) == (oid, "unpaid", train["id"], DAY)
    tickets = [t for t in held["ticket"] if t["order_id"] == oid]
    assert sorted(t["passenger_id"] for t in tickets) == [1, 2] and tickets[0]["seat"][-1] in "AF"
    assert len({(t["coach"], t["seat"]) for t in tickets}) == 2
    senior = next(p for p in held["passenger"] if p["id"] == 2)["kind"] == "senior"
    fare = next(f for f in held["fare"] if f["train_id"] == train["id"] and f["seat_class"] == "Second class")["price"]
    assert order["total"] == round(fare + (round(fare * 0.8, 2) if senior else fare), 2)
    # availability moved by the two held seats
    page = rail.get("/trains", origin=str(train["origin_id"]), destination=str(train["destination_id"]), day=DAY).text
    assert _left(page, label) == left - 2
    assert rail.post(f"/orders/{oid}/pay", method="") == f"/orders/{oid}?error=method"
    assert rail.state() == held
    assert rail.post(f"/orders/{oid}/pay", method="1").startswith(f"/orders/{oid}?notice=Paid")
    paid = rail.state()["orders"][-1]
    assert (paid["status"], paid["payment_method_id"]) == ("paid", 1) and paid["paid_at"]
    # paying twice changes nothing
    after = rail.state()
    rail.post(f"/orders/{oid}/pay", method="2")
    assert rail.state() == after


def test_booking_errors_write_nothing(rail):
    before = rail.state()
    train = _train(before, "G111")
    where = rail.post("/book", train=str(train["id"]), day=DAY, seat_class="Second class")
    assert where.startswith("/book?check=1")
    assert "Choose at least one passenger." in rail.get(where).text
    assert rail.post("/book", train=str(train["id"]), day="2026-06-01", seat_class="Second class", passenger=["1"]).startswith("/book?check=1")
    assert rail.state() == before


def test_a_sold_out_class_cannot_be_booked(rail):
    state = rail.state()
    fare = next(f for f in state["fare"] if sold_elsewhere(f["id"], f["seats"], DAY) == f["seats"])
    train = next(t for t in state["service"] if t["id"] == fare["train_id"])
    page = rail.get("/trains", origin=str(train["origin_id"]), destination=str(train["destination_id"]), day=DAY).text
    assert f'aria-label="Book {fare["seat_class"]} on {train["number"]}"' not in page
    where = rail.post("/book", train=str(train["id"]), day=DAY, seat_class=fare["seat_class"], passenger=["1"])
    assert "is sold out" in rail.get(where).text and rail.state() == state


def test_cancel_releases_the_seats(rail):
    train = _train(rail.state(), "D305")
    oid = _book(rail, str(train["id"]), ["1"])
    assert rail.post(f"/orders/{oid}/cancel").startswith("/orders?notice=")
    state = rail.state()
    assert state["orders"][-1]["status"] == "cancelled" and state["ticket"][-1]["status"] == "cancelled"


def test_refund_fee_follows_the_time_to_departure(rail):
    state = rail.state()
    upcoming = {o["number"]: o for o in state["orders"] if o["travel_date"] >= "2026-03-02" and o["status"] == "paid"}
    assert set(upcoming) == {"E260221007", "GO97251"}
    far = upcoming["GO97251"]  # 2026-03-11: more than 8 days ahead, no fee
    page = rail.get(f"/orders/{far['id']}/refund").text
    assert "Refund fee now: <strong>0%" in page
    assert rail.post(f"/orders/{far['id']}/refund", ticket=[str(t["id"]) for t in state["ticket"] if t["order_id"] == far["id"]]).startswith(
        f"/orders/{far['id']}?notice=Refund")
    near = upcoming["E260221007"]  # 2026-03-04 at 06:10 or later: within 48 hours -> 10%
    ticket = next(t for t in state["ticket"] if t["order_id"] == near["id"])
    rail.post(f"/orders/{near['id']}/refund", ticket=[str(ticket["id"])])
    after = {t["id"]: t for t in rail.state()["ticket"]}
    assert after[ticket["id"]]["status"] == "refunded"
    assert after[ticket["id"]]["refund_amount"] in (round(ticket["price"] * 0.9, 2), round(ticket["price"] * 0.95, 2))
    orders = {o["id"]: o for o in rail.state()["orders"]}
    assert orders[far["id"]]["status"] == orders[near["id"]]["status"] == "refunded"
    again = rail.state()
    rail.post(f"/orders/{far['id']}/refund", ticket=["1"])
    assert rail.state() == again


def test_change_moves_the_passengers_to_another_train_once(rail):
    state = rail.state()
    order = next(o for o in state["orders"] if o["number"] == "GO97251")
    old = next(t for t in state["service"] if t["id"] == order["train_id"])
    other = next(t for t in state["service"] if (t["origin_id"], t["destination_id"]) == (old["origin_id"], old["destination_id"]) and t["kind"] == "K")
    page = rail.get(f"/orders/{order['id']}/change").text
    assert f"Change to Second class on {other['number']}" in page
    where = rail.post(f"/orders/{order['id']}/change", train=str(other["id"]), day=order["travel_date"], seat_class="Second class")
    after = rail.state()
    new = after["orders"][-1]
    assert where.startswith(f"/orders/{new['id']}?notice=Trip+changed")
    assert (new["status"], new["train_id"], new["changed_from_id"], new["payment_method_id"]) == ("paid", other["id"], order["id"], order["payment_method_id"])
    assert next(o for o in after["orders"] if o["id"] == order["id"])["status"] == "changed"
    assert new["fare_difference"] == round(new["total"] - order["total"], 2)
    assert [t["passenger_id"] for t in after["ticket"] if t["order_id"] == new["id"]] == [1]
    assert "already changed once" in rail.get(f"/orders/{new['id']}/change").text


def test_passengers_are_validated_and_saved(rail):
    before = rail.state()
    where = rail.post("/passengers/new", name="Sam Lee", id_number="12", kind="adult")
    assert "6 to 12 letters and digits" in rail.get(where).text and rail.state() == before
    taken = before["passenger"][1]["id_number"]
    assert "already saved with this ID" in rail.get(rail.post("/passengers/new", name="Sam Lee", id_number=taken, kind="adult")).text
    assert rail.post("/passengers/new", name="Sam Lee", id_number="p1234567", kind="child").startswith("/passengers?notice=")
    new = rail.state()["passenger"][-1]
    assert (new["name"], new["id_number"], new["kind"], new["is_self"]) == ("Sam Lee", "P1234567", "child", False)
    rail.post("/passengers/1/delete")
    assert any(p["id"] == 1 for p in rail.state()["passenger"])


def _world():
    """A small world by hand: a persona in Seattle with a card, two train-ticket charges and a booked journey."""
    from contracts.world import Account, Meeting, Organisation, Person, Persona, Scenario, Transaction, World

    persona = Persona(id="p", name="Kenji Watanabe", email="k@kw.example", role="consultant", company="KW", domain="kw.example", city="Seattle")
    now = datetime(2026, 5, 4, 9, 0)
    tx = lambda i, when, amount, what="Train ticket", ref="": Transaction(  # noqa: E731
        id=f"t{i}", account="a3", posted=when, description=what, amount=amount, category="card", counterparty=what, reference=ref)
    return World(
        id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="Talk", description="", clock=now), user="u",
        organisations=(Organisation(id="o1", name="KW", kind="self", domain="kw.example"),
                       Organisation(id="o2", name="Watanabe family", kind="household", domain="mailbox.example"),
                       Organisation(id="o3", name="Fast Rail", kind="vendor", domain="fastrail.example", category="travel")),
        people=(Person(id="u", name="Kenji Watanabe", email="k@kw.example", org="o1", role="consultant"),
                Person(id="h", name="Aiko Watanabe", email="a@mailbox.example", org="o2", role="daughter")),
        accounts=(Account(id="a1", name="Business Checking", kind="checking", number="1111", opening_balance=1000.0),
                  Account(id="a3", name="Company Card", kind="credit", number="4242", opening_balance=0.0)),
        transactions=(tx(1, datetime(2026, 4, 10, 12), -31.5), tx(2, datetime(2026, 5, 1, 15), -44.25),
                      tx(3, datetime(2026, 4, 28, 8), -96.0, "Fast Rail FA12345", "FA12345")),
        meetings=(Meeting(id="m1", title="Train Seattle to Lakeview", start=datetime(2026, 5, 9, 8, 15), end=datetime(2026, 5, 9, 10, 45),
                          location="Lakeview", organizer="u", attendees=(), description="Booking FA12345 with Fast Rail."),),
    )


def test_projection_keeps_the_worlds_people_money_and_dates():
    world = _world()
    rows = project(world)
    assert [s["name"] for s in rows["station"]][:3] == ["Seattle", "Lakeview", "San Francisco"]  # home, the trip, the country
    assert [(p["name"], p["kind"], p["is_self"]) for p in rows["passenger"]] == [("Kenji Watanabe", "adult", True), ("Aiko Watanabe", "child", False)]
    assert [m["label"] for m in rows["paymentmethod"]] == ["Company Card •••• 4242", "Business Checking •••• 1111"]
    orders = {o["number"]: o for o in rows["orders"]}
    assert sorted(o["total"] for o in rows["orders"]) == [31.5, 44.25, 96.0]  # the card charges, to the cent
    booked = orders["FA12345"]
    train = next(t for t in rows["service"] if t["id"] == booked["train_id"])
    assert (booked["travel_date"], train["depart"], train["duration_min"], train["destination_id"]) == ("2026-05-09", "08:15", 150, 2)
    latest = next(o for o in rows["orders"] if o["total"] == 44.25)
    assert latest["travel_date"] > "2026-05-04" and latest["created_at"].startswith("2026-05-01T15")  # bought then, still ahead
    assert project(world) == rows


def test_main_flow_in_a_real_browser_at_both_sizes(rail):
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(rail.url("/"))
            page.select_option("#destination", label="Seattle")
            page.fill("#day", DAY)
            page.get_by_role("button", name="Search trains").click()
            page.get_by_role("link", name=re.compile("^Book Second class on D")).first.click()
            page.get_by_role("button", name="Submit order").click()
            page.select_option("#method", index=1)
            page.get_by_role("button", name="Pay now").click()
            assert "your tickets are confirmed" in page.inner_text("main"), form_factor
            assert page.get_by_role("navigation").get_by_role("link", name="My orders").is_visible()
    assert pages.errors == []
