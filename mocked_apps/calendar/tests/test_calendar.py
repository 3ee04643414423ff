"""The calendar app over real HTTP (httpx) and in a real Chromium, against its default seed (the projection of the
default world): each test picks the events it needs from the state by their properties, not by seed ids or titles."""

from __future__ import annotations

import re
from html import unescape
from datetime import date, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer

ALEX = "alex.morgan@northwind.example"
NOW = datetime(2026, 3, 2, 9)
"""The default seed's clock: Monday 2 March 2026 09:00."""
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


def _shown(dump: dict, first: date, days: int, calendar_id: int | None = None) -> set[str]:
    """Titles of the events that overlap `days` days from `first` (on one calendar when given)."""
    start, end = datetime.combine(first, datetime.min.time()), datetime.combine(first + timedelta(days=days), datetime.min.time())
    return {e["title"] for e in dump["event"] if _at(e["start"]) < end and _at(e["end"]) > start
            and calendar_id in (None, e["calendar_id"])}


def _organised_by_alex(dump: dict) -> dict:
    """Alex's first upcoming timed event whose guests have answered differently (one answered, one still pending)."""
    for e in sorted(dump["event"], key=lambda e: e["start"]):
        answers = {g["rsvp"] for g in _guests(dump, e["id"]).values()}
        if e["organizer_email"] == ALEX and not e["all_day"] and _at(e["start"]) > NOW and "pending" in answers and len(answers) > 1:
            return e
    raise AssertionError("no upcoming event of Alex's with an answered and a pending guest")


def _invitation(dump: dict) -> dict:
    """The first upcoming event someone else organises, with a title of its own, where Alex has not answered."""
    titles = [e["title"] for e in dump["event"]]
    for e in sorted(dump["event"], key=lambda e: e["start"]):
        mine = _guests(dump, e["id"]).get(ALEX)
        if mine and mine["rsvp"] == "pending" and e["organizer_email"] != ALEX and titles.count(e["title"]) == 1 and _at(e["end"]) > NOW:
            return e
    raise AssertionError("no pending invitation")


def _colleague_not_invited(dump: dict, event_id: int) -> tuple[str, str]:
    """(email, name) of a Northwind colleague the calendar knows, not a guest of the event."""
    invited = set(_guests(dump, event_id)) | {ALEX}
    known = {g["email"]: g["name"] for g in dump["invitee"] if g["email"].endswith("@northwind.example")}
    email = sorted(set(known) - invited)[0]
    return email, known[email]


def _form(**over) -> dict:
    data = {"title": "Supplier catch-up", "calendar_id": "1", "start_date": "2026-03-05", "start_time": "09:00",
            "end_date": "2026-03-05", "end_time": "09:45", "location": "Coffee corner", "description": "", "guests": ""}
    return data | over


def _titles(html: str) -> set[str]:
    """Titles of the event chips/links on a page."""
    found = re.findall(r'<span class="title">([^<]+)</span>', html) + re.findall(r'href="/i/[0-9a-f]+/event/\d+">([^<]+)</a>', html)
    return {unescape(title) for title in found}


