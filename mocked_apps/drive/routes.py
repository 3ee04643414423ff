"""The drive's pages (GET) and its state changes (POST, each ending in a redirect)."""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter, Form, HTTPException
from sqlmodel import col, select

from mocked_apps.kit import Gym, GymDep
from mocked_apps.kit.documents import invoice_text
from mocked_apps.kit.pdf import data_url

from . import bulk, organise
from .models import INVOICE_STATUSES, KINDS, File, Folder, Invoice, InvoiceLine, Share
from .tree import (
    chain, clean_name, folders_of, grid, grid_json, hidden, location, me, nav,
    searchable_text, size_label, totals, touch, visible_files,
)

router = APIRouter()
router.include_router(organise.router)
_NEW_KINDS = ("folder", "doc", "table")


def _listing(gym: Gym, files: list[File], folders: dict[int, Folder], **values):
    """A flat list of files with their locations (Recent, Starred, Shared with me, Search)."""
    return gym.render("listing.html", files=files, location=lambda fid: location(folders, fid), size=size_label, **values)


# ---- browsing --------------------------------------------------------------------------
@router.get("/")
def my_drive(gym: GymDep, view: str = "list"):
    return _folder_page(gym, None, view)


@router.get("/folder/{folder_id}")
def folder_page(gym: GymDep, folder_id: int, view: str = "list"):
    return _folder_page(gym, gym.get(Folder, folder_id).id, view)


def _folder_page(gym: Gym, folder_id: int | None, view: str = "list", errors: dict[str, str] | None = None):
    """A folder as a list or a grid of cards (`view`), with checkboxes for bulk actions; 422 with `errors`."""
    folders = folders_of(gym)
    current = folders.get(folder_id) if folder_id is not None else None
    subfolders = sorted(
        (f for f in folders.values() if f.parent_id == folder_id and not f.trashed), key=lambda f: f.name.lower()
    )
    files = gym.db.exec(
        select(File).where(File.folder_id == folder_id, File.trashed == False)  # noqa: E712
    ).all()
    files = sorted(files, key=lambda f: f.name.lower())
    response = gym.render(
        "folder.html",
        folder=current,
        crumbs=chain(folders, folder_id),
        in_trash=hidden(folders, folder_id),
        subfolders=subfolders,
        files=files,
        view="grid" if view == "grid" else "list",
        size=size_label,
        errors=errors or {},
        move_targets=bulk.targets(folders),
        **nav(gym, folders),
    )
    response.status_code = 422 if errors else 200
    return response


@router.post("/bulk")
def bulk_action(gym: GymDep, op: str = Form(""), file: list[int] = Form([]), folder: str = Form(""),
                here: str = Form(""), view: str = Form("list")):
    """Star, unstar, move or trash the checked files of a folder page, all at once."""
    here_id = int(here) if here.strip().isdigit() else None
    try:
        notice = bulk.apply(gym, op, [gym.get(File, i) for i in dict.fromkeys(file)], folder)
    except bulk.BulkError as err:
        gym.db.rollback()
        return _folder_page(gym, here_id, view, {err.field: str(err)})
    return gym.done(f"/folder/{here_id}" if here_id else "/", notice=notice, view=view if view == "grid" else None)


@router.get("/file/{file_id}")
def file_page(gym: GymDep, file_id: int):
    file = gym.get(File, file_id)
    folders = folders_of(gym)
    values: dict = {}
    if file.kind == "table":
        columns, rows = grid(file.content)
        values = {"columns": columns, "rows": rows, "totals": totals(columns, rows)}
    invoice = gym.db.exec(select(Invoice).where(Invoice.file_id == file.id)).first()
    lines = []
    if invoice:
        lines = gym.db.exec(select(InvoiceLine).where(InvoiceLine.invoice_id == invoice.id).order_by(InvoiceLine.id)).all()
    shares = gym.db.exec(select(Share).where(Share.file_id == file.id).order_by(Share.id)).all()
    return gym.render(
        "file.html",
        file=file,
        crumbs=chain(folders, file.folder_id),
        in_trash=file.trashed or hidden(folders, file.folder_id),
        invoice=invoice,
        lines=lines,
        statuses=INVOICE_STATUSES,
        shares=shares,
        size=size_label(file),
        download=_download(gym, file),
        **values,
        **nav(gym, folders),
    )


def _invoice_of(gym: Gym, file: File) -> tuple[Invoice | None, list[InvoiceLine]]:
    invoice = gym.db.exec(select(Invoice).where(Invoice.file_id == file.id)).first()
    if invoice is None:
        return None, []
    return invoice, list(gym.db.exec(select(InvoiceLine).where(InvoiceLine.invoice_id == invoice.id).order_by(InvoiceLine.id)).all())


def _printed(gym: Gym, file: File) -> str:
    """A file's text as its preview and download show it (an invoice printed from its fields)."""
    invoice, lines = _invoice_of(gym, file)
    if invoice is None:
        return file.content
    return invoice_text(invoice.number, invoice.vendor, invoice.bill_to, invoice.issue_date.isoformat(),
                        invoice.due_date.isoformat(), [(ln.description, ln.quantity, ln.unit_price) for ln in lines],
                        invoice.amount, invoice.currency)


