"""Bulk actions on the files checked in a folder page: star, unstar, move to a folder, move to the trash."""

from __future__ import annotations

from mocked_apps.kit import Gym

from .models import File, Folder
from .tree import hidden, location, folders_of, touch

OPS = ("star", "unstar", "move", "trash")


class BulkError(ValueError):
    """What the person must fix before a bulk action runs; `field` is the form field it is about."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def targets(folders: dict[int, Folder]) -> list[tuple[str, str]]:
    """(value, label) of every folder checked files may move into; '' is the top of My Drive."""
    options = [(str(f.id), location(folders, f.id)) for f in folders.values() if not hidden(folders, f.id)]
    return [("", "My Drive")] + sorted(options, key=lambda o: o[1].lower())


def apply(gym: Gym, op: str, files: list[File], folder: str) -> str:
    """Run `op` on `files` and say what happened; BulkError (nothing changed) when it cannot run."""
    if op not in OPS:
        raise BulkError("op", "Choose an action: Star, Remove star, Move or Move to trash.")
    if not files:
        raise BulkError("file", "Select at least one file first.")
    count = f"{len(files)} file{'' if len(files) == 1 else 's'}"
    if op in ("star", "unstar"):
        for f in files:
            f.starred = op == "star"
            gym.db.add(f)
        gym.advance()
        return f"{count} {'starred' if op == 'star' else 'removed from Starred'}"
    if op == "trash":
        for f in files:
            f.trashed = True
            gym.db.add(f)
        gym.advance()
        return f"{count} moved to the trash"
    folders = folders_of(gym)
    target = int(folder) if folder.strip().isdigit() else None
    if folder.strip() and (target not in folders or hidden(folders, target)):
        raise BulkError("folder", "Choose a folder to move them to.")
    for f in files:
        f.folder_id = target
        touch(gym, f)
    return f"{count} moved to {location(folders, target)}"
