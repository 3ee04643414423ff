"""The rail app over real HTTP and a real browser: search, availability that moves as tickets sell,
booking and paying, refunds with their fee, changing a trip, passengers, and the world projection.

The tests read what they need from the state (stations, trains, fares, seats left) and book their own
orders through the app's forms, so they hold for any default seed the default world projects."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from mocked_apps.kit.testing import Client, browser_pages, served
from mocked_apps.rail.projection import project
from mocked_apps.rail.rules import duration_text, sold_elsewhere

server = served("mocked_apps.rail")
SEED = json.loads((Path(__file__).parents[1] / "seed.json").read_text())
CLOCK = datetime.fromisoformat(SEED["clock"])
"""The default seed's clock: every new instance starts at it."""
DAY = (CLOCK.date() + timedelta(days=3)).isoformat()
"""A travel date on sale, a few days ahead."""


@pytest.fixture
def rail(server):
    with Client(server) as instance:
        yield instance


def _left(page: str, label: str) -> int | None:
    """Seats left shown next to the 'Book <class> on <train>' link, None when sold out (no link)."""
    match = re.search(r'<span class="left[^"]*">(\d+) left</span>\s*<a[^>]*aria-label="%s"' % re.escape(label), page)
    return int(match.group(1)) if match else None


def _fare(state, train_id: int, seat_class: str = "Second class") -> dict | None:
    return next((f for f in state["fare"] if f["train_id"] == train_id and f["seat_class"] == seat_class), None)


def _seats_left(state, train: dict, day: str, seat_class: str = "Second class") -> int:
    """Seats of a class left on a day by the app's rule: capacity, less sold elsewhere, less this instance's live tickets."""
    fare = _fare(state, train["id"], seat_class)
    if fare is None:
        return 0
    live = {o["id"] for o in state["orders"] if o["status"] in ("unpaid", "paid") and (o["train_id"], o["travel_date"], o["seat_class"]) == (
        train["id"], day, seat_class)}
    held = sum(t["order_id"] in live and t["status"] == "active" for t in state["ticket"])
    return fare["seats"] - sold_elsewhere(fare["id"], fare["seats"], day) - held


def _hours_ahead(train: dict, day: str | date) -> float:
    """Hours from the seed's clock to the train's departure on `day`."""
    leaves = datetime.combine(date.fromisoformat(str(day)), datetime.strptime(train["depart"], "%H:%M").time())
    return (leaves - CLOCK).total_seconds() / 3600


def _hours_of(day: str) -> tuple[float, float]:
    """The hours after the clock that `day` spans (for `_trip`)."""
    start = _hours_ahead({"depart": "00:00"}, day)
    return start, start + 24


def _price(state, fare_price: float, passenger_id: int) -> float:
    """A passenger's ticket price: children pay half, seniors 80%."""
    kind = next(p for p in state["passenger"] if p["id"] == passenger_id)["kind"]
    return round(fare_price * {"child": 0.5, "senior": 0.8}.get(kind, 1.0), 2)


def _trip(state, low_h: float, high_h: float, seats: int = 1, kind: str | None = None, origin: int = 1) -> tuple[dict, str]:
    """(train, day) of the first train from `origin` (home) leaving between low_h and high_h hours after the clock that
    has `seats` Second class seats left."""
    for offset in range(15):
        day = (CLOCK.date() + timedelta(days=offset)).isoformat()
        for train in sorted(state["service"], key=lambda t: (t["depart"], t["id"])):
            if (train["origin_id"] == origin and (kind is None or train["kind"] == kind) and low_h <= _hours_ahead(train, day) < high_h
                    and _seats_left(state, train, day) >= seats):
                return train, day
    raise AssertionError(f"no train from station {origin} leaves {low_h}-{high_h} h ahead with {seats} seats")


def _book(rail: Client, train: dict, passengers: list[str], day: str = DAY, seat_class: str = "Second class", seat: str = "none") -> int:
    where = rail.post("/book", train=str(train["id"]), day=day, seat_class=seat_class, passenger=passengers, seat=seat)
    match = re.match(r"/orders/(\d+)\?", where)
    assert match, where
    return int(match.group(1))