@router.get("/file/{file_id}/preview")
def preview(gym: GymDep, file_id: int):
    """A quick look at a file from a list: its contents read-only, with Open, Download and Close."""
    file = gym.get(File, file_id)
    folders = folders_of(gym)
    columns, rows = grid(file.content) if file.kind == "table" else ([], [])
    return gym.render(
        "preview.html", file=file, text=_printed(gym, file) if file.kind != "table" else "", columns=columns, rows=rows,
        size=size_label(file), back=f"/folder/{file.folder_id}" if file.folder_id else "/", download=_download(gym, file),
        location=location(folders, file.folder_id), **nav(gym, folders),
    )


def _download(gym: Gym, file: File) -> tuple[str, str]:
    """(file name, href) of a file's download link: a PDF for invoices and PDFs, CSV for a table, text for a document."""
    if file.kind in ("invoice", "pdf"):
        name = file.name if file.name.lower().endswith(".pdf") else f"{file.name}.pdf"
        return name, data_url(name, _printed(gym, file))
    if file.kind == "table":
        columns, rows = grid(file.content)
        out = io.StringIO()
        csv.writer(out).writerows([columns, *rows])
        return f"{file.name}.csv", data_url(f"{file.name}.csv", out.getvalue(), "text/csv")
    return f"{file.name}.txt", data_url(f"{file.name}.txt", file.content)


@router.get("/recent")
def recent(gym: GymDep):
    folders = folders_of(gym)
    files = sorted(visible_files(gym, folders), key=lambda f: (f.modified_at, f.id), reverse=True)[:25]
    return _listing(gym, files, folders, title="Recent", empty="No recent files.", **nav(gym, folders))


@router.get("/starred")
def starred(gym: GymDep):
    folders = folders_of(gym)
    files = sorted((f for f in visible_files(gym, folders) if f.starred), key=lambda f: f.name.lower())
    return _listing(gym, files, folders, title="Starred", empty="Star files to find them here.", **nav(gym, folders))


@router.get("/shared")
def shared_with_me(gym: GymDep):
    folders = folders_of(gym)
    mine = me(gym).email
    files = sorted(
        (f for f in visible_files(gym, folders) if f.owner_email != mine), key=lambda f: (f.modified_at, f.id), reverse=True
    )
    return _listing(gym, files, folders, title="Shared with me", empty="Nothing is shared with you.", **nav(gym, folders))


@router.get("/search")
def search(gym: GymDep, q: str = "", kind: str = ""):
    folders = folders_of(gym)
    needle = q.strip().lower()
    invoices = {i.file_id: i for i in gym.db.exec(select(Invoice)).all()}
    files: list[File] = []
    matched_folders: list[Folder] = []
    if needle:
        for f in visible_files(gym, folders):
            if needle in searchable_text(f, invoices.get(f.id)).lower() and (not kind or f.kind == kind):
                files.append(f)
        if not kind:
            matched_folders = [
                f for f in folders.values() if needle in f.name.lower() and not hidden(folders, f.id)
            ]
    files.sort(key=lambda f: (needle not in f.name.lower(), f.name.lower()))
    return _listing(
        gym, files, folders, title="Search", q=q, kind=kind, kinds=KINDS, matched_folders=matched_folders,
        empty="Type words to search file names and contents." if not needle else f"No files match “{q}”.",
        **nav(gym, folders),
    )


@router.get("/trash")
def trash(gym: GymDep):
    folders = folders_of(gym)
    files = gym.db.exec(select(File).where(File.trashed == True).order_by(col(File.modified_at).desc())).all()  # noqa: E712
    trashed_folders = [f for f in folders.values() if f.trashed]
    return gym.render(
        "trash.html", files=files, trashed_folders=trashed_folders,
        location=lambda fid: location(folders, fid), **nav(gym, folders),
    )


# ---- creating and editing --------------------------------------------------------------
@router.get("/new")
def new_page(gym: GymDep, kind: str = "doc", folder: int | None = None):
    return _new_form(gym, kind, folder)


def _new_form(gym: Gym, kind: str, folder_id: int | None, values: dict | None = None, errors: dict | None = None):
    """The create form; with `errors` it is shown again with what was typed (422, nothing created)."""
    folders = folders_of(gym)
    kind = kind if kind in _NEW_KINDS else "doc"
    choices = [(f.id, location(folders, f.id)) for f in folders.values() if not hidden(folders, f.id)]
    response = gym.render(
        "new.html", kind=kind, folder_id=folder_id, choices=sorted(choices, key=lambda c: c[1].lower()),
        values=values or {}, errors=errors or {}, **nav(gym, folders),
    )
    response.status_code = 422 if errors else 200
    return response


