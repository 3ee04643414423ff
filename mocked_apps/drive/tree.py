"""Pure helpers of the drive: the folder tree, table grids and their totals, file sizes, the signed-in user."""

from __future__ import annotations

import json
from typing import Literal

from sqlmodel import select

from mocked_apps.kit import Gym

from mocked_apps.kit.identity import Identity

from .models import File, Folder, Invoice

Item = Literal["file", "folder"]


def me(gym: Gym) -> Identity:
    """The signed-in user, from the kit's identity ('Me', with no address, if the seed signs nobody in)."""
    return gym.identity if gym.identity.name else Identity(name="Me")


def folders_of(gym: Gym) -> dict[int, Folder]:
    """Every folder by id, trashed ones included (paths and trash checks need them all)."""
    return {f.id: f for f in gym.db.exec(select(Folder).order_by(Folder.id)).all()}


def chain(folders: dict[int, Folder], folder_id: int | None) -> list[Folder]:
    """The folders from the top of My Drive down to `folder_id` (cycle-safe)."""
    out: list[Folder] = []
    while folder_id is not None and folder_id in folders and len(out) <= len(folders):
        out.insert(0, folders[folder_id])
        folder_id = folders[folder_id].parent_id
    return out


def hidden(folders: dict[int, Folder], folder_id: int | None) -> bool:
    """True when `folder_id` or one of its ancestors is in the trash."""
    return any(f.trashed for f in chain(folders, folder_id))


def location(folders: dict[int, Folder], folder_id: int | None) -> str:
    """A folder's path as people read it, e.g. 'My Drive / Finance / Invoices'."""
    return " / ".join(["My Drive"] + [f.name for f in chain(folders, folder_id)])


def visible_files(gym: Gym, folders: dict[int, Folder]) -> list[File]:
    """Files neither trashed nor inside a trashed folder."""
    files = gym.db.exec(select(File).where(File.trashed == False).order_by(File.id)).all()  # noqa: E712
    return [f for f in files if not hidden(folders, f.folder_id)]


def descendants(folders: dict[int, Folder], folder_id: int) -> set[int]:
    """`folder_id` and every folder below it."""
    out, frontier = {folder_id}, [folder_id]
    while frontier:
        parent = frontier.pop()
        for f in folders.values():
            if f.parent_id == parent and f.id not in out:
                out.add(f.id)
                frontier.append(f.id)
    return out


def grid(content: str) -> tuple[list[str], list[list[str]]]:
    """A table file's content as (columns, rows); rows padded to the column count."""
    try:
        data = json.loads(content or "{}")
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    columns = [str(c) for c in data.get("columns") or []]
    rows = [[("" if v is None else str(v)) for v in row] for row in data.get("rows") or [] if isinstance(row, list)]
    width = max([len(columns)] + [len(r) for r in rows])
    columns += [f"Column {i + 1}" for i in range(len(columns), width)]
    return columns, [r + [""] * (width - len(r)) for r in rows]


def grid_json(columns: list[str], rows: list[list[str]]) -> str:
    """The content text of a table file (the format documented on `File.content`)."""
    return json.dumps({"columns": columns, "rows": rows}, ensure_ascii=False)


def _number(value: str) -> float | None:
    text = value.strip().replace(",", "").replace("$", "")
    try:
        return float(text) if text else None
    except ValueError:
        return None


def totals(columns: list[str], rows: list[list[str]]) -> list[float | None]:
    """Sum of each column whose non-empty cells are all numbers (None for the others)."""
    out: list[float | None] = []
    for i in range(len(columns)):
        cells = [r[i] for r in rows if r[i].strip()]
        numbers = [_number(c) for c in cells]
        out.append(round(sum(numbers), 2) if cells and None not in numbers else None)
    return out


def touch(gym: Gym, row: File | Folder) -> None:
    """Mark a content/name/location change: modified_at = now, then the clock moves on."""
    row.modified_at = gym.now
    gym.db.add(row)
    gym.advance()


def item_row(gym: Gym, item: Item, item_id: int) -> File | Folder:
    """The file or folder a `/{item}/{id}/...` URL names (404 if missing)."""
    return gym.get(File if item == "file" else Folder, item_id)


def clean_name(name: str) -> str:
    """A name with runs of whitespace collapsed; empty means no name."""
    return " ".join(name.split())


def nav(gym: Gym, folders: dict[int, Folder]) -> dict:
    """What layout.html needs on every page: top-level folders and the signed-in user."""
    top = sorted((f for f in folders.values() if f.parent_id is None and not f.trashed), key=lambda f: f.name.lower())
    return {"top_folders": top, "me": me(gym)}


def searchable_text(file: File, invoice: Invoice | None) -> str:
    """What a search matches: the name, the text (a table's cells, not its JSON) and invoice fields."""
    if file.kind == "table":
        columns, rows = grid(file.content)
        body = " ".join(columns + [cell for row in rows for cell in row])
    else:
        body = file.content
    extra = [invoice.number, invoice.vendor, invoice.description] if invoice else []
    return " ".join([file.name, body, *extra])


def size_bytes(file: File) -> int:
    """A file's size: an uploaded invoice's or PDF's as stored, a document's or table's from its content."""
    if file.kind in ("invoice", "pdf"):
        return file.size_kb * 1024
    return len(file.content.encode())


def size_label(file: File) -> str:
    """A size as Google Drive writes it: '740 bytes', '12 KB', '1.4 MB'."""
    size = size_bytes(file)
    if size < 1024:
        return f"{size} byte{'' if size == 1 else 's'}"
    if size < 1024 * 1024:
        return f"{round(size / 1024)} KB"
    return f"{size / 1024 / 1024:.1f} MB"