def _book_and_pay(rail: Client, train: dict, passengers: list[str], day: str = DAY, method: str = "1") -> int:
    oid = _book(rail, train, passengers, day)
    assert rail.post(f"/orders/{oid}/pay", method=method).startswith(f"/orders/{oid}?notice=Paid")
    return oid


def _tickets(state, order_id: int) -> list[dict]:
    return [t for t in state["ticket"] if t["order_id"] == order_id]


def _order(state, order_id: int) -> dict:
    return next(o for o in state["orders"] if o["id"] == order_id)


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
    too_far = (CLOCK.date() + timedelta(days=20)).isoformat()
    assert "tickets go on sale 15 days ahead" in rail.get("/", check="1", origin="1", destination="2", day=too_far).text


def test_booking_holds_seats_and_paying_confirms(rail):
    before = rail.state()
    train, _ = _trip(before, *_hours_of(DAY), seats=2, kind="G")
    label = f"Book Second class on {train['number']}"
    page = rail.get("/trains", origin=str(train["origin_id"]), destination=str(train["destination_id"]), day=DAY).text
    left = _left(page, label)
    assert left == _seats_left(before, train, DAY) and left >= 2
    oid = _book(rail, train, ["1", "2"], seat="window")
    held = rail.state()
    order = held["orders"][-1]
    assert (order["id"], order["status"], order["train_id"], order["travel_date"]) == (oid, "unpaid", train["id"], DAY)
    tickets = _tickets(held, oid)
    assert sorted(t["passenger_id"] for t in tickets) == [1, 2] and tickets[0]["seat"][-1] in "AF"
    assert len({(t["coach"], t["seat"]) for t in tickets}) == 2
    fare = _fare(held, train["id"])["price"]
    assert order["total"] == round(sum(_price(held, fare, pid) for pid in (1, 2)), 2)
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
    train, day = _trip(before, 1, 15 * 24)
    where = rail.post("/book", train=str(train["id"]), day=day, seat_class="Second class")
    assert where.startswith("/book?check=1")
    assert "Choose at least one passenger." in rail.get(where).text
    not_on_sale = (CLOCK.date() + timedelta(days=60)).isoformat()
    assert rail.post("/book", train=str(train["id"]), day=not_on_sale, seat_class="Second class", passenger=["1"]).startswith("/book?check=1")
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
    state = rail.state()
    train, day = _trip(state, 1, 15 * 24, kind="D")
    oid = _book(rail, train, ["1"], day)
    assert _seats_left(rail.state(), train, day) == _seats_left(state, train, day) - 1
    assert rail.post(f"/orders/{oid}/cancel").startswith("/orders?notice=")
    after = rail.state()
    assert _order(after, oid)["status"] == "cancelled" and [t["status"] for t in _tickets(after, oid)] == ["cancelled"]
    assert _seats_left(after, train, day) == _seats_left(state, train, day)


# The fee bands, as hours before departure (with an hour's margin for the minutes each request adds to the clock):
FEE_BANDS = [(8 * 24 + 1, 15 * 24, 0.0), (49, 8 * 24 - 1, 0.05), (25, 47, 0.10), (1, 23, 0.20)]


@pytest.mark.parametrize(("low_h", "high_h", "fee"), FEE_BANDS, ids=["8+ days free", "48 h 5%", "24 h 10%", "last day 20%"])
def test_refund_fee_follows_the_time_to_departure(rail, low_h, high_h, fee):
    train, day = _trip(rail.state(), low_h, high_h)
    oid = _book_and_pay(rail, train, ["1"], day)
    assert f"Refund fee now: <strong>{round(fee * 100)}%" in rail.get(f"/orders/{oid}/refund").text
    ticket = _tickets(rail.state(), oid)[0]
    back = round(ticket["price"] * (1 - fee), 2)
    assert rail.post(f"/orders/{oid}/refund", ticket=[str(ticket["id"])]) == f"/orders/{oid}?notice=Refund+of+{back:,.2f}+on+its+way+to+your+payment+method"
    after = rail.state()
    refunded = _tickets(after, oid)[0]
    assert (refunded["status"], refunded["refund_amount"], _order(after, oid)["status"]) == ("refunded", back, "refunded")
    # a refunded order cannot be refunded again
    rail.post(f"/orders/{oid}/refund", ticket=[str(ticket["id"])])
    assert rail.state() == after


