"""The drive app over real HTTP (a real server process); in real Chromium: test_drive_browser.py.

The default seed is the projection of the default world: the tests pick the files they need from the state by
their properties (an invoice, a table with an Amount column, a colleague's document), never by a name typed here."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer

from mocked_apps.drive.projection import project

from .drive_client import Drive, grid

IDENTITY = json.loads((Path(__file__).parents[1] / "seed.json").read_text())["seed"]["_identity"][0]
ME = IDENTITY["email"]


@pytest.fixture(scope="module")
def server():
    with AppServer("mocked_apps.drive") as srv:
        yield srv


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


def _names_in(page: httpx.Response) -> str:
    return re.sub(r"\s+", " ", page.text)


# ---- the default seed ------------------------------------------------------------------
def test_default_seed_is_a_lived_in_drive(drive):
    state = drive.state()
    assert "drive_user" not in state  # the signed-in user is the kit's identity
    assert IDENTITY["name"] in drive.http.get("/").text
    assert len(state["file"]) >= 20 and len(state["folder"]) >= 5 and state["invoice"]
    invoices_folder = drive.folder("Invoices")
    assert drive.path(invoices_folder["id"]) == ["Finance", "Invoices"]
    for inv, file in drive.invoices():
        assert file["name"] == f"{inv['number']}.pdf" and file["kind"] == "invoice" and file["folder_id"] == invoices_folder["id"]
        assert 40 <= file["size_kb"] < 440 and file["owner_email"] == ME and inv["bill_to"] == IDENTITY["company"]
        lines = [ln for ln in state["invoice_line"] if ln["invoice_id"] == inv["id"]]
        assert round(sum(ln["quantity"] * ln["unit_price"] for ln in lines), 2) == inv["amount"], inv["number"]
    assert {i["status"] for i in state["invoice"]} >= {"paid", "unpaid"}
    for file in state["file"]:
        if file["kind"] == "table":
            columns, rows = grid(file)
            assert columns and all(len(r) == len(columns) for r in rows), file["name"]
    live = [f["name"] for f in state["file"] if not f["trashed"]]
    assert len(live) == len(set(live))  # a name finds one file
    # a lived-in drive: shared both ways, some stars, something in the trash, a file at the top
    shares = state["share"]
    domain = ME.split("@")[1]
    for file in drive.files():
        if file["owner_email"] != ME:  # a colleague's file is in my drive because it is shared with me
            assert any(s["file_id"] == file["id"] and s["email"] == ME for s in shares), file["name"]
    mine = {f["id"] for f in state["file"] if f["owner_email"] == ME}
    assert any(s["file_id"] in mine for s in shares)
    assert all(s["email"] != ME and s["email"].endswith("@" + domain) for s in shares if s["file_id"] in mine)
    assert any(f["starred"] for f in state["file"]) and any(f["trashed"] for f in state["file"])
    assert any(f["folder_id"] is None for f in drive.files())
    todo = drive.file("To-do this week")["content"]
    for inv in state["invoice"]:  # the to-do names every open invoice, none paid
        assert (inv["number"] in todo) == (inv["status"] == "unpaid"), inv["number"]


def _world():
    """A small world by hand: Kim of Acme, one colleague, a vendor with an overdue invoice, one document each."""
    from datetime import date, datetime

    from contracts.world import Document, Invoice, LineItem, Organisation, Person, Persona, Scenario, World

    persona = Persona(id="p", name="Kim Lee", email="kim@acme.example", role="founder", company="Acme", domain="acme.example")
    now = datetime(2026, 5, 4, 9, 0)
    return World(
        id="acme", seed=3, persona=persona, scenario=Scenario(id="s", title="Close", description="", clock=now), user="u",
        organisations=(Organisation(id="o1", name="Acme", kind="self", domain="acme.example"),
                       Organisation(id="o2", name="Desk Depot", kind="vendor", domain="desk.example", category="furniture")),
        people=(Person(id="u", name="Kim Lee", email="kim@acme.example", org="o1", role="founder"),
                Person(id="c", name="Ola Berg", email="ola@acme.example", org="o1", role="designer"),
                Person(id="v", name="Rui Sousa", email="rui@desk.example", org="o2", role="sales")),
        invoices=(Invoice(id="i1", number="DD-7", vendor="o2", contact="v", issued=date(2026, 4, 1), due=date(2026, 4, 20),
                          description="Desks", items=(LineItem(description="Desk", quantity=2, unit_price=150.0),), amount=300.0),),
        documents=(Document(id="d1", name="Plan", kind="doc", folder="Projects", owner="u", text="Ship it.", modified=now),
                   Document(id="d2", name="Moodboard", kind="doc", folder="Projects/Design", owner="c", text="Blue.", modified=now)),
    )


def test_projection_of_any_world_uses_its_people_money_and_dates():
    world = _world()
    rows = project(world)
    names = {f["name"]: f for f in rows["file"]}
    assert [f["name"] for f in rows["file"][:3]] == ["Plan", "Moodboard", "DD-7.pdf"]  # the world's files first, its ids
    assert names["Moodboard"]["owner_email"] == "ola@acme.example"
    assert {(s["file_id"], s["email"]) for s in rows["share"]} >= {(names["Moodboard"]["id"], "kim@acme.example")}
    people = {p.email for p in world.people}
    assert {s["email"] for s in rows["share"]} <= people and {f["owner_email"] for f in rows["file"]} <= people
    assert "- Pay DD-7 (Desk Depot, 300.00 USD) by April 20, 2026 - overdue" in names["To-do this week"]["content"]
    assert grid(names["Vendor contacts"])[1] == [["Desk Depot", "Rui Sousa", "rui@desk.example", "furniture"]]
    assert [r[0] for r in grid(names["Team directory"])[1]] == ["Kim Lee", "Ola Berg"]
    assert names["Plan (old copy)"]["trashed"] and names["Plan (old copy)"]["content"] == "Ship it."
    assert project(world) == rows and project(world.model_copy(update={"id": "other"})) != rows  # seeded by the world's id


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
    (invoice, invoice_file), table = drive.invoices()[0], drive.table_with("Amount")
    doc = drive.files("doc")[0]
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
    for path in [f"/file/{invoice_file['id']}", f"/file/{table['id']}/edit", f"/folder/{drive.folder('Invoices')['id']}/move",
                 f"/file/{invoice_file['id']}/share", f"/search?q={doc['name'].split()[0]}&kind=doc"]:
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
    assert table["folder_id"] is None and grid(table) == (["Date", "Km"], [["", ""], ["", ""]])
    assert "Tax checklist" in drive.get(f"/folder/{folder['id']}").text and "Mileage" in drive.get("/").text
    # times move on with every change, so creation order shows in the dump
    assert doc["created_at"] > folder["created_at"] and table["created_at"] > doc["created_at"]


def test_edit_document_text(drive):
    doc = drive.files("doc", owner_email=ME)[0]
    assert 'id="content"' in drive.get(f"/file/{doc['id']}/edit").text
    drive.post(f"/file/{doc['id']}/content", content="Logo: navy on fog.\r\nNo shadows.")
    after = drive.file(doc["name"])
    assert after["content"] == "Logo: navy on fog.\nNo shadows."
    assert after["modified_at"] == "2026-03-02 09:00:00.000000" and after["modified_at"] != doc["modified_at"]
    assert "Logo: navy on fog." in drive.get(f"/file/{doc['id']}").text


def test_edit_table_cells_rows_and_columns(drive):
    table = drive.table_with("Amount")
    columns, rows = grid(table)
    amount = columns.index("Amount")
    width = len(columns)
    edit = drive.get(f"/file/{table['id']}/edit").text
    assert f'<label for="cell-2-{amount + 1}" class="sr">Row 2, Amount</label>' in edit
    cells = [v for r in rows for v in r]
    cells[1 * width + amount] = "2750.00"  # Row 2, Amount
    drive.post(f"/file/{table['id']}/table", column=columns, cell=cells, op="save")
    columns2, rows2 = grid(drive.file(table["name"]))
    assert rows2[1] == rows[1][:amount] + ["2750.00"] + rows[1][amount + 1:] and len(rows2) == len(rows)
    total = sum(float(r[amount]) for r in rows2)
    assert f"{total:,.2f}" in drive.get(f"/file/{table['id']}").text  # the column total follows the edit
    drive.post(f"/file/{table['id']}/table", column=columns2, cell=[v for r in rows2 for v in r], op="add_row")
    drive.post(f"/file/{table['id']}/table", column=columns2, cell=[v for r in rows2 for v in r] + [""] * width,
               op="add_column", new_column="Spent")
    columns3, rows3 = grid(drive.file(table["name"]))
    assert columns3 == columns + ["Spent"] and len(rows3) == len(rows) + 1 and rows3[-1] == [""] * (width + 1)
    drive.post(f"/file/{table['id']}/table", column=columns3, cell=[v for r in rows3 for v in r], op="delete_row:1")
    drive.post(f"/file/{table['id']}/table", column=columns3, cell=[v for r in rows3[1:] for v in r], op=f"delete_column:{width + 1}")
    columns4, rows4 = grid(drive.file(table["name"]))
    assert columns4 == columns and rows4[0] == rows2[1] and len(rows4) == len(rows)


# ---- organising ------------------------------------------------------------------------
def _other_top_folder(drive: Drive) -> dict:
    """A top-level folder other than Finance (where the invoices live)."""
    return next(f for f in drive.top_folders() if f["name"] != "Finance")


def test_rename_and_move_files_and_folders(drive):
    brief = next(f for f in drive.files("doc", owner_email=ME) if f["folder_id"] is not None)
    drive.post(f"/file/{brief['id']}/rename", name="Brief (final)")
    assert drive.file("Brief (final)")["id"] == brief["id"]
    assert "empty" in drive.refuse(f"/file/{brief['id']}/rename", name="   ")  # names can't be empty
    assert drive.file("Brief (final)")["id"] == brief["id"]
    other, invoices, finance = _other_top_folder(drive), drive.folder("Invoices"), drive.folder("Finance")
    assert other["name"] in drive.get(f"/file/{brief['id']}/move").text
    drive.post(f"/file/{brief['id']}/move", folder=str(other["id"]))
    assert drive.file("Brief (final)")["folder_id"] == other["id"]
    drive.post(f"/file/{brief['id']}/move", folder="")
    assert drive.file("Brief (final)")["folder_id"] is None
    drive.post(f"/folder/{invoices['id']}/rename", name="Vendor invoices")
    drive.post(f"/folder/{invoices['id']}/move", folder=str(other["id"]))
    assert drive.folder("Vendor invoices")["parent_id"] == other["id"]
    drive.refuse(f"/folder/{finance['id']}/move", folder=str(finance["id"]))  # into itself
    drive.refuse(f"/folder/{other['id']}/move", folder=str(invoices["id"]))  # into its own child
    assert drive.folder("Finance")["parent_id"] is None and drive.folder(other["name"])["parent_id"] is None
    number = drive.invoices()[0][0]["number"]
    assert f"My Drive / {other['name']} / Vendor invoices" in drive.get(f"/search?q={number}").text


def test_share_change_role_and_unshare(drive):
    theirs = next(f for f in drive.files() if f["owner_email"] != ME)  # a colleague's document, shared with me
    shares = lambda: {(s["email"], s["role"]) for s in drive.state()["share"] if s["file_id"] == theirs["id"]}  # noqa: E731
    start = shares()
    guest = drive.invoices()[0][0]["vendor_email"]  # someone outside the company
    drive.post(f"/file/{theirs['id']}/share", email=guest.upper(), role="viewer")
    assert shares() == start | {(guest, "viewer")}
    drive.post(f"/file/{theirs['id']}/share", email=guest, role="editor")
    assert shares() == start | {(guest, "editor")}
    for bad in [dict(email="not-an-email", role="viewer"), dict(email="x@y.example", role="owner"),
                dict(email=theirs["owner_email"], role="editor")]:
        drive.refuse(f"/file/{theirs['id']}/share", **bad)
    assert shares() == start | {(guest, "editor")}
    page = drive.get(f"/file/{theirs['id']}/share").text
    assert f'aria-label="Remove {guest}"' in page
    (row,) = [s for s in drive.state()["share"] if s["email"] == guest]
    drive.post(f"/file/{theirs['id']}/share/{row['id']}/remove")
    assert shares() == start


def test_trash_restore_and_delete_forever(drive):
    (inv, file), (other_inv, other_file) = drive.invoices()[:2]
    name = file["name"]
    drive.post(f"/file/{file['id']}/trash")
    assert drive.file(name)["trashed"] is True
    assert name not in drive.get(f"/folder/{file['folder_id']}").text
    assert name not in drive.get(f"/search?q={inv['vendor']}").text
    assert name in drive.get("/trash").text
    drive.post(f"/file/{file['id']}/restore")
    assert drive.file(name)["trashed"] is False and name in drive.get(f"/search?q={inv['number']}").text
    # a trashed folder hides everything under it; restoring a file from it puts the file in My Drive
    finance = drive.folder("Finance")
    in_finance = drive.files(folder_id=finance["id"])[0]["name"]
    drive.post(f"/folder/{finance['id']}/trash")
    assert other_file["name"] not in drive.get(f"/search?q={other_inv['number']}").text and in_finance not in drive.get("/recent").text
    drive.post(f"/file/{file['id']}/trash")
    drive.post(f"/file/{file['id']}/restore")
    assert drive.file(name)["folder_id"] is None
    drive.post(f"/folder/{finance['id']}/restore")
    assert other_file["name"] in drive.get(f"/search?q={other_inv['number']}").text
    # delete forever needs the trash first, then removes the file, its invoice, lines and shares
    drive.post(f"/file/{file['id']}/delete")
    assert drive.file(name)
    drive.post(f"/file/{file['id']}/share", email=ME.replace(ME.split("@")[0], "someone"), role="viewer")
    drive.post(f"/file/{file['id']}/trash")
    drive.post(f"/file/{file['id']}/delete")
    state = drive.state()
    assert file["id"] not in {f["id"] for f in state["file"]} | {s["file_id"] for s in state["share"]}
    assert inv["number"] not in {i["number"] for i in state["invoice"]}
    assert inv["id"] not in {ln["invoice_id"] for ln in state["invoice_line"]}
    drive.post("/trash/empty")
    assert not any(f["trashed"] for f in drive.state()["file"])


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{5,}", text.lower()))


def test_search_by_name_and_by_content(drive):
    by_name = drive.get("/search?q=expense").text
    assert "Expense report" in by_name and "Expenses" in by_name  # a file and a folder
    assert "Expenses" in {f["name"] for f in drive.state()["folder"]}
    docs = drive.files("doc")
    names = " ".join(f["name"] for f in drive.files()) + " " + " ".join(f["name"] for f in drive.state()["folder"])
    # a word only inside one document's text: the search finds that document by its content alone
    doc, word = next((d, w) for d in docs for w in sorted(_words(d["content"]) - _words(names))
                     if sum(w in _words(f["content"]) for f in drive.files()) == 1)
    by_content = drive.get(f"/search?q={word}").text
    assert doc["name"] in by_content and all(d["name"] not in by_content for d in docs if d["id"] != doc["id"])
    vendors = [i["vendor"] for i in drive.state()["invoice"]]
    vendor = next(v for v in vendors if vendors.count(v) >= 2 and not any(v in o for o in vendors if o != v))
    by_vendor = drive.get(f"/search?q={vendor.lower()}&kind=invoice").text
    for inv, file in drive.invoices():
        assert (file["name"] in by_vendor) == (inv["vendor"] == vendor), file["name"]
    assert "No files match" in drive.get("/search?q=zebra-unicorn").text
    assert "No files match" in drive.get("/search?q=columns").text  # a table's JSON keys are not its text
    table = drive.table_with("Amount")
    cell = grid(table)[1][0][1]  # the first row's second cell
    assert table["name"] in drive.get(f"/search?q={cell}").text  # but its cells are


def test_star_views_and_invoice_status(drive):
    plain = next(f for f in drive.files("doc", owner_email=ME) if not f["starred"])
    assert plain["name"] not in drive.get("/starred").text
    drive.post(f"/file/{plain['id']}/star")
    assert drive.file(plain["name"])["starred"] is True and plain["name"] in drive.get("/starred").text
    shared = drive.get("/shared").text
    assert all(f["name"] in shared for f in drive.files() if f["owner_email"] != ME)
    assert plain["name"] not in shared
    inv, file = next((i, f) for i, f in drive.invoices() if i["status"] == "unpaid")
    drive.post(f"/file/{file['id']}/invoice-status", status="paid")
    (row,) = [i for i in drive.state()["invoice"] if i["id"] == inv["id"]]
    assert row["status"] == "paid"
    recent = _names_in(drive.get("/recent"))
    assert recent.index(file["name"]) < recent.index("To-do this week")  # just modified: now first


def test_same_requests_same_dump_and_reset(server):
    dumps = []
    for _ in range(2):
        d = Drive(server)
        initial = d.state()
        colleague = next(s["email"] for s in initial["share"] if s["email"] != ME)
        d.post("/new", kind="doc", name="Notes", folder="", content="x")
        d.post("/file/2/rename", name="Renamed")
        d.post("/file/1/share", email=colleague, role="viewer")
        dumps.append(d.state())
        server.admin.reset(d.id)
        assert d.state() == initial
        d.http.close()
    assert dumps[0] == dumps[1]


def test_bulk_actions_move_and_trash_and_refuse_an_empty_selection(drive):
    inv = drive.folder("Invoices")
    (first, file1), (second, file2), (third, file3) = drive.invoices()[:3]
    ids = [file1["id"], file2["id"]]
    before = drive.state()
    assert "Select at least one file" in drive.refuse("/bulk", op="star", here=str(inv["id"]))
    assert "Choose an action" in drive.refuse("/bulk", op="rename", file=ids, here=str(inv["id"]))
    assert drive.state() == before
    other = _other_top_folder(drive)
    drive.post("/bulk", op="move", file=ids, folder=str(other["id"]), here=str(inv["id"]))
    assert {drive.file(f["name"])["folder_id"] for f in (file1, file2)} == {other["id"]}
    drive.post("/bulk", op="trash", file=ids, here=str(other["id"]))
    assert all(drive.file(f["name"])["trashed"] for f in (file1, file2))
    assert drive.file(file3["name"])["trashed"] is False
