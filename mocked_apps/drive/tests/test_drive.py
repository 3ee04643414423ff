"""The drive app over real HTTP (a real server process) and in real Chromium."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer

SHOTS = Path("/tmp/gf")
ME = "alex.morgan@northwind.example"


@pytest.fixture(scope="module")
def server():
    with AppServer("mocked_apps.drive") as srv:
        yield srv


class Drive:
    """One fresh instance of the drive: GET/POST by path, and its state dump."""

    def __init__(self, server: AppServer):
        self.server = server
        self.id = server.admin.create()["instance_id"]
        self.base = f"{server.url}/i/{self.id}"
        self.http = httpx.Client(base_url=self.base, timeout=30)

    def get(self, path: str) -> httpx.Response:
        response = self.http.get(path)
        assert response.status_code == 200, (path, response.text[:500])
        return response

    def post(self, path: str, **data) -> httpx.Response:
        response = self.http.post(path, data=data)
        assert response.status_code == 303, (path, response.status_code, response.text[:500])
        return response

    def refuse(self, path: str, **data) -> str:
        """POST a form the drive must refuse: the form again (422) with a field error; the error's text."""
        response = self.http.post(path, data=data)
        assert response.status_code == 422, (path, response.status_code)
        match = re.search(r'<p class="field-error" id="([a-z_]+)-error" role="alert">([^<]+)</p>', response.text)
        assert match and f'aria-describedby="{match[1]}-error"' in response.text, response.text[-800:]
        return match[2]

    def state(self) -> dict:
        return self.server.admin.state(self.id)

    def file(self, name: str) -> dict:
        (row,) = [f for f in self.state()["file"] if f["name"] == name]
        return row

    def folder(self, name: str) -> dict:
        (row,) = [f for f in self.state()["folder"] if f["name"] == name]
        return row


@pytest.fixture
def drive(server):
    d = Drive(server)
    yield d
    d.http.close()
    server.admin.delete(d.id)


class _Page(HTMLParser):
    """Links of a page, and its form controls that have no label."""

    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.controls: list[str] = []
        self.labels: set[str] = set()
        self.empty_buttons = 0
        self._button: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            assert a.get("href") not in (None, "", "#"), a
            self.hrefs.append(a["href"])
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") != "hidden" and not a.get("aria-label"):
            self.controls.append(a.get("id") or f"<{tag} name={a.get('name')}>")
        if tag == "button":
            self._button = [a.get("aria-label") or ""]

    def handle_data(self, data):
        if self._button is not None:
            self._button.append(data)

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self.empty_buttons += not "".join(self._button).strip()
            self._button = None

    @property
    def unlabelled(self) -> list[str]:
        return [c for c in self.controls if c not in self.labels]


def _grid(file: dict) -> tuple[list[str], list[list[str]]]:
    data = json.loads(file["content"])
    return data["columns"], data["rows"]


def _names_in(page: httpx.Response) -> str:
    return re.sub(r"\s+", " ", page.text)


