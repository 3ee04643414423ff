"""TripNest over real HTTP and a real browser: flight search with fares that move with the date, booking
into trips, stays with weekend rates, date changes with fare difference and fee, cancellation under the
refund rules, and the world projection."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

import httpx
import pytest

from mocked_apps.kit.testing import Client, browser_pages, served
from mocked_apps.travel.projection import project
from mocked_apps.travel.rules import fare_price, night_rate, stay_total

server = served("mocked_apps.travel")
DAY = "2026-03-12"  # a Thursday, ten days after the seed's clock (2026-03-02 09:00)
NOW = datetime(2026, 3, 2, 9, 0)


@pytest.fixture
def app(server):
    with Client(server) as instance:
        yield instance


def _fare(state, number: str, cabin: str) -> dict:
    flight = next(f for f in state["flight"] if f["number"] == number)
    return next(x for x in state["fare"] if x["flight_id"] == flight["id"] and x["cabin"] == cabin)


def _route(state, a: int, b: int) -> list[dict]:
    return [f for f in state["flight"] if (f["origin_id"], f["destination_id"]) == (a, b)]


def _booked(app: Client, **form) -> dict:
    where = app.post(form.pop("path", "/flights/book"), **form)
    match = re.match(r"/bookings/(\d+)\?notice=Booked", where)
    assert match, where
    return next(b for b in app.state()["trip_booking"] if b["id"] == int(match.group(1)))


def _seed_stay(state) -> tuple[dict, dict, dict]:
    """(booking, room, hotel) of the seed's upcoming hotel stay: a refundable rate, more than 48 hours ahead."""
    stay = next(b for b in state["trip_booking"] if b["kind"] == "hotel" and b["check_in"] > NOW.date().isoformat())
    room = next(r for r in state["room"] if r["id"] == stay["room_id"])
    hotel = next(h for h in state["hotel"] if h["id"] == room["hotel_id"])
    assert room["refundable"] and date.fromisoformat(stay["check_in"]) - NOW.date() > timedelta(days=2)
    return stay, room, hotel


def _seed_economy(state) -> tuple[dict, dict]:
    """(booking, fare) of the seed's first upcoming Economy flight, booked more than a day before the clock."""
    fares = {f["id"]: f for f in state["fare"]}
    flight = next(b for b in state["trip_booking"] if b["kind"] == "flight" and b["travel_date"] > NOW.date().isoformat()
                  and fares[b["fare_id"]]["cabin"] == "Economy")
    assert NOW - datetime.fromisoformat(flight["created_at"]) > timedelta(days=1)
    return flight, fares[flight["fare_id"]]


def _seed_past(state) -> dict:
    return next(b for b in state["trip_booking"] if b["kind"] == "flight" and b["travel_date"] < NOW.date().isoformat())


def _to_city(state, city_id: int) -> dict:
    """The first nonstop flight from home (city 1) to `city_id`."""
    return next(f for f in _route(state, 1, city_id) if f["stops"] == 0)


def test_the_default_seed_has_past_and_upcoming_trips_with_a_flight_and_a_stay():
    """What the tests below and the fixture tasks book against: the default world's projection."""
    import json
    from pathlib import Path

    seed = json.loads((Path(__file__).parents[1] / "seed.json").read_text())
    state = seed["seed"]
    assert seed["clock"] == NOW.isoformat()
    stay, _, hotel = _seed_stay(state)
    flight, _ = _seed_economy(state)
    assert _seed_past(state)["status"] == "confirmed" and flight["trip_id"] == stay["trip_id"]
    trip = next(t for t in state["trip"] if t["id"] == stay["trip_id"])
    assert trip["name"] == f"Trip to {next(c['name'] for c in state['city'] if c['id'] == hotel['city_id'])}"
    assert [m["label"] for m in state["paymentmethod"]] == ["Business Platinum Card •••• 1009", "Business Checking •••• 4821",
                                                            "Northwind Studio travel account"]