def test_create_event_with_invitees(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    colleague, colleague_name = _colleague_not_invited(before, 0)
    answer = client.post("/event/new", data=_form(
        title="Brochure reprint planning", start_date="2026-03-09", start_time="15:00", end_date="2026-03-09", end_time="16:30",
        calendar_id="1", location="Main meeting room", description="Quantities and paper for the reprint.",
        guests=f"Jordan Blake <jordan@brightlineprint.example>, {colleague}\nnew.person@acme.example",
    ))
    assert answer.status_code == 303
    after = server.admin.state(iid)
    event = _event(after, "Brochure reprint planning")
    assert answer.headers["location"].startswith(f"/i/{iid}/event/{event['id']}")
    assert event["id"] == max(e["id"] for e in before["event"]) + 1
    assert (_at(event["start"]), _at(event["end"])) == (datetime(2026, 3, 9, 15), datetime(2026, 3, 9, 16, 30))
    assert event["calendar_id"] == 1 and event["all_day"] is False
    assert event["location"] == "Main meeting room" and event["description"] == "Quantities and paper for the reprint."
    assert (event["organizer_email"], event["organizer_name"]) == (ALEX, "Alex Morgan")
    guests = _guests(after, event["id"])
    assert {e: (g["name"], g["rsvp"]) for e, g in guests.items()} == {
        "jordan@brightlineprint.example": ("Jordan Blake", "pending"),
        colleague: (colleague_name, "pending"),  # name from the people already in the calendar
        "new.person@acme.example": ("New Person", "pending"),
    }
    assert len(after["invitee"]) == len(before["invitee"]) + 3
    page = client.get(f"/event/{event['id']}").text
    assert "Brochure reprint planning" in page and "Monday, March 9, 2026 · 15:00 – 16:30" in page


def test_all_day_event_spans_its_days(server, inst):
    client, iid = inst
    company = [c for c in server.admin.state(iid)["calendar"] if c["name"] == "Northwind Studio"]
    assert len(company) == 1  # the company's own calendar, besides Work and Personal
    client.post("/event/new", data=_form(title="Trade fair", all_day="1", start_date="2026-03-24", end_date="2026-03-25",
                                         start_time="", end_time="", calendar_id=str(company[0]["id"])))
    event = _event(server.admin.state(iid), "Trade fair")
    assert event["all_day"] is True and event["calendar_id"] == company[0]["id"]
    assert (_at(event["start"]), _at(event["end"])) == (datetime(2026, 3, 24), datetime(2026, 3, 26))
    week = client.get("/week", params={"date": "2026-03-25"}).text
    assert week.count(">Trade fair<") == 2  # in the all-day strip of Tuesday and Wednesday


def test_edit_event_keeps_answers_of_remaining_guests(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    review = _organised_by_alex(before)
    guests = _guests(before, review["id"])
    answered = next(g for g in guests.values() if g["rsvp"] != "pending")
    newcomer, newcomer_name = _colleague_not_invited(before, review["id"])
    form = client.get(f"/event/{review['id']}/edit").text
    assert f'value="{review["title"]}"' in form and f"{answered['name']} &lt;{answered['email']}&gt;" in form
    answer = client.post(f"/event/{review['id']}/edit", data=_form(
        title=review["title"], start_date="2026-03-04", start_time="15:00", end_date="2026-03-04", end_time="16:30",
        location="Navarro Foods HQ, Pier 4", description=review["description"], calendar_id="1",
        guests=f"{answered['email']}, dana@harbourfoods.example, {newcomer}",
    ))
    assert answer.status_code == 303
    after = server.admin.state(iid)
    edited = _event(after, review["title"])
    assert edited["id"] == review["id"]
    assert (_at(edited["start"]), _at(edited["end"])) == (datetime(2026, 3, 4, 15), datetime(2026, 3, 4, 16, 30))
    assert edited["location"] == "Navarro Foods HQ, Pier 4"
    now = _guests(after, review["id"])
    assert {e: g["rsvp"] for e, g in now.items()} == {
        answered["email"]: answered["rsvp"], "dana@harbourfoods.example": "pending", newcomer: "pending",
    }
    assert now[newcomer]["name"] == newcomer_name
    others = lambda dump: [e for e in dump["event"] if e["id"] != review["id"]]  # noqa: E731
    assert others(after) == others(before)


def test_delete_event_removes_it_and_its_guests(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    dinner = next(e for e in before["event"] if e["organizer_email"] == ALEX and _guests(before, e["id"]) and _at(e["start"]) < NOW)
    answer = client.post(f"/event/{dinner['id']}/delete")
    assert answer.status_code == 303 and "/week?" in answer.headers["location"]
    after = server.admin.state(iid)
    assert [e for e in before["event"] if e["id"] != dinner["id"]] == after["event"]
    assert [g for g in before["invitee"] if g["event_id"] != dinner["id"]] == after["invitee"]
    assert client.get(f"/event/{dinner['id']}").status_code == 404


def test_rsvp_to_an_invitation(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    invite = _invitation(before)
    mine = _guests(before, invite["id"])[ALEX]
    assert invite["title"] in client.get("/invitations").text.split("Answered")[0]
    answer = client.post(f"/event/{invite['id']}/rsvp", data={"answer": "yes", "next": "/invitations"})
    assert answer.status_code == 303 and answer.headers["location"].startswith(f"/i/{iid}/invitations")
    after = server.admin.state(iid)
    assert _guests(after, invite["id"])[ALEX]["rsvp"] == "yes"
    changed = [g for g, h in zip(before["invitee"], after["invitee"]) if g != h]
    assert changed == [mine] and before["event"] == after["event"]
    assert invite["title"] not in client.get("/invitations").text.split("Answered")[0]
    client.post(f"/event/{invite['id']}/rsvp", data={"answer": "maybe"})
    assert _guests(server.admin.state(iid), invite["id"])[ALEX]["rsvp"] == "maybe"
    # not invited (Alex organises the review) and a made-up answer: refused, nothing changes
    review = _organised_by_alex(before)
    state = server.admin.state(iid)
    assert client.post(f"/event/{review['id']}/rsvp", data={"answer": "yes"}).status_code == 403
    assert client.post(f"/event/{invite['id']}/rsvp", data={"answer": "sure"}).status_code == 400
    assert server.admin.state(iid) == state


def test_organiser_adds_and_removes_guests_others_cannot(server, inst):
    client, iid = inst
    before = server.admin.state(iid)
    review = _organised_by_alex(before)
    newcomer, newcomer_name = _colleague_not_invited(before, review["id"])
    client.post(f"/event/{review['id']}/guests", data={"email": newcomer.title(), "name": ""})
    guests = _guests(server.admin.state(iid), review["id"])
    assert guests[newcomer]["name"] == newcomer_name and guests[newcomer]["rsvp"] == "pending"
    # a second invite of the same person changes nothing
    state = server.admin.state(iid)
    assert "already invited" in client.post(f"/event/{review['id']}/guests", data={"email": newcomer},
                                            follow_redirects=True).text
    assert server.admin.state(iid) == state
    leaving = next(g for e, g in guests.items() if e != newcomer)
    client.post(f"/event/{review['id']}/guests/{leaving['id']}/remove")
    assert leaving["email"] not in _guests(server.admin.state(iid), review["id"])
    # someone else organises the invitation: Alex may not edit, delete or change its guests
    invite = _invitation(before)
    state = server.admin.state(iid)
    other = next(g for g in _guests(state, invite["id"]).values())
    for path in ["/edit", "/delete", "/guests", f"/guests/{other['id']}/remove"]:
        data = _form() if path == "/edit" else {"email": "x@example.com"}
        assert client.post(f"/event/{invite['id']}{path}", data=data).status_code == 403, path
    assert client.get(f"/event/{invite['id']}/edit").status_code == 403
    assert "Edit event" not in client.get(f"/event/{invite['id']}").text
    assert server.admin.state(iid) == state


@pytest.mark.parametrize("path", ["/event/new", "/event/{id}/edit"])
def test_end_before_start_is_a_form_error_and_changes_nothing(server, inst, path):
    client, iid = inst
    before = server.admin.state(iid)
    review = _organised_by_alex(before)
    answer = client.post(path.format(id=review["id"]), data=_form(
        title="Backwards meeting", start_date="2026-03-04", start_time="15:00", end_date="2026-03-04", end_time="14:00",
    ))
    assert answer.status_code == 422  # the kit's form-error convention: the form again, the error under its field
    assert 'id="end_time-error" role="alert">The end must be after the start.<' in answer.text
    assert 'aria-describedby="end_time-error"' in answer.text
    assert 'value="Backwards meeting"' in answer.text and 'value="15:00"' in answer.text  # what was typed is kept
    bad_guest = client.post(path.format(id=review["id"]), data=_form(guests="not an email"))
    assert bad_guest.status_code == 422 and "is not an email address" in bad_guest.text
    no_title = client.post(path.format(id=review["id"]), data=_form(title="  "))
    assert "Add a title." in no_title.text
    assert server.admin.state(iid) == before


def test_week_month_day_views_show_the_right_events(server, inst):
    client, iid = inst
    dump = server.admin.state(iid)
    week = client.get("/week", params={"date": "2026-03-04"}).text
    assert "March 2 – 8, 2026" in week
    this_week = _shown(dump, date(2026, 3, 2), 7)
    assert len(this_week) >= 6 and _titles(week) == this_week
    assert {e["title"] for e in dump["event"] if e["all_day"]} & this_week  # the all-day strip has something in it
    assert 'date=2026-02-23" aria-label="Previous week"' in week and 'date=2026-03-09" aria-label="Next week"' in week
    assert ">Today</a>" in week and 'week?date=2026-03-02">Today' in week
    assert _titles(client.get("/").text) == _titles(week)  # home is this week ("today" is the instance clock's date)
    february = _titles(client.get("/month", params={"date": "2026-02-10"}).text)
    assert february == _shown(dump, date(2026, 1, 26), 35) and february - this_week  # the grid runs Jan 26 - Mar 1
    only_march = _shown(dump, date(2026, 3, 2), 7) - _shown(dump, date(2026, 1, 26), 35)
    assert only_march and not only_march & february
    busy = max({_at(e["start"]).date() for e in dump["event"] if not e["all_day"]}, key=lambda d: (len(_shown(dump, d, 1)), d))
    day = client.get("/day", params={"date": busy.isoformat()}).text
    assert f"{busy:%A, %B} {busy.day}, {busy.year}" in day
    assert len(_shown(dump, busy, 1)) >= 2 and _titles(day) == _shown(dump, busy, 1)
    after = busy + timedelta(days=1)
    assert f'date={busy - timedelta(days=1)}" aria-label="Previous day"' in day and f'date={after}" aria-label="Next day"' in day
    assert client.get("/week", params={"date": "March 4"}).status_code == 400


def test_agenda_and_invitations(server, inst):
    client, iid = inst
    dump = server.admin.state(iid)
    agenda = _titles(client.get("/agenda").text)
    assert "March 2 – 15, 2026" in client.get("/agenda").text
    reminders = {e["title"] for e in dump["event"] if e["title"].startswith("Pay ") and e["all_day"]}
    assert agenda == _shown(dump, date(2026, 3, 2), 14) and reminders & agenda and reminders - agenda
    personal_id = next(c["id"] for c in dump["calendar"] if c["name"] == "Personal")
    personal = _titles(client.get("/agenda", params={"calendar": personal_id}).text)
    assert personal == _shown(dump, date(2026, 3, 2), 14, personal_id) and personal and personal < agenda
    waiting = _titles(client.get("/invitations").text.split("Answered")[0])
    pending = {e["title"] for e in dump["event"] if _at(e["end"]) > NOW and _guests(dump, e["id"]).get(ALEX, {}).get("rsvp") == "pending"}
    assert waiting == pending and len(pending) >= 3


def _matching(dump: dict, query: str) -> set[str]:
    """Titles of the events the search should find: `query` in the title, place, notes, organiser or a guest."""
    q = query.lower()
    return {e["title"] for e in dump["event"]
            if q in " ".join([e["title"], e["location"], e["description"], e["organizer_name"], e["organizer_email"]]).lower()
            or any(q in f"{g['email']} {g['name']}".lower() for g in _guests(dump, e["id"]).values())}


def test_search_by_title_location_and_guest(server, inst):
    client, iid = inst
    dump = server.admin.state(iid)
    invite = _invitation(dump)
    relative = next(g for g in dump["invitee"] if g["email"].endswith("@mailbox.example"))
    queries = {"title": invite["title"].upper(), "place": "Community Centre", "guest email": invite["organizer_email"],
               "guest name": relative["name"]}
    for what, query in queries.items():
        expected = _matching(dump, query)
        assert expected and _titles(client.get("/search", params={"q": query}).text) == expected, what
    assert invite["title"] in _matching(dump, queries["title"]) and len(_matching(dump, "community centre")) == 1
    assert "No events match" in client.get("/search", params={"q": "zebra crossing"}).text
    first = min((e for e in dump["event"] if e["organizer_email"] != ALEX), key=lambda e: (e["start"], e["id"]))
    suggested = re.findall(r'<a href="/i/[0-9a-f]+/search\?q=[^"]+">([^<]+)</a>', client.get("/search").text)
    assert suggested == [first["organizer_name"], first["organizer_email"]]  # examples from this calendar's own people


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
    first_timed = min((e for e in server.admin.state(iid)["event"] if not e["all_day"] and "2026-03-02" <= e["start"] < "2026-03-09"),
                      key=lambda e: e["start"])
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
                assert page.get_by_role("link", name=f"{first_timed['start'][11:16]} {first_timed['title']}").first.is_visible()
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
                page.get_by_role("link", name=f"16:00 {title}").wait_for(state="visible", timeout=5000)
                assert errors == [], f"console errors at {form_factor}: {errors}"
                context.close()
        finally:
            browser.close()
            server.admin.delete(iid)


# ---- as a new user tries it: overlaps, whole titles, the guest count, the phone week -------------------------
def test_browser_overlaps_titles_guest_count_and_phone_week(server):
    from mocked_apps.kit.testing import Client, browser_pages

    with Client(server) as app, browser_pages() as pages:
        review = _organised_by_alex(app.state())
        start = _at(review["start"])
        app.post("/event/new", **_form(title="Courier pickup: signed contracts", start_date=f"{start:%Y-%m-%d}",
                                       start_time=f"{start + timedelta(minutes=30):%H:%M}", end_date=f"{start:%Y-%m-%d}",
                                       end_time=f"{start + timedelta(minutes=60):%H:%M}"))
        courier = _event(app.state(), "Courier pickup: signed contracts")
        invited = len(_guests(app.state(), review["id"]))
        for form_factor, page in pages:
            page.goto(app.url(f"/week?date={start:%Y-%m-%d}"))
            chips = [page.locator(f".tg-day a.chip[href$='/event/{e['id']}']") for e in (review, courier)]
            left, right = (c.bounding_box() for c in chips)
            assert left["x"] + left["width"] <= right["x"] + 1, (form_factor, "overlapping events sit side by side")
            courier_time = f"{start + timedelta(minutes=30):%H:%M} – {start + timedelta(minutes=60):%H:%M}"
            assert chips[1].get_attribute("title").startswith(f"Courier pickup: signed contracts · {courier_time}")
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
                page.goto(app.url(f"/event/{review['id']}"))
                heading = page.get_by_role("heading", name=re.compile(r"^Guests \(\d+\)$")).inner_text()
                listed = page.locator("ul.guests > li").count()
                assert heading == f"Guests ({invited + 1})" and listed == invited + 1  # the organiser is a guest too
        assert pages.errors == []


def test_projection_adds_a_routine_that_keeps_out_of_the_meetings_way():
    """Any world's calendar has a routine besides its meetings: the company's calendar, family dinners, a client's
    breakfast invitation, a reminder on each unpaid invoice's due day (in the world's currency). A routine title a
    meeting already has gives way, nothing of it overlaps a meeting or the working hours ahead (where meetings are
    booked); the same world, the same rows."""
    from contracts.world import Invoice, LineItem, Meeting, Organisation, Person, Persona, Scenario, World
    from mocked_apps.calendar.projection import project

    persona = Persona(id="p", name="Rosa Delgado", email="rosa@db.example", role="owner", company="Delgado Bakery", domain="db.example",
                      city="San Antonio", currency="EUR")
    people = (Person(id="u", name="Rosa Delgado", email="rosa@db.example", org="o1", role="owner"),
              Person(id="b", name="Ben Ortiz", email="ben@db.example", org="o1", role="baker"),
              Person(id="m", name="Luz Delgado", email="luz@home.example", org="o2", role="mother"),
              Person(id="c", name="Tomas Vega", email="tomas@casaverde.example", org="o3", role="project lead"),
              Person(id="v", name="Ida Flour", email="ida@mill.example", org="o4", role="accounts"))
    clash = Meeting(id="m1", title="Friday drinks", start=datetime(2026, 4, 9, 10), end=datetime(2026, 4, 9, 11), location="Back office",
                    organizer="b", attendees=("u",))
    sunday_call = Meeting(id="m2", title="Supplier call", start=datetime(2026, 4, 12, 18, 30), end=datetime(2026, 4, 12, 19),
                          location="Phone", organizer="u", attendees=("c",))
    invoice = dict(vendor="o4", contact="v", issued=date(2026, 4, 1), description="Flour", amount=120.5,
                   items=(LineItem(description="Flour", quantity=1, unit_price=120.5),))
    world = World(id="w", seed=1, persona=persona, scenario=Scenario(id="s", title="t", description="", clock=datetime(2026, 4, 7, 9)),
                  user="u", organisations=(Organisation(id="o1", name="Delgado Bakery", kind="self", domain="db.example"),
                                           Organisation(id="o2", name="Delgado family", kind="household", domain="home.example"),
                                           Organisation(id="o3", name="Casa Verde", kind="client", domain="casaverde.example"),
                                           Organisation(id="o4", name="Mill & Co", kind="vendor", domain="mill.example")),
                  people=people, meetings=(clash, sunday_call),
                  invoices=(Invoice(id="i1", number="MC-7", due=date(2026, 4, 15), **invoice),
                            Invoice(id="i2", number="MC-6", due=date(2026, 4, 10), paid=True, **invoice)))
    rows = project(world)
    assert [c["name"] for c in rows["calendar"]] == ["Work", "Personal", "Delgado Bakery"]
    assert [e["id"] for e in rows["event"] if e["title"] == "Friday drinks"] == [1]  # the meeting; the team's drinks give way
    assert [e["title"] for e in rows["event"] if e["title"].startswith("Pay ")] == ["Pay Mill & Co MC-7 (€120.50, due Apr 15)"]
    guests = lambda title: {(g["email"], g["rsvp"]) for e in rows["event"] if e["title"] == title  # noqa: E731
                            for g in rows["invitee"] if g["event_id"] == e["id"]}
    assert guests("Dinner with Luz") == {("luz@home.example", "yes")}
    dinners = {e["start"] for e in rows["event"] if e["title"] == "Dinner with Luz"}
    assert "2026-04-26T18:00:00" in dinners and "2026-04-12T18:00:00" not in dinners  # every other Sunday, but not over the call
    assert guests("Breakfast with Casa Verde") == {("rosa@db.example", "pending")}
    assert len(rows["event"]) > 20
    for e in rows["event"][2:]:
        start, end = _at(e["start"]), _at(e["end"])
        assert not any(start < m.end and end > m.start for m in world.meetings), e
        ahead_on_a_weekday = end > world.scenario.clock and start.weekday() < 5 and not e["all_day"]
        assert not (ahead_on_a_weekday and start.hour < 17 and (end.hour, end.minute) > (9, 0)), e
    assert project(world) == rows