# ---- the default seed ------------------------------------------------------------------
def test_default_seed_holds_the_shared_cast(drive):
    state = drive.state()
    assert 40 <= len(state["file"]) <= 60 and 8 <= len(state["folder"]) <= 10
    assert "drive_user" not in state  # the signed-in user is the kit's identity
    assert "Alex Morgan" in drive.http.get("/").text
    invoices = {i["number"]: i for i in state["invoice"]}
    expected = {
        "INV-2041": ("Brightline Print Co", 1240.0, "2026-02-20", "2026-03-15"),
        "INV-88213": ("CloudNest Hosting", 89.0, "2026-03-01", "2026-03-10"),
        "INV-3307": ("Green Leaf Catering", 560.5, "2026-02-25", "2026-03-20"),
    }
    invoices_folder = drive.folder("Invoices")
    for number, (vendor, amount, issued, due) in expected.items():
        inv = invoices[number]
        assert (inv["vendor"], inv["amount"], inv["issue_date"], inv["due_date"]) == (vendor, amount, issued, due)
        file = drive.file(f"{number}.pdf")
        assert file["kind"] == "invoice" and file["folder_id"] == invoices_folder["id"]
    for inv in state["invoice"]:  # every invoice's lines add up to its amount
        lines = [ln for ln in state["invoice_line"] if ln["invoice_id"] == inv["id"]]
        assert round(sum(ln["quantity"] * ln["unit_price"] for ln in lines), 2) == inv["amount"], inv["number"]
    for file in state["file"]:
        if file["kind"] == "table":
            columns, rows = _grid(file)
            assert columns and all(len(r) == len(columns) for r in rows), file["name"]
    assert {"Q1 Budget", "Expenses February", "Harbour Foods kickoff agenda", "Brand guidelines",
            "Onboarding plan for Sara Lind"} <= {f["name"] for f in state["file"]}
    assert len(state["share"]) >= 20


def test_a_small_world_seed_renders(server):
    """The shape a world builder writes: plain strings and numbers, a table as JSON text."""
    at = "2026-04-01T08:00:00"
    seed = {
        "_identity": [{"name": "Kim Lee", "email": "kim@acme.example", "company": "Acme"}],
        "folder": [{"id": 1, "name": "Bills", "created_at": at, "modified_at": at}],
        "file": [
            {"id": 1, "name": "INV-7.pdf", "kind": "invoice", "folder_id": 1, "owner_email": "kim@acme.example",
             "created_at": at, "modified_at": at},
            {"id": 2, "name": "Costs", "kind": "table", "folder_id": None, "owner_email": "ops@acme.example", "created_at": at,
             "modified_at": at, "content": json.dumps({"columns": ["Item", "Cost"], "rows": [["Desk", "300"], ["Lamp", "45.5"]]})},
        ],
        "invoice": [{"id": 1, "file_id": 1, "number": "INV-7", "vendor": "Desk Depot", "amount": 345.5,
                     "issue_date": "2026-03-20", "due_date": "2026-04-19"}],
        "invoice_line": [{"id": 1, "invoice_id": 1, "description": "Desk", "unit_price": 300.0},
                         {"id": 2, "invoice_id": 1, "description": "Lamp", "unit_price": 45.5}],
        "share": [{"id": 1, "file_id": 2, "email": "kim@acme.example", "role": "editor"}],
    }
    iid = server.admin.create(seed, at)["instance_id"]
    base = f"{server.url}/i/{iid}"
    invoice = httpx.get(f"{base}/file/1").text
    assert "Desk Depot" in invoice and "$345.50" in invoice and "Apr 19, 2026" in invoice
    assert "345.50" in httpx.get(f"{base}/file/2").text  # the Cost column's total
    assert "Costs" in httpx.get(f"{base}/shared").text and "Kim Lee" in httpx.get(f"{base}/").text
    server.admin.delete(iid)


def test_every_page_renders_and_get_never_changes_state(drive):
    before = drive.state()
    seen, queue = set(), ["/", "/recent", "/starred", "/shared", "/trash", "/search?q=invoice", "/new?kind=table"]
    while queue and len(seen) < 90:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        page = drive.get(path)
        parser = _Page()
        parser.feed(page.text)
        assert parser.unlabelled == [] and parser.empty_buttons == 0, path
        assert 'role="search"' in page.text and page.text.count("<h1") == 1, path
        prefix = f"/i/{drive.id}"
        queue += [h[len(prefix):] or "/" for h in parser.hrefs if h.startswith(prefix) and "notice=" not in h]
    assert len(seen) >= 60  # folders, files, their rename/move/share/edit pages
    for path in ["/file/1", "/file/11/edit", "/folder/2/move", "/file/1/share", "/search?q=harbour&kind=doc"]:
        assert path in seen or drive.get(path)
    assert drive.state() == before
    assert drive.http.get("/file/9999").status_code == 404