def test_flight_search_lists_the_route_with_prices_of_the_date_filters_and_sorts(app):
    state = app.state()
    route = _route(state, 1, 3)
    page = app.get("/flights", origin="1", destination="3", day=DAY).text
    assert len(route) == 7 and all(f["number"] in page for f in route) and "1 stop" in page and "Nonstop" in page
    economy = {f["number"]: fare_price(_fare(state, f["number"], "Economy")["price"], _fare(state, f["number"], "Economy")["id"], DAY) for f in route}
    assert all(f"${p:,.2f}" in page for p in economy.values())
    assert economy != {n: fare_price(_fare(state, n, "Economy")["price"], _fare(state, n, "Economy")["id"], "2026-03-13") for n in economy}
    nonstop = app.get("/flights", origin="1", destination="3", day=DAY, nonstop="1").text
    assert all((f["number"] in nonstop) == (f["stops"] == 0) for f in route)
    by_price = app.get("/flights", origin="1", destination="3", day=DAY, sort="price").text
    order = sorted(economy, key=lambda n: economy[n])
    assert [by_price.index(f'aria-label="{n} at') for n in order] == sorted(by_price.index(f'aria-label="{n} at') for n in order)
    assert "Choose a destination other than" in app.get("/", check="1", origin="1", destination="1", day=DAY).text
    assert "Choose a date from today to May 1" in app.get("/", check="1", origin="1", destination="3", day="2026-06-01").text


def test_booking_a_flight_prices_it_by_date_and_groups_it_in_a_trip(app):
    before = app.state()
    _, _, hotel = _seed_stay(before)
    city = next(c["name"] for c in before["city"] if c["id"] == hotel["city_id"])
    number = _to_city(before, hotel["city_id"])["number"]
    fare = _fare(before, number, "Premium economy")
    page = app.get("/flights/review", fare=str(fare["id"]), day=DAY, travellers="2").text
    assert "Refundable less a" in page and "Book and pay" in page
    b = _booked(app, fare=str(fare["id"]), day=DAY, travellers="2", method="2", trip="new")
    after = app.state()
    assert (b["kind"], b["travel_date"], b["travellers"], b["payment_method_id"]) == ("flight", DAY, 2, 2)
    assert b["total"] == round(fare_price(fare["price"], fare["id"], DAY) * 2, 2) and b["ref"] == f"TNF{b['id']:05d}"
    trip = after["trip"][-1]
    assert f"Trip to {city}" in {t["name"] for t in before["trip"]}
    assert len(after["trip"]) == len(before["trip"]) + 1 and (trip["id"], trip["name"]) == (b["trip_id"], f"Trip to {city} (2)")
    # into an existing trip: no new trip
    again = _booked(app, fare=str(fare["id"]), day="2026-03-14", travellers="1", method="3", trip=str(trip["id"]))
    assert again["trip_id"] == trip["id"] and len(app.state()["trip"]) == len(after["trip"])
    assert f"Booking {again['ref']}" in app.get(f"/trips/{trip['id']}").text


def test_booking_errors_write_nothing(server):
    with Client(server) as app:
        before = app.state()
        fare = _fare(before, _to_city(before, 2)["number"], "Economy")
        with httpx.Client(follow_redirects=False) as http:
            r = http.post(app.url("/flights/book"), data={"fare": str(fare["id"]), "day": DAY, "travellers": "1", "method": "", "trip": "new"})
            assert r.status_code == 422 and "Choose how to pay." in r.text
            r = http.post(app.url("/flights/book"), data={"fare": str(fare["id"]), "day": DAY, "travellers": "1", "method": "1", "trip": "99"})
            assert r.status_code == 422 and "Choose a trip" in r.text
        assert app.post("/flights/book", fare=str(fare["id"]), day="2026-09-01", travellers="1", method="1", trip="new").startswith("/?notice=")
        assert app.post("/stays/book", room="1", check_in=DAY, nights="0", guests="1", method="1").startswith("/stays?notice=")
        assert app.state() == before


