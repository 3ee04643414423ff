"""Take the TripNest screenshots of this folder: the main flow at both sizes on the default seed.

    .venv/bin/python docs/screenshots/travel/shoot.py
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from pathlib import Path

from mocked_apps.kit.testing import Client, browser_pages
from mocked_apps.kit.process import AppServer

OUT = Path(__file__).resolve().parent
DAY = "2026-03-12"
DAY_ZERO = "2026-03-02"  # the default seed's clock


def _flow(page, app: Client, size: str, shots: list[str]) -> None:
    def shot(name: str, full: bool = False) -> None:
        if name in shots:
            page.screenshot(path=str(OUT / f"{name}-{size}.png"), full_page=full)

    state = app.state()
    flight = next(b for b in state["trip_booking"] if b["kind"] == "flight" and b["travel_date"] > DAY_ZERO)  # the first flight ahead
    page.goto(app.url("/"))
    page.select_option("#destination", label="Seattle (SEA)")
    page.fill("#day", DAY)
    shot("1-flights")
    page.get_by_role("button", name="Search flights").click()
    shot("2-results")
    page.get_by_role("link", name=re.compile("^Select Premium economy on ")).first.click()
    page.select_option("#method", index=1)
    shot("3-review")
    page.get_by_role("button", name="Book and pay").click()
    shot("4-booked")
    page.goto(app.url(f"/stays/results?city=3&check_in={DAY}&nights=3"))
    shot("5-stays")
    page.get_by_role("link", name=re.compile("^See rooms at ")).first.click()
    shot("6-rooms")
    page.goto(app.url(f"/trips/{flight['trip_id']}"))
    shot("7-itinerary", full=True)
    later = (date.fromisoformat(flight["travel_date"]) + timedelta(days=1)).isoformat()
    page.goto(app.url(f"/bookings/{flight['id']}/change?day={later}"))
    shot("8-change")
    page.goto(app.url(f"/bookings/{flight['id']}/cancel"))
    shot("9-cancel")
    page.goto(app.url("/trips"))
    shot("trips")


def main() -> None:
    with AppServer("mocked_apps.travel") as server, browser_pages() as pages:
        for form_factor, page in pages:
            with Client(server) as app:
                if form_factor == "desktop":
                    _flow(page, app, "1280x800", ["1-flights", "2-results", "3-review", "4-booked", "5-stays", "6-rooms", "7-itinerary",
                                                  "8-change", "9-cancel"])
                else:
                    _flow(page, app, "390x844", ["1-flights", "2-results", "3-review", "5-stays", "6-rooms", "trips"])
    assert pages.errors == [], pages.errors


if __name__ == "__main__":
    main()