# ---- creating and editing --------------------------------------------------------------
def test_create_folder_document_and_table(drive):
    finance = drive.folder("Finance")
    page = drive.post("/new", kind="folder", name="  Tax  2026 ", folder=str(finance["id"]))
    folder = drive.folder("Tax 2026")
    assert folder["parent_id"] == finance["id"] and page.headers["location"].startswith(f"/i/{drive.id}/folder/{folder['id']}")
    assert folder["created_at"] == "2026-03-02 09:00:00.000000"
    drive.post("/new", kind="doc", name="Tax checklist", folder=str(folder["id"]), content="Receipts\nInvoices")
    doc = drive.file("Tax checklist")
    assert (doc["kind"], doc["folder_id"], doc["owner_email"], doc["content"]) == ("doc", folder["id"], ME, "Receipts\nInvoices")
    drive.post("/new", kind="table", name="Mileage", folder="", columns="Date, Km", rows="2")
    table = drive.file("Mileage")
    assert table["folder_id"] is None and _grid(table) == (["Date", "Km"], [["", ""], ["", ""]])
    assert "Tax checklist" in drive.get(f"/folder/{folder['id']}").text and "Mileage" in drive.get("/").text
    # times move on with every change, so creation order shows in the dump
    assert doc["created_at"] > folder["created_at"] and table["created_at"] > doc["created_at"]


def test_edit_document_text(drive):
    doc = drive.file("Brand guidelines")
    assert 'id="content"' in drive.get(f"/file/{doc['id']}/edit").text
    drive.post(f"/file/{doc['id']}/content", content="Logo: navy on fog.\r\nNo shadows.")
    after = drive.file("Brand guidelines")
    assert after["content"] == "Logo: navy on fog.\nNo shadows."
    assert after["modified_at"] == "2026-03-02 09:00:00.000000" and after["modified_at"] != doc["modified_at"]
    assert "Logo: navy on fog." in drive.get(f"/file/{doc['id']}").text


def test_edit_table_cells_rows_and_columns(drive):
    budget = drive.file("Q1 Budget")
    columns, rows = _grid(budget)
    edit = drive.get(f"/file/{budget['id']}/edit").text
    assert '<label for="cell-2-2" class="sr">Row 2, Amount</label>' in edit
    cells = [v for r in rows for v in r]
    cells[1 * len(columns) + 1] = "2750.00"  # Row 2, Amount
    drive.post(f"/file/{budget['id']}/table", column=columns, cell=cells, op="save")
    columns2, rows2 = _grid(drive.file("Q1 Budget"))
    assert rows2[1] == ["Printing", "2750.00", "Priya Shah", "Brochures, business cards"] and len(rows2) == len(rows)
    assert "12,100.00" in drive.get(f"/file/{budget['id']}").text  # the column total follows the edit
    drive.post(f"/file/{budget['id']}/table", column=columns2, cell=[v for r in rows2 for v in r], op="add_row")
    drive.post(f"/file/{budget['id']}/table", column=columns2, cell=[v for r in rows2 for v in r] + [""] * 4,
               op="add_column", new_column="Spent")
    columns3, rows3 = _grid(drive.file("Q1 Budget"))
    assert columns3 == columns + ["Spent"] and len(rows3) == len(rows) + 1 and rows3[-1] == [""] * 5
    drive.post(f"/file/{budget['id']}/table", column=columns3, cell=[v for r in rows3 for v in r], op="delete_row:1")
    drive.post(f"/file/{budget['id']}/table", column=columns3, cell=[v for r in rows3[1:] for v in r], op="delete_column:5")
    columns4, rows4 = _grid(drive.file("Q1 Budget"))
    assert columns4 == columns and rows4[0][0] == "Printing" and len(rows4) == len(rows)


