"""Organising the drive: rename, move, share, trash, restore and delete forever (files and folders)."""

from __future__ import annotations

from fastapi import APIRouter, Form
from sqlmodel import delete, select

from mocked_apps.kit import Gym, GymDep

from .models import ROLES, File, Folder, Invoice, InvoiceLine, Share
from .tree import Item, chain, clean_name, descendants, folders_of, hidden, item_row, location, nav, touch

router = APIRouter()


def _back(item: Item, row: File | Folder) -> str:
    """The page of a file or folder."""
    return f"/{item}/{row.id}"


# ---- rename and move -------------------------------------------------------------------
@router.get("/{item}/{item_id}/rename")
def rename_page(gym: GymDep, item: Item, item_id: int):
    return _rename_form(gym, item, item_row(gym, item, item_id))


def _rename_form(gym: Gym, item: Item, row: File | Folder, errors: dict[str, str] | None = None):
    """The rename form; with `errors` it is shown again (422, nothing renamed)."""
    folders = folders_of(gym)
    parent = row.folder_id if isinstance(row, File) else row.parent_id
    response = gym.render("rename.html", item=item, row=row, crumbs=chain(folders, parent), errors=errors or {},
                          **nav(gym, folders))
    response.status_code = 422 if errors else 200
    return response


@router.post("/{item}/{item_id}/rename")
def rename(gym: GymDep, item: Item, item_id: int, name: str = Form("")):
    row = item_row(gym, item, item_id)
    name = clean_name(name)
    if not name:
        return _rename_form(gym, item, row, {"name": "A name can't be empty."})
    old, row.name = row.name, name
    touch(gym, row)
    return gym.done(_back(item, row), notice=f"Renamed “{old}” to “{name}”")


def _targets(folders: dict[int, Folder], item: Item, row: File | Folder) -> list[tuple[str, str]]:
    """(value, label) of every folder `row` may move into; '' is the top of My Drive."""
    banned = descendants(folders, row.id) if item == "folder" else set()
    options = [(str(f.id), location(folders, f.id)) for f in folders.values() if f.id not in banned and not hidden(folders, f.id)]
    return [("", "My Drive")] + sorted(options, key=lambda o: o[1].lower())


@router.get("/{item}/{item_id}/move")
def move_page(gym: GymDep, item: Item, item_id: int):
    return _move_form(gym, item, item_row(gym, item, item_id))


def _move_form(gym: Gym, item: Item, row: File | Folder, errors: dict[str, str] | None = None):
    """The move form; with `errors` it is shown again (422, nothing moved)."""
    folders = folders_of(gym)
    parent = row.folder_id if isinstance(row, File) else row.parent_id
    response = gym.render(
        "move.html", item=item, row=row, parent=parent, crumbs=chain(folders, parent), errors=errors or {},
        here=location(folders, parent), targets=_targets(folders, item, row), **nav(gym, folders),
    )
    response.status_code = 422 if errors else 200
    return response


@router.post("/{item}/{item_id}/move")
def move(gym: GymDep, item: Item, item_id: int, folder: str = Form("")):
    row = item_row(gym, item, item_id)
    folders = folders_of(gym)
    allowed = {value for value, _ in _targets(folders, item, row)}
    if folder not in allowed:
        return _move_form(gym, item, row, {"folder": "You can't move it there: choose another folder."})
    target = int(folder) if folder else None
    if isinstance(row, File):
        row.folder_id = target
    else:
        row.parent_id = target
    touch(gym, row)
    return gym.done(_back(item, row), notice=f"Moved “{row.name}” to {location(folders, target)}")


# ---- trash -----------------------------------------------------------------------------
@router.post("/{item}/{item_id}/trash")
def to_trash(gym: GymDep, item: Item, item_id: int):
    row = item_row(gym, item, item_id)
    row.trashed = True
    gym.db.add(row)
    gym.advance()
    parent = row.folder_id if isinstance(row, File) else row.parent_id
    return gym.done(f"/folder/{parent}" if parent else "/", notice=f"“{row.name}” moved to the trash")


@router.post("/{item}/{item_id}/restore")
def restore(gym: GymDep, item: Item, item_id: int):
    row = item_row(gym, item, item_id)
    folders = folders_of(gym)
    row.trashed = False
    parent = row.folder_id if isinstance(row, File) else row.parent_id
    notice = f"“{row.name}” restored"
    if hidden(folders, parent):
        if isinstance(row, File):
            row.folder_id = None
        else:
            row.parent_id = None
        notice += " to My Drive"
    gym.db.add(row)
    gym.advance()
    return gym.done("/trash", notice=notice)


