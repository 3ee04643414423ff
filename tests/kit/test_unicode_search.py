"""A search typed the way a title reads finds it, whatever its letters: SQLite's own `lower` folds ASCII only, so
"1:1 Åke / Mahdi" searched as written found nothing in the calendar (a golden failed on it in test_gates)."""

from __future__ import annotations

import copy

import httpx

from mocked_apps.kit import AppServer
from mocked_apps.kit.package import load_package

TITLE = "1:1 Åke / Mahdi"


def test_a_title_with_non_ascii_capitals_is_found_by_its_own_spelling_and_by_another_case():
    seed = copy.deepcopy(load_package("mocked_apps.calendar").default_seed)
    seed["event"][0]["title"] = TITLE
    with AppServer("mocked_apps.calendar") as server:
        made = server.admin.create(seed)
        base = server.url + made["url"].rstrip("/")
        with httpx.Client(follow_redirects=True, timeout=30) as http:
            for query in (TITLE, "åke", "ÅKE / MAHDI"):
                page = http.get(f"{base}/search", params={"q": query})
                assert page.status_code == 200 and TITLE in page.text, query
            assert TITLE not in http.get(f"{base}/search", params={"q": "Ake / Mahdi"}).text  # folding case, not accents