# ---- organising ------------------------------------------------------------------------
def test_rename_and_move_files_and_folders(drive):
    brief = drive.file("Brochure project brief")
    drive.post(f"/file/{brief['id']}/rename", name="Brochure brief (final)")
    assert drive.file("Brochure brief (final)")["id"] == brief["id"]
    assert "empty" in drive.refuse(f"/file/{brief['id']}/rename", name="   ")  # names can't be empty
    assert drive.file("Brochure brief (final)")["id"] == brief["id"]
    marketing, invoices, finance = drive.folder("Marketing"), drive.folder("Invoices"), drive.folder("Finance")
    assert "Marketing" in drive.get(f"/file/{brief['id']}/move").text
    drive.post(f"/file/{brief['id']}/move", folder=str(marketing["id"]))
    assert drive.file("Brochure brief (final)")["folder_id"] == marketing["id"]
    drive.post(f"/file/{brief['id']}/move", folder="")
    assert drive.file("Brochure brief (final)")["folder_id"] is None
    drive.post(f"/folder/{invoices['id']}/rename", name="Vendor invoices")
    drive.post(f"/folder/{invoices['id']}/move", folder=str(marketing["id"]))
    assert drive.folder("Vendor invoices")["parent_id"] == marketing["id"]
    drive.refuse(f"/folder/{finance['id']}/move", folder=str(finance["id"]))  # into itself
    drive.refuse(f"/folder/{marketing['id']}/move", folder=str(invoices["id"]))  # into its own child
    assert drive.folder("Finance")["parent_id"] is None and drive.folder("Marketing")["parent_id"] is None
    assert "My Drive / Marketing / Vendor invoices" in drive.get("/search?q=INV-2041").text


def test_share_change_role_and_unshare(drive):
    agenda = drive.file("Harbour Foods kickoff agenda")
    shares = lambda: {(s["email"], s["role"]) for s in drive.state()["share"] if s["file_id"] == agenda["id"]}  # noqa: E731
    start = shares()
    drive.post(f"/file/{agenda['id']}/share", email="Dana@HarbourFoods.example", role="viewer")
    assert shares() == start | {("dana@harbourfoods.example", "viewer")}
    drive.post(f"/file/{agenda['id']}/share", email="dana@harbourfoods.example", role="editor")
    assert shares() == start | {("dana@harbourfoods.example", "editor")}
    for bad in [dict(email="not-an-email", role="viewer"), dict(email="x@y.example", role="owner"),
                dict(email=agenda["owner_email"], role="editor")]:
        drive.refuse(f"/file/{agenda['id']}/share", **bad)
    assert shares() == start | {("dana@harbourfoods.example", "editor")}
    page = drive.get(f"/file/{agenda['id']}/share").text
    assert 'aria-label="Remove dana@harbourfoods.example"' in page
    (row,) = [s for s in drive.state()["share"] if s["email"] == "dana@harbourfoods.example"]
    drive.post(f"/file/{agenda['id']}/share/{row['id']}/remove")
    assert shares() == start


