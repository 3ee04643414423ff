"""The calendar app over real HTTP (httpx) and in a real Chromium, against its default seed."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer

ALEX = "alex.morgan@northwind.example"
SCREENSHOTS = Path("/tmp/gf")


@pytest.fixture(scope="module")
def server():
    with AppServer("mocked_apps.calendar") as srv:
        yield srv


@pytest.fixture
def inst(server):
    """A fresh instance of the default seed: (http client rooted at the instance, instance id)."""
    iid = server.admin.create()["instance_id"]
    with httpx.Client(base_url=f"{server.url}/i/{iid}", follow_redirects=False, timeout=30) as client:
        yield client, iid
    server.admin.delete(iid)


def _event(dump: dict, title: str) -> dict:
    found = [e for e in dump["event"] if e["title"] == title]
    assert len(found) == 1, f"{len(found)} events titled {title!r}"
    return found[0]


def _guests(dump: dict, event_id: int) -> dict[str, dict]:
    return {g["email"]: g for g in dump["invitee"] if g["event_id"] == event_id}


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _form(**over) -> dict:
    data = {"title": "Supplier catch-up", "calendar_id": "1", "start_date": "2026-03-05", "start_time": "09:00",
            "end_date": "2026-03-05", "end_time": "09:45", "location": "Coffee corner", "description": "", "guests": ""}
    return data | over


def _titles(html: str) -> set[str]:
    """Titles of the event chips/links on a page."""
    return set(re.findall(r'<span class="title">([^<]+)</span>', html)) | set(re.findall(r'href="/i/[0-9a-f]+/event/\d+">([^<]+)</a>', html))


def test_create_event_with_invitees(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    answer = client.post("/event/new", data=_form(
        title="Brochure reprint planning", start_date="2026-03-09", start_time="15:00", end_date="2026-03-09", end_time="16:30",
        calendar_id="1", location="Fjord meeting room", description="Quantities and paper for the reprint.",
        guests="Jordan Blake <jordan@brightlineprint.example>, priya.shah@northwind.example\nnew.person@acme.example",
    ))
    assert answer.status_code == 303
    after = server.admin.state(iid)
    event = _event(after, "Brochure reprint planning")
    assert answer.headers["location"].startswith(f"/i/{iid}/event/{event['id']}")
    assert event["id"] == max(e["id"] for e in before["event"]) + 1
    assert (_at(event["start"]), _at(event["end"])) == (datetime(2026, 3, 9, 15), datetime(2026, 3, 9, 16, 30))
    assert event["calendar_id"] == 1 and event["all_day"] is False
    assert event["location"] == "Fjord meeting room" and event["description"] == "Quantities and paper for the reprint."
    assert (event["organizer_email"], event["organizer_name"]) == (ALEX, "Alex Morgan")
    guests = _guests(after, event["id"])
    assert {e: (g["name"], g["rsvp"]) for e, g in guests.items()} == {
        "jordan@brightlineprint.example": ("Jordan Blake", "pending"),
        "priya.shah@northwind.example": ("Priya Shah", "pending"),  # name from the people already in the calendar
        "new.person@acme.example": ("New Person", "pending"),
    }
    assert len(after["invitee"]) == len(before["invitee"]) + 3
    page = client.get(f"/event/{event['id']}").text
    assert "Brochure reprint planning" in page and "Monday, March 9, 2026 · 15:00 – 16:30" in page


def test_all_day_event_spans_its_days(server, inst):
    client, iid = inst
    client.post("/event/new", data=_form(title="Trade fair", all_day="1", start_date="2026-03-24", end_date="2026-03-25",
                                         start_time="", end_time="", calendar_id="3"))
    event = _event(server.admin.state(iid), "Trade fair")
    assert event["all_day"] is True
    assert (_at(event["start"]), _at(event["end"])) == (datetime(2026, 3, 24), datetime(2026, 3, 26))
    week = client.get("/week", params={"date": "2026-03-25"}).text
    assert week.count(">Trade fair<") == 2  # in the all-day strip of Tuesday and Wednesday


def test_edit_event_keeps_answers_of_remaining_guests(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    kickoff = _event(before, "Harbour Foods kickoff")
    assert set(_guests(before, kickoff["id"])) == {"elena.rossi@northwind.example", "dana@harbourfoods.example", "priya.shah@northwind.example"}
    form = client.get(f"/event/{kickoff['id']}/edit").text
    assert 'value="Harbour Foods kickoff"' in form and "Dana Whitfield &lt;dana@harbourfoods.example&gt;" in form
    answer = client.post(f"/event/{kickoff['id']}/edit", data=_form(
        title="Harbour Foods kickoff", start_date="2026-03-04", start_time="15:00", end_date="2026-03-04", end_time="16:30",
        location="Harbour Foods HQ, Pier 4", description=kickoff["description"], calendar_id="1",
        guests="elena.rossi@northwind.example, dana@harbourfoods.example, tom.becker@northwind.example",
    ))
    assert answer.status_code == 303
    after = server.admin.state(iid)
    edited = _event(after, "Harbour Foods kickoff")
    assert edited["id"] == kickoff["id"]
    assert (_at(edited["start"]), _at(edited["end"])) == (datetime(2026, 3, 4, 15), datetime(2026, 3, 4, 16, 30))
    assert edited["location"] == "Harbour Foods HQ, Pier 4"
    guests = _guests(after, kickoff["id"])
    assert {e: g["rsvp"] for e, g in guests.items()} == {
        "elena.rossi@northwind.example": "yes", "dana@harbourfoods.example": "pending", "tom.becker@northwind.example": "pending",
    }
    assert guests["tom.becker@northwind.example"]["name"] == "Tom Becker"
    others = lambda dump: [e for e in dump["event"] if e["id"] != kickoff["id"]]  # noqa: E731
    assert others(after) == others(before)


def test_delete_event_removes_it_and_its_guests(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    lunch = _event(before, "Team lunch")
    answer = client.post(f"/event/{lunch['id']}/delete")
    assert answer.status_code == 303 and "/week?" in answer.headers["location"]
    after = server.admin.state(iid)
    assert [e for e in before["event"] if e["id"] != lunch["id"]] == after["event"]
    assert [g for g in before["invitee"] if g["event_id"] != lunch["id"]] == after["invitee"]
    assert client.get(f"/event/{lunch['id']}").status_code == 404


def test_rsvp_to_an_invitation(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    proof = _event(before, "Print proof review — spring brochure")
    mine = _guests(before, proof["id"])[ALEX]
    assert mine["rsvp"] == "pending"
    assert "Print proof review — spring brochure" in client.get("/invitations").text.split("Answered")[0]
    answer = client.post(f"/event/{proof['id']}/rsvp", data={"answer": "yes", "next": "/invitations"})
    assert answer.status_code == 303 and answer.headers["location"].startswith(f"/i/{iid}/invitations")
    after = server.admin.state(iid)
    assert _guests(after, proof["id"])[ALEX]["rsvp"] == "yes"
    changed = [g for g, h in zip(before["invitee"], after["invitee"]) if g != h]
    assert changed == [mine] and before["event"] == after["event"]
    assert "Print proof review — spring brochure" not in client.get("/invitations").text.split("Answered")[0]
    client.post(f"/event/{proof['id']}/rsvp", data={"answer": "maybe"})
    assert _guests(server.admin.state(iid), proof["id"])[ALEX]["rsvp"] == "maybe"
    # not invited (Alex organises the kickoff) and a made-up answer: refused, nothing changes
    kickoff = _event(before, "Harbour Foods kickoff")
    state = server.admin.state(iid)
    assert client.post(f"/event/{kickoff['id']}/rsvp", data={"answer": "yes"}).status_code == 403
    assert client.post(f"/event/{proof['id']}/rsvp", data={"answer": "sure"}).status_code == 400
    assert server.admin.state(iid) == state


def test_organiser_adds_and_removes_guests_others_cannot(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    kickoff = _event(before, "Harbour Foods kickoff")
    client.post(f"/event/{kickoff['id']}/guests", data={"email": "Marcus.Chen@northwind.example", "name": ""})
    guests = _guests(server.admin.state(iid), kickoff["id"])
    assert guests["marcus.chen@northwind.example"]["name"] == "Marcus Chen"
    assert guests["marcus.chen@northwind.example"]["rsvp"] == "pending"
    # a second invite of the same person changes nothing
    state = server.admin.state(iid)
    assert "already invited" in client.post(f"/event/{kickoff['id']}/guests", data={"email": "marcus.chen@northwind.example"},
                                            follow_redirects=True).text
    assert server.admin.state(iid) == state
    dana = guests["dana@harbourfoods.example"]
    client.post(f"/event/{kickoff['id']}/guests/{dana['id']}/remove")
    assert "dana@harbourfoods.example" not in _guests(server.admin.state(iid), kickoff["id"])
    # Jordan organises the proof review: Alex may not edit, delete or change its guests
    proof = _event(before, "Print proof review — spring brochure")
    state = server.admin.state(iid)
    priya = _guests(state, proof["id"])["priya.shah@northwind.example"]
    for path in ["/edit", "/delete", "/guests", f"/guests/{priya['id']}/remove"]:
        data = _form() if path == "/edit" else {"email": "x@example.com"}
        assert client.post(f"/event/{proof['id']}{path}", data=data).status_code == 403, path
    assert client.get(f"/event/{proof['id']}/edit").status_code == 403
    assert "Edit event" not in client.get(f"/event/{proof['id']}").text
    assert server.admin.state(iid) == state


@pytest.mark.parametrize("path", ["/event/new", "/event/{id}/edit"])
def test_end_before_start_is_a_form_error_and_changes_nothing(server, inst, path):
    client, iid = inst
    before = server.admin.state(iid)
    kickoff = _event(before, "Harbour Foods kickoff")
    answer = client.post(path.format(id=kickoff["id"]), data=_form(
        title="Backwards meeting", start_date="2026-03-04", start_time="15:00", end_date="2026-03-04", end_time="14:00",
    ))
    assert answer.status_code == 422  # the kit's form-error convention: the form again, the error under its field
    assert 'id="end_time-error" role="alert">The end must be after the start.<' in answer.text
    assert 'aria-describedby="end_time-error"' in answer.text
    assert 'value="Backwards meeting"' in answer.text and 'value="15:00"' in answer.text  # what was typed is kept
    bad_guest = client.post(path.format(id=kickoff["id"]), data=_form(guests="not an email"))
    assert bad_guest.status_code == 422 and "is not an email address" in bad_guest.text
    no_title = client.post(path.format(id=kickoff["id"]), data=_form(title="  "))
    assert "Add a title." in no_title.text
    assert server.admin.state(iid) == before


def test_week_month_day_views_show_the_right_events(inst):
    client, _ = inst
    week = client.get("/week", params={"date": "2026-03-04"}).text
    assert "March 2 – 8, 2026" in week
    assert {"Team stand-up", "Harbour Foods kickoff", "Print proof review — spring brochure", "Courier pickup: signed contracts"} <= _titles(week)
    assert not {"Dentist — check-up", "Team lunch"} & _titles(week)
    assert 'date=2026-02-23" aria-label="Previous week"' in week and 'date=2026-03-09" aria-label="Next week"' in week
    assert ">Today</a>" in week and 'week?date=2026-03-02">Today' in week
    assert _titles(client.get("/").text) == _titles(week)  # home is this week ("today" is the instance clock's date)
    month = _titles(client.get("/month", params={"date": "2026-02-10"}).text)
    assert {"Team lunch", "Harbour Foods intro call", "Q1 budget check-in"} <= month
    assert "Harbour Foods kickoff" not in month
    day = client.get("/day", params={"date": "2026-03-11"}).text
    assert "Wednesday, March 11, 2026" in day
    assert _titles(day) == {"Dentist — check-up", "Yoga class"}
    assert 'date=2026-03-10" aria-label="Previous day"' in day and 'date=2026-03-12" aria-label="Next day"' in day
    assert client.get("/week", params={"date": "March 4"}).status_code == 400


def test_agenda_and_invitations(inst):
    client, _ = inst
    agenda = client.get("/agenda").text
    assert "March 2 – 15, 2026" in agenda
    assert {"Harbour Foods kickoff", "Dentist — check-up", "Pay Brightline INV-2041 ($1,240.00, due Mar 15)"} <= _titles(agenda)
    assert "Team lunch" not in _titles(agenda)
    personal = _titles(client.get("/agenda", params={"calendar": 2}).text)
    assert "Dentist — check-up" in personal and "Harbour Foods kickoff" not in personal
    waiting = client.get("/invitations").text.split("Answered")[0]
    assert _titles(waiting) == {
        "Design critique: Harbour Foods concepts", "Print proof review — spring brochure", "Q1 forecast review",
        "Demo: new booking site", "Harbour Foods moodboard review",
    }


def test_search_by_title_location_and_guest(inst):
    client, _ = inst
    assert {"Harbour Foods kickoff", "Harbour Foods intro call", "Harbour Foods moodboard review"} <= _titles(
        client.get("/search", params={"q": "harbour foods"}).text)
    assert _titles(client.get("/search", params={"q": "Lotus Studio"}).text) == {"Yoga class"}
    by_guest = _titles(client.get("/search", params={"q": "jordan@brightlineprint.example"}).text)
    assert by_guest == {"Brochure print quote with Brightline", "Print proof review — spring brochure"}
    assert "Team lunch" in _titles(client.get("/search", params={"q": "Sam Okafor"}).text)
    assert "No events match" in client.get("/search", params={"q": "zebra crossing"}).text


def test_grid_places_overlaps_side_by_side_and_spans_months():
    from datetime import date

    from mocked_apps.calendar import grid
    from mocked_apps.calendar.models import Event

    def make(i, start, end, all_day=False):
        return Event(id=i, calendar_id=1, title=f"e{i}", start=datetime.fromisoformat(start), end=datetime.fromisoformat(end),
                     all_day=all_day, organizer_email=ALEX)

    events = [make(1, "2026-03-04T14:00", "2026-03-04T15:00"), make(2, "2026-03-04T14:30", "2026-03-04T15:00"),
              make(3, "2026-03-04T16:00", "2026-03-04T17:00"), make(4, "2026-03-04T05:30", "2026-03-04T06:00"),
              make(5, "2026-03-03T00:00", "2026-03-05T00:00", all_day=True)]
    tg = grid.time_grid([date(2026, 3, 4)], events)
    blocks = {b.event.id: b for b in tg.columns[0].blocks}
    assert (tg.first_hour, tg.last_hour) == (5, 20)  # widened to show the 05:30 event
    assert [(blocks[i].lane, blocks[i].lanes) for i in (1, 2, 3)] == [(0, 2), (1, 2), (0, 1)]
    assert blocks[2].left == 50 and blocks[1].left + blocks[1].width <= blocks[2].left and blocks[3].width == 100  # side by side
    assert blocks[1].top == 9 * grid.HOUR_PX and blocks[1].height == grid.HOUR_PX
    assert [e.id for e in tg.columns[0].all_day] == [5]
    weeks = grid.month_weeks(date(2026, 2, 14))
    assert (weeks[0][0], weeks[-1][-1], len(weeks)) == (date(2026, 1, 26), date(2026, 3, 1), 5)
    assert grid.add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)


def test_get_pages_never_change_the_dump(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    paths = ["/", "/day", "/week?date=2026-01-12", "/month?date=2026-03-31", "/agenda", "/agenda?calendar=3", "/invitations",
             "/search?q=priya", "/event/new?date=2026-03-05&hour=14", "/event/1", "/event/1/edit", "/event/33"]
    for path in paths:
        assert client.get(path).status_code == 200, path
    assert server.admin.state(iid) == before
    server.admin.reset(iid)
    assert server.admin.state(iid) == before


def test_week_view_in_chromium_and_create_an_event_through_the_ui(server):
    from playwright.sync_api import sync_playwright

    from mocked_apps.kit.browser import context_options, launch_chromium

    iid = server.admin.create()["instance_id"]
    base = f"{server.url}/i/{iid}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for form_factor, title in [("desktop", "Brightline invoice call"), ("mobile", "Parents' evening")]:
                context = browser.new_context(**context_options(form_factor))
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{base}/week")
                assert page.get_by_role("heading", name="March 2 – 8, 2026").is_visible()
                assert page.get_by_role("link", name="09:30 Team stand-up").is_visible()
                assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
                page.screenshot(path=str(SCREENSHOTS / f"calendar-week-{form_factor}.png"), full_page=True)

                page.get_by_role("link", name="Create event").click()
                page.get_by_label("Title").fill(title)
                page.get_by_label("Start date").fill("2026-03-05")
                page.get_by_label("Start time").fill("16:00")
                page.get_by_label("End date").fill("2026-03-05")
                page.get_by_label("End time").fill("16:30")
                page.get_by_role("combobox", name="Calendar").select_option(label="Personal")
                page.get_by_label("Guests").fill("Mia Torres <billing@cloudnest.example>")
                page.get_by_role("button", name="Save event").click()
                page.wait_for_url(re.compile(r"/event/\d+\?notice="))
                assert page.get_by_role("heading", name=title).is_visible()
                page.screenshot(path=str(SCREENSHOTS / f"calendar-event-{form_factor}.png"), full_page=True)
                event = _event(server.admin.state(iid), title)
                assert (_at(event["start"]), _at(event["end"]), event["calendar_id"]) == (datetime(2026, 3, 5, 16), datetime(2026, 3, 5, 16, 30), 2)
                assert {g["email"] for g in _guests(server.admin.state(iid), event["id"]).values()} == {"billing@cloudnest.example"}
                page.get_by_role("link", name="Back to week").click()
                assert page.get_by_role("link", name=f"16:00 {title}").is_visible()
                assert errors == [], f"console errors at {form_factor}: {errors}"
                context.close()
        finally:
            browser.close()
            server.admin.delete(iid)


# ---- as a new user tries it: overlaps, whole titles, the guest count, the phone week -------------------------
def test_browser_overlaps_titles_guest_count_and_phone_week(server):
    from mocked_apps.kit.testing import Client, browser_pages

    with Client(server) as app, browser_pages() as pages:
        kickoff, courier = _event(app.state(), "Harbour Foods kickoff"), _event(app.state(), "Courier pickup: signed contracts")
        invited = len(_guests(app.state(), kickoff["id"]))
        for form_factor, page in pages:
            page.goto(app.url("/week?date=2026-03-04"))
            chips = [page.locator(f".tg-day a.chip[href$='/event/{e['id']}']") for e in (kickoff, courier)]
            left, right = (c.bounding_box() for c in chips)
            assert left["x"] + left["width"] <= right["x"] + 1, (form_factor, "overlapping events sit side by side")
            assert chips[1].get_attribute("title").startswith("Courier pickup: signed contracts · 14:30 – 15:00")
            if form_factor == "mobile":
                days = page.locator(".tg-day")
                assert days.first.bounding_box()["width"] >= 90, "three readable days, not seven slivers"
                assert page.evaluate("document.documentElement.scrollWidth") <= 390, "only the grid scrolls sideways"
                page.locator("#tg-scroll").evaluate("el => el.scrollBy(400, 0)")
                assert page.locator(".tg-hours").bounding_box()["x"] < 60, "the hours stay in view"
                tabs = page.locator("nav.sidenav a")
                assert all(tabs.nth(i).bounding_box()["x"] + tabs.nth(i).bounding_box()["width"] <= 390
                           for i in range(tabs.count())), "no tab is cut off at the edge"
            else:
                page.goto(app.url(f"/event/{kickoff['id']}"))
                heading = page.get_by_role("heading", name=re.compile(r"^Guests \(\d+\)$")).inner_text()
                listed = page.locator("ul.guests > li").count()
                assert heading == f"Guests ({invited + 1})" and listed == invited + 1  # the organiser is a guest too
        assert pages.errors == []
