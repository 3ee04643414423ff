"""World -> drive seed: folders, documents, tables and the invoices as structured files, and what a lived-in
drive has besides.

The world names its documents and invoices (the courses app lists the same documents by the same names and
folders, mail attaches the same invoices with the same `document_size_kb`). A real drive also holds files of the
user's own making and is shared among colleagues, so the projection adds, from the world alone and seeded by its
id: a team directory and a vendor contacts table, a to-do list of the open invoices, a trashed old copy of one
document, shares (a colleague's document is shared with the user; some of the user's with colleagues) and stars.
"""

from __future__ import annotations

import json
import random
import zlib
from datetime import datetime, time, timedelta

from contracts.world import Document, World
from mocked_apps.kit.documents import document_size_kb
from mocked_apps.kit.identity import identity_seed


class _Drive:
    """The rows being written, with the folder paths already made."""

    def __init__(self, world: World):
        self.world = world
        self.rows: dict[str, list[dict]] = {**identity_seed(world.persona),
                                            "folder": [], "file": [], "invoice": [], "invoice_line": [], "share": []}
        self.folders: dict[str, int] = {}
        self.created = world.scenario.clock.replace(day=1, hour=8, minute=0)

    def folder(self, path: str) -> int | None:
        """The id of the folder at `path` ('Finance/Invoices'), made with its parents if new; None for the top."""
        parent = None
        parts = [p for p in path.split("/") if p]
        for depth, name in enumerate(parts):
            key = "/".join(parts[: depth + 1])
            if key not in self.folders:
                self.folders[key] = len(self.rows["folder"]) + 1
                self.rows["folder"].append({"id": self.folders[key], "name": name, "parent_id": parent, "trashed": False,
                                            "created_at": self.created.isoformat(), "modified_at": self.created.isoformat()})
            parent = self.folders[key]
        return parent

    def file(self, name: str, kind: str, path: str, owner: str, content: str, modified: datetime, **extra) -> int:
        fid = len(self.rows["file"]) + 1
        self.rows["file"].append({"id": fid, "name": name, "kind": kind, "folder_id": self.folder(path), "owner_email": owner,
                                  "content": content, "size_kb": document_size_kb(name) if kind in ("invoice", "pdf") else 0,
                                  "starred": False, "trashed": False,
                                  "created_at": modified.isoformat(), "modified_at": modified.isoformat(), **extra})
        return fid

    def share(self, file_id: int, email: str, role: str) -> None:
        self.rows["share"].append({"id": len(self.rows["share"]) + 1, "file_id": file_id, "email": email, "role": role})


def _table(rows: list[list[str]] | tuple[tuple[str, ...], ...]) -> str:
    return json.dumps({"columns": list(rows[0]), "rows": [list(r) for r in rows[1:]]})


def _document_content(doc: Document) -> str:
    return _table(doc.rows) if doc.kind == "table" else doc.text


def _money(world: World, amount: float) -> str:
    return f"{amount:,.2f} {world.persona.currency}"


def _day(world: World, when) -> str:
    return when.strftime(world.persona.date_format)


def _world_files(drive: _Drive) -> dict[str, int]:
    """The world's documents and invoices, in the world's order (their ids are the same in every projection); name -> id."""
    world, ids = drive.world, {}
    people = {p.id: p for p in world.people}
    for doc in world.documents:
        ids[doc.name] = drive.file(doc.name, doc.kind, doc.folder, people[doc.owner].email, _document_content(doc), doc.modified)
    for inv in world.invoices:
        fid = drive.file(inv.filename, "invoice", "Finance/Invoices", world.persona.email, "", datetime.combine(inv.issued, time(9, 0)))
        ids[inv.filename] = fid
        iid = len(drive.rows["invoice"]) + 1
        drive.rows["invoice"].append({
            "id": iid, "file_id": fid, "number": inv.number, "vendor": world.org(inv.vendor).name,
            "vendor_email": people[inv.contact].email, "bill_to": world.persona.company, "amount": inv.amount,
            "currency": world.persona.currency, "issue_date": inv.issued.isoformat(), "due_date": inv.due.isoformat(),
            "status": "paid" if inv.paid else "unpaid", "description": inv.description,
        })
        for item in inv.items:
            drive.rows["invoice_line"].append({"id": len(drive.rows["invoice_line"]) + 1, "invoice_id": iid, "description": item.description,
                                               "quantity": float(item.quantity), "unit_price": item.unit_price})
    return ids