def _purge_files(gym: Gym, file_ids: list[int]) -> None:
    """Delete files for good, with their invoices, invoice lines and shares."""
    if not file_ids:
        return
    invoice_ids = gym.db.exec(select(Invoice.id).where(Invoice.file_id.in_(file_ids))).all()
    if invoice_ids:
        gym.db.exec(delete(InvoiceLine).where(InvoiceLine.invoice_id.in_(invoice_ids)))
        gym.db.exec(delete(Invoice).where(Invoice.id.in_(invoice_ids)))
    gym.db.exec(delete(Share).where(Share.file_id.in_(file_ids)))
    gym.db.exec(delete(File).where(File.id.in_(file_ids)))


def _purge_folder(gym: Gym, folders: dict[int, Folder], folder_id: int) -> None:
    """Delete a folder for good with everything below it, deepest folders first."""
    gone = descendants(folders, folder_id)
    _purge_files(gym, list(gym.db.exec(select(File.id).where(File.folder_id.in_(gone))).all()))
    for fid in sorted(gone, key=lambda f: -len(chain(folders, f))):
        gym.db.exec(delete(Folder).where(Folder.id == fid))


@router.post("/{item}/{item_id}/delete")
def delete_forever(gym: GymDep, item: Item, item_id: int):
    row = item_row(gym, item, item_id)
    if not row.trashed:
        return gym.done(_back(item, row), notice="Move it to the trash first")
    name = row.name
    if item == "file":
        _purge_files(gym, [row.id])
    else:
        _purge_folder(gym, folders_of(gym), row.id)
    gym.advance()
    return gym.done("/trash", notice=f"“{name}” deleted forever")


@router.post("/trash/empty")
def empty_trash(gym: GymDep):
    folders = folders_of(gym)
    _purge_files(gym, list(gym.db.exec(select(File.id).where(File.trashed == True)).all()))  # noqa: E712
    for folder in [f for f in folders.values() if f.trashed]:
        if gym.db.get(Folder, folder.id) is not None:
            _purge_folder(gym, folders_of(gym), folder.id)
    gym.advance()
    return gym.done("/trash", notice="Trash emptied")


# ---- sharing ---------------------------------------------------------------------------
@router.get("/file/{file_id}/share")
def share_page(gym: GymDep, file_id: int):
    return _share_form(gym, gym.get(File, file_id))


def _share_form(gym: Gym, file: File, values: dict | None = None, errors: dict[str, str] | None = None):
    """The share form and who has access; with `errors` it is shown again (422, nothing shared)."""
    folders = folders_of(gym)
    shares = gym.db.exec(select(Share).where(Share.file_id == file.id).order_by(Share.id)).all()
    response = gym.render(
        "share.html", file=file, shares=shares, roles=ROLES, crumbs=chain(folders, file.folder_id),
        values=values or {}, errors=errors or {}, **nav(gym, folders),
    )
    response.status_code = 422 if errors else 200
    return response


@router.post("/file/{file_id}/share")
def share(gym: GymDep, file_id: int, email: str = Form(""), role: str = Form("viewer")):
    file = gym.get(File, file_id)
    email = email.strip().lower()
    back = f"/file/{file.id}/share"
    problem = _share_problem(file, email, role)
    if problem:
        return _share_form(gym, file, {"email": email, "role": role}, problem)
    existing = gym.db.exec(select(Share).where(Share.file_id == file.id, Share.email == email)).first()
    if existing:
        existing.role = role
        gym.db.add(existing)
        notice = f"{email} is now {role}"
    else:
        gym.db.add(Share(file_id=file.id, email=email, role=role))
        notice = f"Shared with {email} as {role}"
    gym.advance()
    return gym.done(back, notice=notice)


def _share_problem(file: File, email: str, role: str) -> dict[str, str]:
    if "@" not in email.strip("@") or " " in email:
        return {"email": f"“{email}” is not an email address."}
    if role not in ROLES:
        return {"role": f"Unknown role “{role}”."}
    if email == file.owner_email.lower():
        return {"email": f"{email} owns this file."}
    return {}


@router.post("/file/{file_id}/share/{share_id}/remove")
def unshare(gym: GymDep, file_id: int, share_id: int):
    row = gym.get(Share, share_id)
    if row.file_id != file_id:
        return gym.done(f"/file/{file_id}/share", notice="That person isn't on this file")
    gym.db.delete(row)
    gym.advance()
    return gym.done(f"/file/{file_id}/share", notice=f"Removed {row.email}")