def test_stays_price_each_night_and_book_into_a_trip(app):
    state = app.state()
    stay, _, booked_hotel = _seed_stay(state)
    hotel = next(h for h in state["hotel"] if h["city_id"] == booked_hotel["city_id"] and h["id"] != booked_hotel["id"])
    rooms = [r for r in state["room"] if r["hotel_id"] == hotel["id"]]
    friday = "2026-03-13"
    results = app.get("/stays/results", city=str(hotel["city_id"]), check_in=friday, nights="2").text
    assert f"See rooms at {hotel['name']}" in results and f"See rooms at {booked_hotel['name']}" in results
    page = app.get(f"/stays/{hotel['id']}", check_in=friday, nights="2").text
    standard = rooms[0]
    assert stay_total(standard["price"], friday, 2) == round(2 * round(standard["price"] * 1.2, 2), 2)  # Friday and Saturday
    assert f"${stay_total(standard['price'], friday, 2):,.2f}" in page and "Non-refundable" in page
    assert "Sleeps fewer than 3" in app.get(f"/stays/{hotel['id']}", check_in=friday, nights="2", guests="3").text
    b = _booked(app, path="/stays/book", room=str(rooms[2]["id"]), check_in=friday, nights="2", guests="3", method="1", trip=str(stay["trip_id"]))
    assert (b["kind"], b["check_in"], b["nights"], b["travellers"], b["trip_id"]) == ("hotel", friday, 2, 3, stay["trip_id"])
    assert b["total"] == stay_total(rooms[2]["price"], friday, 2) and b["ref"].startswith("TNH")


def test_changes_charge_the_fare_difference_and_fee(app):
    state = app.state()
    flight, fare = _seed_economy(state)
    later = (date.fromisoformat(flight["travel_date"]) + timedelta(days=1)).isoformat()
    assert "the date you are booked on already" in app.get(f"/bookings/{flight['id']}/change", day=flight["travel_date"]).text
    quote = app.get(f"/bookings/{flight['id']}/change", day=later).text
    new_total = fare_price(fare["price"], fare["id"], later)
    assert f"${new_total:,.2f}" in quote and "$75.00" in quote and "Confirm change" in quote
    assert app.post(f"/bookings/{flight['id']}/change", day=later).startswith(f"/bookings/{flight['id']}?notice=Flight+moved")
    moved = next(b for b in app.state()["trip_booking"] if b["id"] == flight["id"])
    assert (moved["travel_date"], moved["total"], moved["change_fee"], moved["changes"]) == (later, new_total, 75.0, 1)
    assert moved["fare_difference"] == round(new_total - flight["total"], 2)
    stay, room, _ = _seed_stay(state)
    nights = stay["nights"] + 1
    app.post(f"/bookings/{stay['id']}/change", day=stay["check_in"], nights=str(nights))
    longer = next(b for b in app.state()["trip_booking"] if b["id"] == stay["id"])
    assert (longer["nights"], longer["total"]) == (nights, stay_total(room["price"], stay["check_in"], nights))
    before = app.state()
    assert app.post(f"/bookings/{stay['id']}/change", day="2026-02-01", nights="3").startswith(f"/bookings/{stay['id']}/change?")
    assert app.state() == before


def test_cancellation_follows_the_refund_rules(app):
    state = app.state()
    (economy, _), (stay, _, _), past = _seed_economy(state), _seed_stay(state), _seed_past(state)
    assert "$0.00" in app.get(f"/bookings/{economy['id']}/cancel").text  # Economy, booked over a day ago: non-refundable
    app.post(f"/bookings/{economy['id']}/cancel")
    app.post(f"/bookings/{stay['id']}/cancel")  # refundable rate, more than 48 hours before check-in: all back
    fresh = _booked(app, fare=str(_fare(state, _to_city(state, 2)["number"], "Economy")["id"]), day=DAY, travellers="1", method="1", trip="new")
    app.post(f"/bookings/{fresh['id']}/cancel")  # within 24 hours of booking: all back, even Economy
    after = {b["id"]: b for b in app.state()["trip_booking"]}
    assert (after[economy["id"]]["status"], after[economy["id"]]["refund_amount"]) == ("cancelled", 0.0)
    assert after[stay["id"]]["refund_amount"] == stay["total"] > 0 and after[fresh["id"]]["refund_amount"] == fresh["total"]
    snapshot = app.state()
    assert "no longer be changed or cancelled" in app.get(f"/bookings/{past['id']}/cancel").text
    app.post(f"/bookings/{past['id']}/cancel")
    app.post(f"/bookings/{economy['id']}/cancel")
    assert app.state() == snapshot
    upcoming, past_tab = app.get("/trips", tab="upcoming").text, app.get("/trips", tab="past").text
    assert f"Booking {economy['ref']}" in upcoming and f"Booking {past['ref']}" in past_tab and f"Booking {past['ref']}" not in upcoming


