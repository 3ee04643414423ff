"""Deriving a broken app from a working one: copy its folder, apply a named, declared defect.

A planted-defect suite needs one app per defect. Full copies of a base app drift from it and
hide the defect among hundreds of identical lines; a `Defect` is the few edits that make it,
declared next to the law it should break, and `derive_app` builds the app on demand.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field


class DeriveError(ValueError):
    """A defect's edit does not apply to the base app; the message names the defect, file and text."""


class Edit(BaseModel):
    """One small edit of one file of the app: replace `find` (exactly once) by `replace`, or create the file."""

    model_config = ConfigDict(frozen=True)

    file: str = Field(description="Path inside the app folder, e.g. 'templates/note.html'.")
    find: str | None = Field(default=None, description="Text that must occur exactly once in the file; None creates a new file.")
    replace: str = Field(description="What `find` becomes (or the whole content of a new file).")


class Defect(BaseModel):
    """A named defect: what it is, the law that must catch it first, and the edits that plant it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Folder and manifest name of the derived app.")
    law: str = Field(description="The checker law expected to report it first.")
    description: str = Field(description="What is wrong, in a sentence (becomes the app's docstring).")
    edits: tuple[Edit, ...] = Field(min_length=1, description="Applied in order; each must apply exactly.")


_MANIFEST_NAME = re.compile(r'name="[a-z][a-z0-9_]*"')


def derive_app(base: Path, defect: Defect, dest: Path) -> Path:
    """Copy the app package at `base` to `dest/defect.name`, rename it, apply the defect's edits; returns the folder.

    The derived app's manifest name and package docstring become the defect's, so reports name it.
    """
    root = Path(dest) / defect.name
    if root.exists():
        raise DeriveError(f"{defect.name}: {root} already exists")
    shutil.copytree(base, root, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = root / "manifest.py"
    text, count = _MANIFEST_NAME.subn(f'name="{defect.name}"', manifest.read_text(), count=1)
    if count != 1:
        raise DeriveError(f"{defect.name}: {base}/manifest.py has no name=\"...\" to rename")
    manifest.write_text(text)
    (root / "__init__.py").write_text(f'"""{defect.description}"""\n')
    for edit in defect.edits:
        _apply(root, defect.name, edit)
    return root


def _apply(root: Path, name: str, edit: Edit) -> None:
    path = root / edit.file
    if edit.find is None:
        if path.exists():
            raise DeriveError(f"{name}: {edit.file} already exists; give `find` to edit it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(edit.replace)
        return
    if not path.is_file():
        raise DeriveError(f"{name}: {edit.file} does not exist in the base app")
    text = path.read_text()
    found = text.count(edit.find)
    if found != 1:
        raise DeriveError(f"{name}: {edit.file} contains {edit.find!r} {found} times, not once")
    path.write_text(text.replace(edit.find, edit.replace))


__all__ = ["Defect", "DeriveError", "Edit", "derive_app"]