def test_trash_restore_and_delete_forever(drive):
    inv = drive.file("INV-3307.pdf")
    drive.post(f"/file/{inv['id']}/trash")
    assert drive.file("INV-3307.pdf")["trashed"] is True
    assert "INV-3307.pdf" not in drive.get(f"/folder/{inv['folder_id']}").text
    assert "INV-3307.pdf" not in drive.get("/search?q=Green Leaf").text
    assert "INV-3307.pdf" in drive.get("/trash").text
    drive.post(f"/file/{inv['id']}/restore")
    assert drive.file("INV-3307.pdf")["trashed"] is False and "INV-3307.pdf" in drive.get("/search?q=INV-3307").text
    # a trashed folder hides everything under it; restoring a file from it puts the file in My Drive
    finance = drive.folder("Finance")
    drive.post(f"/folder/{finance['id']}/trash")
    assert "INV-2041.pdf" not in drive.get("/search?q=INV-2041").text and "Q1 Budget" not in drive.get("/recent").text
    drive.post(f"/file/{inv['id']}/trash")
    drive.post(f"/file/{inv['id']}/restore")
    assert drive.file("INV-3307.pdf")["folder_id"] is None
    drive.post(f"/folder/{finance['id']}/restore")
    assert "INV-2041.pdf" in drive.get("/search?q=INV-2041").text
    # delete forever needs the trash first, then removes the file, its invoice, lines and shares
    drive.post(f"/file/{inv['id']}/delete")
    assert drive.file("INV-3307.pdf")
    drive.post(f"/file/{inv['id']}/trash")
    drive.post(f"/file/{inv['id']}/delete")
    state = drive.state()
    assert inv["id"] not in {f["id"] for f in state["file"]} | {s["file_id"] for s in state["share"]}
    assert "INV-3307" not in {i["number"] for i in state["invoice"]}
    drive.post("/trash/empty")
    assert not any(f["trashed"] for f in drive.state()["file"])


def test_search_by_name_and_by_content(drive):
    by_name = drive.get("/search?q=budget").text
    assert "Q1 Budget" in by_name and "Budgets" in by_name  # a file and a folder
    by_content = drive.get("/search?q=anchor motif").text  # only inside the kickoff agenda's text
    assert "Harbour Foods kickoff agenda" in by_content and "Brand guidelines" not in by_content
    by_vendor = drive.get("/search?q=brightline&kind=invoice").text
    assert "INV-2041.pdf" in by_vendor and "INV-1988.pdf" in by_vendor and "INV-3307.pdf" not in by_vendor
    assert "No files match" in drive.get("/search?q=zebra-unicorn").text
    assert "No files match" in drive.get("/search?q=columns").text  # a table's JSON keys are not its text
    assert "Q1 Budget" in drive.get("/search?q=freelance illustration").text  # but its cells are


def test_star_views_and_invoice_status(drive):
    reading = drive.file("Reading list")
    assert "Reading list" not in drive.get("/starred").text
    drive.post(f"/file/{reading['id']}/star")
    assert drive.file("Reading list")["starred"] is True and "Reading list" in drive.get("/starred").text
    assert "Invoice tracker" in drive.get("/shared").text and "Reading list" not in drive.get("/shared").text
    inv = drive.file("INV-2041.pdf")
    drive.post(f"/file/{inv['id']}/invoice-status", status="paid")
    (row,) = [i for i in drive.state()["invoice"] if i["number"] == "INV-2041"]
    assert row["status"] == "paid"
    recent = _names_in(drive.get("/recent"))
    assert recent.index("INV-2041.pdf") < recent.index("To-do this week")  # just modified: now first


def test_same_requests_same_dump_and_reset(server):
    dumps = []
    for _ in range(2):
        d = Drive(server)
        initial = d.state()
        d.post("/new", kind="doc", name="Notes", folder="", content="x")
        d.post("/file/11/rename", name="Budget Q1")
        d.post("/file/1/share", email="tom.becker@northwind.example", role="viewer")
        dumps.append(d.state())
        server.admin.reset(d.id)
        assert d.state() == initial
        d.http.close()
    assert dumps[0] == dumps[1]