@router.post("/new")
def create(
    gym: GymDep,
    kind: str = Form(),
    name: str = Form(),
    folder: str = Form(""),
    content: str = Form(""),
    columns: str = Form(""),
    rows: str = Form("3"),
):
    name = clean_name(name)
    folder_id = int(folder) if folder.strip() else None
    if folder_id is not None:
        gym.get(Folder, folder_id)
    if kind not in _NEW_KINDS or not name:
        return _new_form(gym, kind, folder_id, {"content": content, "columns": columns, "rows": rows},
                         {"name": "Give it a name."})
    if kind == "folder":
        row = Folder(name=name, parent_id=folder_id, created_at=gym.now, modified_at=gym.now)
        gym.db.add(row)
        gym.advance()
        gym.db.flush()
        return gym.done(f"/folder/{row.id}", notice=f"Folder “{name}” created")
    if kind == "table":
        cols = [c.strip() for c in columns.split(",") if c.strip()] or ["A", "B", "C"]
        count = max(1, min(int(rows), 200)) if rows.strip().isdigit() else 3
        content = grid_json(cols, [[""] * len(cols) for _ in range(count)])
    file = File(
        name=name, kind=kind, folder_id=folder_id, owner_email=me(gym).email, content=content,
        created_at=gym.now, modified_at=gym.now,
    )
    gym.db.add(file)
    gym.advance()
    gym.db.flush()
    return gym.done(f"/file/{file.id}" if kind == "doc" else f"/file/{file.id}/edit", notice=f"“{name}” created")


@router.get("/file/{file_id}/edit")
def edit_page(gym: GymDep, file_id: int):
    file = gym.get(File, file_id)
    if file.kind not in ("doc", "table"):
        raise HTTPException(404, "Only documents and tables can be edited")
    columns, rows = grid(file.content) if file.kind == "table" else ([], [])
    folders = folders_of(gym)
    return gym.render(
        "edit.html", file=file, columns=columns, rows=rows, crumbs=chain(folders, file.folder_id), **nav(gym, folders)
    )


@router.post("/file/{file_id}/content")
def save_doc(gym: GymDep, file_id: int, content: str = Form("")):
    file = gym.get(File, file_id)
    if file.kind != "doc":
        raise HTTPException(400, "Only documents have editable text")
    file.content = content.replace("\r\n", "\n")
    touch(gym, file)
    return gym.done(f"/file/{file.id}", notice="Document saved")


@router.post("/file/{file_id}/table")
def save_table(
    gym: GymDep,
    file_id: int,
    column: list[str] = Form([]),
    cell: list[str] = Form([]),
    op: str = Form("save"),
    new_column: str = Form(""),
):
    """Save every header and cell, then apply the clicked button's `op` (add/delete a row or column).

    The buttons are not named `action`: a control of that name would shadow `form.action` in the DOM.
    """
    file = gym.get(File, file_id)
    if file.kind != "table":
        raise HTTPException(400, "Only tables have cells")
    old_cols, old_rows = grid(file.content)
    cols = [clean_name(c) or old for c, old in zip(column, old_cols)] + old_cols[len(column):] if column else old_cols
    width = len(cols)
    rows = [list(r) for r in old_rows]
    for i, value in enumerate(cell[: width * len(rows)] if width else []):
        rows[i // width][i % width] = value.strip()
    notice = "Table saved"
    verb, _, arg = op.partition(":")
    if verb == "add_row":
        rows.append([""] * width)
        notice = f"Row {len(rows)} added"
    elif verb == "add_column":
        cols.append(clean_name(new_column) or f"Column {width + 1}")
        rows = [r + [""] for r in rows]
        notice = f"Column “{cols[-1]}” added"
    elif verb == "delete_row" and arg.isdigit() and 1 <= int(arg) <= len(rows):
        rows.pop(int(arg) - 1)
        notice = f"Row {arg} deleted"
    elif verb == "delete_column" and arg.isdigit() and 1 <= int(arg) <= width and width > 1:
        gone = cols.pop(int(arg) - 1)
        rows = [r[: int(arg) - 1] + r[int(arg):] for r in rows]
        notice = f"Column “{gone}” deleted"
    file.content = grid_json(cols, rows)
    touch(gym, file)
    return gym.done(f"/file/{file.id}" if verb == "save" else f"/file/{file.id}/edit", notice=notice)


@router.post("/file/{file_id}/star")
def star(gym: GymDep, file_id: int):
    file = gym.get(File, file_id)
    file.starred = not file.starred
    gym.db.add(file)
    gym.advance()
    return gym.done(f"/file/{file.id}", notice="Added to Starred" if file.starred else "Removed from Starred")


@router.post("/file/{file_id}/invoice-status")
def invoice_status(gym: GymDep, file_id: int, status: str = Form()):
    file = gym.get(File, file_id)
    invoice = gym.db.exec(select(Invoice).where(Invoice.file_id == file.id)).first()
    if invoice is None or status not in INVOICE_STATUSES:
        raise HTTPException(400, "Not an invoice, or an unknown status")
    invoice.status = status
    gym.db.add(invoice)
    touch(gym, file)
    return gym.done(f"/file/{file.id}", notice=f"Invoice {invoice.number} marked {status}")
