"""The drive in real Chromium: a rename through the UI at both sizes; sizes, grid view, multi-select and preview."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mocked_apps.kit import AppServer

from .drive_client import Drive, grid

SHOTS = Path("/tmp/gf")


@pytest.fixture(scope="module")
def server():
    with AppServer("mocked_apps.drive") as srv:
        yield srv


def test_browser_desktop_and_phone_rename_through_the_ui(server):
    from playwright.sync_api import expect, sync_playwright

    from mocked_apps.kit.browser import context_options, launch_chromium

    drive = Drive(server)
    table = drive.table_with("Amount")
    columns, rows = grid(table)
    folders = drive.path(table["folder_id"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for form_factor, new_name in [("desktop", f"{table['name']} (final)"), ("mobile", f"{table['name']} v2")]:
                context = browser.new_context(**context_options(form_factor))
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(drive.base + "/")
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-home.png"), full_page=True)
                page.get_by_role("link", name=folders[0], exact=True).first.click()
                for name in folders[1:]:
                    page.get_by_role("link", name=name, exact=True).click()
                page.get_by_role("link", name=re.compile("^" + re.escape(table["name"]) + r"( \(final\))?$")).click()
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-table.png"), full_page=True)
                page.get_by_role("link", name="Rename", exact=True).click()
                page.get_by_label("New name").fill(new_name)
                page.get_by_role("button", name="Rename", exact=True).click()
                expect(page.get_by_role("heading", level=1)).to_contain_text(new_name)
                expect(page.get_by_role("status")).to_contain_text("Renamed")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= context_options(form_factor).get("viewport", {"width": 1280})["width"]
                page.get_by_role("link", name="Edit", exact=True).click()
                assert page.get_by_label("Row 2, Amount").input_value() == rows[1][columns.index("Amount")]
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-edit.png"), full_page=True)
                assert drive.file(new_name)["kind"] == "table"
                assert errors == []
                context.close()
        finally:
            browser.close()
    drive.http.close()


# ---- as a new user tries it: sizes, grid, multi-select, preview ------------------------------------------------
def test_browser_sizes_grid_multi_select_and_preview(server):
    from playwright.sync_api import expect

    from mocked_apps.kit.testing import Client, browser_pages

    with Client(server) as app, browser_pages(("desktop",)) as pages:
        invoices = next(f for f in app.state()["folder"] if f["name"] == "Invoices")
        before = {f["name"]: f for f in app.state()["file"]}
        numbers = [i["number"] for i in app.state()["invoice"]]
        first, second, third = (f"{n}.pdf" for n in numbers[:3])
        shown = app.state()["invoice"][1]
        for _, page in pages:
            page.goto(app.url(f"/folder/{invoices['id']}"))
            row = page.locator("table.files tr").filter(has=page.get_by_role("link", name=first, exact=True))
            assert row.locator("td.size").inner_text() == f"{before[first]['size_kb']} KB"
            page.get_by_role("link", name="Grid view").click()
            expect(page.locator("li.tile:not(.folder-tile)")).to_have_count(sum(
                f["folder_id"] == invoices["id"] and not f["trashed"] for f in before.values()))
            page.get_by_label(f"Select {second}").check()
            page.get_by_label(f"Select {third}").check()
            page.get_by_role("button", name="Star", exact=True).click()
            assert page.get_by_role("status").inner_text() == "2 files starred" and "view=grid" in page.url
            page.get_by_role("link", name=f"Preview {second}").click()
            preview = page.get_by_role("region", name=f"Preview of {second}").inner_text()
            assert f"INVOICE {shown['number']}" in preview and f"Total due ({shown['currency']}): {shown['amount']:,.2f}" in preview
            with page.expect_download() as download:
                page.get_by_role("link", name="Download", exact=True).click()
            assert download.value.suggested_filename == second
            assert Path(download.value.path()).read_bytes().startswith(b"%PDF-1.4")
        assert pages.errors == []
        starred = {f["name"] for f in app.state()["file"] if f["starred"]}
        assert starred == {n for n, f in before.items() if f["starred"]} | {second, third}