# ---- in a real browser -----------------------------------------------------------------
def test_browser_desktop_and_phone_rename_through_the_ui(server):
    from playwright.sync_api import expect, sync_playwright

    from mocked_apps.kit.browser import context_options, launch_chromium

    drive = Drive(server)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for form_factor, new_name in [("desktop", "Q1 Budget (final)"), ("mobile", "Q1 Budget v2")]:
                context = browser.new_context(**context_options(form_factor))
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(drive.base + "/")
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-home.png"), full_page=True)
                page.get_by_role("link", name="Finance", exact=True).first.click()
                page.get_by_role("link", name="Budgets", exact=True).click()
                page.get_by_role("link", name=re.compile(r"^Q1 Budget")).click()
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-table.png"), full_page=True)
                page.get_by_role("link", name="Rename", exact=True).click()
                page.get_by_label("New name").fill(new_name)
                page.get_by_role("button", name="Rename", exact=True).click()
                expect(page.get_by_role("heading", level=1)).to_contain_text(new_name)
                expect(page.get_by_role("status")).to_contain_text("Renamed")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= context_options(form_factor).get("viewport", {"width": 1280})["width"]
                page.get_by_role("link", name="Edit", exact=True).click()
                assert page.get_by_label("Row 2, Amount").input_value() == "2500.00"
                page.screenshot(path=str(SHOTS / f"drive-{form_factor}-edit.png"), full_page=True)
                assert drive.file(new_name)["kind"] == "table"
                assert errors == []
                context.close()
        finally:
            browser.close()
    drive.http.close()


# ---- as a new user tries it: sizes, grid, multi-select, preview ------------------------------------------------
def test_browser_sizes_grid_multi_select_and_preview(server):
    from mocked_apps.kit.testing import Client, browser_pages

    with Client(server) as app, browser_pages(("desktop",)) as pages:
        invoices = next(f for f in app.state()["folder"] if f["name"] == "Invoices")
        before = {f["name"]: f for f in app.state()["file"]}
        for _, page in pages:
            page.goto(app.url(f"/folder/{invoices['id']}"))
            row = page.locator("table.files tr").filter(has=page.get_by_role("link", name="INV-2041.pdf", exact=True))
            assert row.locator("td.size").inner_text() == f"{before['INV-2041.pdf']['size_kb']} KB"
            page.get_by_role("link", name="Grid view").click()
            assert page.locator("li.tile:not(.folder-tile)").count() == sum(
                f["folder_id"] == invoices["id"] and not f["trashed"] for f in before.values())
            page.get_by_label("Select INV-3307.pdf").check()
            page.get_by_label("Select INV-88213.pdf").check()
            page.get_by_role("button", name="Star", exact=True).click()
            assert page.get_by_role("status").inner_text() == "2 files starred" and "view=grid" in page.url
            page.get_by_role("link", name="Preview INV-3307.pdf").click()
            preview = page.get_by_role("region", name="Preview of INV-3307.pdf").inner_text()
            assert "INVOICE INV-3307" in preview and "Total due (USD): 560.50" in preview
            with page.expect_download() as download:
                page.get_by_role("link", name="Download", exact=True).click()
            assert download.value.suggested_filename == "INV-3307.pdf"
            assert Path(download.value.path()).read_bytes().startswith(b"%PDF-1.4")
        assert pages.errors == []
        starred = {f["name"] for f in app.state()["file"] if f["starred"]}
        assert starred == {n for n, f in before.items() if f["starred"]} | {"INV-3307.pdf", "INV-88213.pdf"}


def test_bulk_actions_move_and_trash_and_refuse_an_empty_selection(drive):
    inv = drive.folder("Invoices")
    ids = [drive.file("INV-2041.pdf")["id"], drive.file("INV-3307.pdf")["id"]]
    before = drive.state()
    assert "Select at least one file" in drive.refuse("/bulk", op="star", here=str(inv["id"]))
    assert "Choose an action" in drive.refuse("/bulk", op="rename", file=ids, here=str(inv["id"]))
    assert drive.state() == before
    marketing = drive.folder("Marketing")
    drive.post("/bulk", op="move", file=ids, folder=str(marketing["id"]), here=str(inv["id"]))
    assert {drive.file(n)["folder_id"] for n in ("INV-2041.pdf", "INV-3307.pdf")} == {marketing["id"]}
    drive.post("/bulk", op="trash", file=ids, here=str(marketing["id"]))
    assert all(drive.file(n)["trashed"] for n in ("INV-2041.pdf", "INV-3307.pdf"))
    assert drive.file("INV-88213.pdf")["trashed"] is False