def _world():
    """A small world by hand: a persona in Seattle with a card and a booked hotel stay with a train home two nights later."""
    from contracts.world import Account, Meeting, Organisation, Person, Persona, Scenario, Transaction, World

    persona = Persona(id="p", name="Kenji Watanabe", email="k@kw.example", role="consultant", company="KW", domain="kw.example", city="Seattle")
    now = datetime(2026, 5, 4, 9, 0)
    return World(
        id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="Talk", description="", clock=now), user="u",
        organisations=(Organisation(id="o1", name="KW", kind="self", domain="kw.example"),
                       Organisation(id="o3", name="Lake Inn", kind="vendor", domain="lake.example", category="travel")),
        people=(Person(id="u", name="Kenji Watanabe", email="k@kw.example", org="o1", role="consultant"),),
        accounts=(Account(id="a1", name="Business Checking", kind="checking", number="1111", opening_balance=1000.0),
                  Account(id="a3", name="Company Card", kind="credit", number="4242", opening_balance=0.0)),
        transactions=(Transaction(id="t1", account="a3", posted=datetime(2026, 4, 28, 8), description="Lake Inn LA12345", amount=-301.5,
                                  category="travel", counterparty="o3", reference="LA12345"),),
        meetings=(Meeting(id="m1", title="Hotel Lake Inn, Lakeview", start=datetime(2026, 5, 8, 19, 0), end=datetime(2026, 5, 8, 20, 0),
                          location="Lakeview", organizer="u", attendees=(), description="Booking LA12345 with Lake Inn."),
                  Meeting(id="m2", title="Train Lakeview to Seattle", start=datetime(2026, 5, 10, 16, 0), end=datetime(2026, 5, 10, 18, 0),
                          location="Lakeview", organizer="u", attendees=(), description="")),
    )


def test_projection_keeps_the_worlds_people_money_and_dates():
    world = _world()
    rows = project(world)
    assert [c["name"] for c in rows["city"]][:3] == ["Seattle", "Lakeview", "San Francisco"]
    assert [m["label"] for m in rows["paymentmethod"]] == ["Company Card •••• 4242", "Business Checking •••• 1111", "KW travel account"]
    stay = next(b for b in rows["trip_booking"] if b["ref"] == "LA12345")
    room = next(r for r in rows["room"] if r["id"] == stay["room_id"])
    hotel = next(h for h in rows["hotel"] if h["id"] == room["hotel_id"])
    assert (hotel["name"], stay["check_in"], stay["nights"], stay["total"], stay["payment_method_id"]) == ("Lake Inn", "2026-05-08", 2, 301.5, 1)
    assert abs(stay_total(room["price"], "2026-05-08", 2) - 301.5) < 0.02  # Friday + Saturday nights at the derived rate
    assert night_rate(room["price"], date(2026, 5, 8)) > room["price"]
    flights = [b for b in rows["trip_booking"] if b["kind"] == "flight"]
    assert all(b["payment_method_id"] == 3 for b in flights)  # the company account: no card charge the bank would lack
    assert any(b["travel_date"] > "2026-05-04" for b in flights) and any(b["travel_date"] < "2026-05-04" for b in flights)
    assert len({t["name"] for t in rows["trip"]}) == len(rows["trip"])
    assert project(world) == rows