def test_a_partial_refund_keeps_the_order_and_gives_the_seat_back(rail):
    state = rail.state()
    train, day = _trip(state, 49, 8 * 24 - 1, seats=2)
    oid = _book_and_pay(rail, train, ["1", "2"], day)
    paid = rail.state()
    mine, theirs = sorted(_tickets(paid, oid), key=lambda t: t["passenger_id"])
    assert rail.post(f"/orders/{oid}/refund") == f"/orders/{oid}/refund?error=Choose+the+tickets+to+refund."
    assert rail.state() == paid
    rail.post(f"/orders/{oid}/refund", ticket=[str(theirs["id"])])
    partly = rail.state()
    assert _order(partly, oid)["status"] == "paid"
    assert {t["id"]: t["status"] for t in _tickets(partly, oid)} == {mine["id"]: "active", theirs["id"]: "refunded"}
    assert _seats_left(partly, train, day) == _seats_left(paid, train, day) + 1
    rail.post(f"/orders/{oid}/refund", ticket=[str(mine["id"]), str(theirs["id"])])
    done = rail.state()
    assert _order(done, oid)["status"] == "refunded"
    assert {t["id"]: t["refund_amount"] for t in _tickets(done, oid)} == {mine["id"]: round(mine["price"] * 0.95, 2),
                                                                        theirs["id"]: round(theirs["price"] * 0.95, 2)}


def test_a_train_that_has_left_cannot_be_refunded_or_changed(server, rail):
    train, day = _trip(rail.state(), 1, 23)
    oid = _book_and_pay(rail, train, ["1"], day)
    leaves = datetime.combine(date.fromisoformat(day), datetime.strptime(train["depart"], "%H:%M").time())
    seed = {**rail.state(), "_identity": SEED["seed"]["_identity"]}
    with Client(server, seed=seed, clock=(leaves + timedelta(minutes=5)).isoformat()) as later:
        before = later.state()
        assert "already left" in later.get(f"/orders/{oid}/change").text
        assert later.post(f"/orders/{oid}/refund", ticket=[str(_tickets(before, oid)[0]["id"])]).startswith(f"/orders/{oid}?notice=This+order+cannot")
        assert later.state() == before


def test_change_moves_the_passengers_to_another_train_once(rail):
    state = rail.state()
    old, day = _trip(state, 25, 15 * 24, seats=2, kind="K")
    route = (old["origin_id"], old["destination_id"])
    other = next(t for t in state["service"] if (t["origin_id"], t["destination_id"]) == route and t["kind"] == "G"
                 and _seats_left(state, t, day) >= 2)
    oid = _book_and_pay(rail, old, ["1", "2"], day, method="2")
    order = _order(rail.state(), oid)
    page = rail.get(f"/orders/{oid}/change").text
    assert f"Change to Second class on {other['number']}" in page and f"Change to Second class on {old['number']}" not in page
    # a train of another route is refused and writes nothing
    elsewhere = next(t for t in state["service"] if (t["origin_id"], t["destination_id"]) != route)
    before = rail.state()
    assert "same+route" in rail.post(f"/orders/{oid}/change", train=str(elsewhere["id"]), day=day, seat_class="Second class")
    assert rail.state() == before
    where = rail.post(f"/orders/{oid}/change", train=str(other["id"]), day=day, seat_class="Second class")
    after = rail.state()
    new = after["orders"][-1]
    assert where.startswith(f"/orders/{new['id']}?notice=Trip+changed")
    assert (new["status"], new["train_id"], new["travel_date"], new["changed_from_id"], new["payment_method_id"]) == (
        "paid", other["id"], day, oid, 2)
    assert (_order(after, oid)["status"], _order(after, oid)["changed_to_id"]) == ("changed", new["id"])
    assert [t["status"] for t in _tickets(after, oid)] == ["changed", "changed"]
    fare = _fare(after, other["id"])["price"]
    assert new["total"] == round(sum(_price(after, fare, pid) for pid in (1, 2)), 2)
    assert new["fare_difference"] == round(new["total"] - order["total"], 2) > 0
    assert sorted(t["passenger_id"] for t in _tickets(after, new["id"])) == [1, 2]
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
