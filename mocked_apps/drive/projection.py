"""World -> drive seed: folders, documents, tables and the invoices as structured files."""

from __future__ import annotations

import json
from datetime import datetime, time

from contracts.world import World
from mocked_apps.kit.documents import document_size_kb
from mocked_apps.kit.identity import identity_seed


def project(world: World) -> dict[str, list[dict]]:
    user = world.person(world.user)
    people = {p.id: p for p in world.people}
    orgs = {o.id: o for o in world.organisations}
    rows: dict[str, list[dict]] = {
        **identity_seed(world.persona),
        "folder": [], "file": [], "invoice": [], "invoice_line": [], "share": [],
    }
    folders: dict[str, int] = {}
    created = world.scenario.clock.replace(day=1, hour=8, minute=0)

    def folder(path: str) -> int:
        parent = None
        for depth, name in enumerate(path.split("/")):
            key = "/".join(path.split("/")[: depth + 1])
            if key not in folders:
                folders[key] = len(rows["folder"]) + 1
                rows["folder"].append({"id": folders[key], "name": name, "parent_id": parent, "trashed": False,
                                       "created_at": created.isoformat(), "modified_at": created.isoformat()})
            parent = folders[key]
        return parent

    def file(name: str, kind: str, path: str, owner: str, content: str, modified: datetime) -> int:
        fid = len(rows["file"]) + 1
        rows["file"].append({"id": fid, "name": name, "kind": kind, "folder_id": folder(path), "owner_email": owner,
                             "content": content, "size_kb": document_size_kb(name) if kind in ("invoice", "pdf") else 0,
                             "starred": False, "trashed": False,
                             "created_at": modified.isoformat(), "modified_at": modified.isoformat()})
        return fid

    for d in world.documents:
        owner = people[d.owner].email
        if d.kind == "table":
            content = json.dumps({"columns": list(d.rows[0]), "rows": [list(r) for r in d.rows[1:]]})
        else:
            content = d.text
        fid = file(d.name, d.kind, d.folder, owner, content, d.modified)
        if d.owner == user.id:
            for p in world.people:
                if p.org == people[d.owner].org and p.id != user.id and d.folder.startswith("Clients"):
                    rows["share"].append({"id": len(rows["share"]) + 1, "file_id": fid, "email": p.email, "role": "editor"})
    for inv in world.invoices:
        vendor = orgs[inv.vendor]
        issued = datetime.combine(inv.issued, time(9, 0))
        fid = file(inv.filename, "invoice", "Finance/Invoices", user.email, "", issued)
        iid = len(rows["invoice"]) + 1
        rows["invoice"].append({
            "id": iid, "file_id": fid, "number": inv.number, "vendor": vendor.name, "vendor_email": people[inv.contact].email,
            "bill_to": world.persona.company, "amount": inv.amount, "currency": world.persona.currency, "issue_date": inv.issued.isoformat(),
            "due_date": inv.due.isoformat(), "status": "paid" if inv.paid else "unpaid", "description": inv.description,
        })
        for item in inv.items:
            rows["invoice_line"].append({"id": len(rows["invoice_line"]) + 1, "invoice_id": iid, "description": item.description,
                                         "quantity": float(item.quantity), "unit_price": item.unit_price})
    return rows