def _own_files(drive: _Drive, rng: random.Random) -> dict[str, int]:
    """The files the user keeps besides the world's: directory, vendor contacts, to-do, a trashed old copy; name -> id."""
    world, ids = drive.world, {}
    me = world.person(world.user)
    clock = world.scenario.clock
    team = [p for p in world.people if p.org == me.org]
    ids["Team directory"] = drive.file("Team directory", "table", "Team", me.email,
                                       _table([["Name", "Role", "Email"]] + [[p.name, p.role, p.email] for p in team]),
                                       clock - timedelta(days=rng.randint(8, 20), hours=rng.randint(1, 6)))
    vendors = {o.id: o for o in world.organisations if o.kind == "vendor"}
    contacts = [[vendors[p.org].name, p.name, p.email, vendors[p.org].category] for p in world.people if p.org in vendors]
    if contacts:
        ids["Vendor contacts"] = drive.file("Vendor contacts", "table", "Finance", me.email,
                                            _table([["Vendor", "Contact", "Email", "Category"]] + sorted(contacts)),
                                            clock - timedelta(days=rng.randint(5, 15), hours=rng.randint(1, 6)))
    open_invoices = sorted((i for i in world.invoices if not i.paid), key=lambda i: (i.due, i.number))
    todo = [f"To-do (week of {_day(world, clock)})", ""]
    todo += [f"- Pay {i.number} ({world.org(i.vendor).name}, {_money(world, i.amount)}) by {_day(world, i.due)}"
             + (" - overdue" if i.due < clock.date() else "") for i in open_invoices]
    todo += [f"- {m.title} on {_day(world, m.start)}" for m in sorted(world.meetings, key=lambda m: m.start) if m.start >= clock][:3]
    ids["To-do this week"] = drive.file("To-do this week", "doc", "", me.email, "\n".join(todo + ["- File last month's receipts"]),
                                        clock - timedelta(hours=rng.randint(14, 40)))
    mine = [d for d in world.documents if d.owner == world.user and d.kind == "doc"]
    if mine:
        old = rng.choice(mine)
        drive.file(f"{old.name} (old copy)", old.kind, old.folder, me.email, _document_content(old),
                   old.modified - timedelta(days=rng.randint(3, 20)), trashed=True)
    return ids


def _share_and_star(drive: _Drive, rng: random.Random) -> None:
    """A colleague's file is shared with the user; about half the user's documents with one or two colleagues; a few stars."""
    world = drive.world
    me = world.person(world.user)
    colleagues = [p for p in world.people if p.org == me.org and p.id != me.id]
    files = [f for f in drive.rows["file"] if not f["trashed"]]
    for f in files:
        if f["owner_email"] != me.email:
            drive.share(f["id"], me.email, rng.choice(("viewer", "editor")))
        elif colleagues and f["kind"] != "invoice" and rng.random() < 0.5:
            for person in rng.sample(colleagues, min(len(colleagues), rng.randint(1, 2))):
                drive.share(f["id"], person.email, rng.choice(("viewer", "editor")))
    for f in rng.sample(files, min(len(files), 3)):
        f["starred"] = True


def project(world: World) -> dict[str, list[dict]]:
    drive = _Drive(world)
    rng = random.Random(zlib.crc32(f"drive:{world.id}".encode()))
    _world_files(drive)
    _own_files(drive, rng)
    _share_and_star(drive, rng)
    return drive.rows