def test_main_flow_in_a_real_browser_at_both_sizes(app):
    city = app.state()["city"][1]
    with browser_pages() as pages:
        for form_factor, page in pages:
            page.goto(app.url("/"))
            page.select_option("#destination", label=f"{city['name']} ({city['code']})")
            page.fill("#day", DAY)
            page.get_by_role("button", name="Search flights").click()
            page.get_by_role("link", name=re.compile("^Select Economy on ")).first.click()
            page.select_option("#method", index=1)
            page.get_by_role("button", name="Book and pay").click()
            assert "Booked: confirmation TNF" in page.inner_text("main"), form_factor
            assert page.get_by_role("navigation").get_by_role("link", name="Trips").is_visible()
    assert pages.errors == []


def _verdicts(family, req, app: Client, initial: dict) -> dict[str, bool]:
    """The family's verifier for `req` run on the instance's state now (as the sandbox runs it: its source, executed)."""
    from contracts.scoring import Final

    scope: dict = {}
    exec(compile(family.verifier(req), "verifier", "exec"), scope)
    return scope["verify"](Final(state={"travel": app.state()}, initial_state={"travel": initial}))


def test_the_shortcuts_fail_the_families_verifiers_and_the_real_thing_passes(server):
    """The cheat of each family played for real on an instance of the hand-made world's projection (what a task
    of that world runs on): a cancel-and-rebook is not a change, the cheapest one-stop is not the cheapest
    nonstop, another booking's cancellation is not this one's."""
    import random

    from mocked_apps.travel.families import CancelBooking, ChangeFlightDate, CheapestNonstop

    world = _world()
    seed, clock = project(world), world.scenario.clock.isoformat()
    change = ChangeFlightDate()
    req = change.requirements(world, random.Random(1))
    c = req.answer_context
    with Client(server, seed, clock) as app:
        initial = app.state()
        old = next(b for b in initial["trip_booking"] if b["id"] == c["booking_id"])
        assert not any(_verdicts(change, req, app, initial).values())
        app.post(f"/bookings/{old['id']}/cancel")  # the cheat: cancel, then book the same fare on the new date
        _booked(app, fare=str(old["fare_id"]), day=c["day"], travellers="1", method="3", trip=str(old["trip_id"]))
        assert _verdicts(change, req, app, initial) == {"moved": False, "priced": False}
    with Client(server, seed, clock) as app:
        app.post(f"/bookings/{old['id']}/change", day=c["day"])
        assert _verdicts(change, req, app, initial) == {"moved": True, "priced": True}

    cheapest = CheapestNonstop()
    req = cheapest.requirements(world, random.Random(2))
    c = req.answer_context
    with Client(server, seed, clock) as app:
        initial = app.state()
        city = {f"{x['name']} ({x['code']})": x["id"] for x in initial["city"]}
        offers = app.get("/flights", origin=str(city[c["origin"]]), destination=str(city[c["destination"]]), day=c["day"], sort="price").text
        first = re.search(r'aria-label="Select Economy on (\w+)"', offers).group(1)  # the cheapest of all: a one-stop
        assert first != c["number"]
        _booked(app, fare=str(_fare(initial, first, "Economy")["id"]), day=c["day"], travellers="2", method=str(c["method_id"]), trip="new")
        assert _verdicts(cheapest, req, app, initial)["booked"] is False
    with Client(server, seed, clock) as app:
        _booked(app, fare=str(_fare(initial, c["number"], "Economy")["id"]), day=c["day"], travellers="2", method=str(c["method_id"]), trip="new")
        assert _verdicts(cheapest, req, app, initial) == {"booked": True, "paid_with": True, "only_once": True}

    cancel = CancelBooking()
    req = cancel.requirements(world, random.Random(3))
    c = req.answer_context
    with Client(server, seed, clock) as app:
        initial = app.state()
        other = next(b for b in initial["trip_booking"] if b["id"] != c["booking_id"] and b["status"] == "confirmed"
                     and (b["check_in"] or b["travel_date"]) > world.scenario.clock.date().isoformat())
        app.post(f"/bookings/{other['id']}/cancel")
        assert not any(_verdicts(cancel, req, app, initial).values())
        app.post(f"/bookings/{c['booking_id']}/cancel")
        assert all(_verdicts(cancel, req, app, initial).values())
