"""The version of an app as a dataset or a bundle records it: its manifest's version and a digest of its source.

A manifest version is bumped by hand when models or seed formats change; the digest catches the
changes nobody bumped for (a template, a route), so a task re-run elsewhere can tell it meets the
same app it was validated on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from mocked_apps.kit.package import load_package
from mocked_apps.registry import resolve

_SKIP = {"__pycache__", ".pytest_cache"}


class AppVersion(BaseModel):
    """One app as the tasks that open it expect it."""

    model_config = ConfigDict(frozen=True)

    app: str = Field(description="Registry name.")
    version: str = Field(description="The manifest's version.")
    digest: str = Field(description="sha256 of the app package's files (paths and bytes), caches left out.")


def source_digest(folder: Path) -> str:
    """sha256 over the relative path and bytes of every file under `folder`, in path order."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not _SKIP & set(p.relative_to(folder).parts)
                       and p.suffix != ".pyc"):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def app_version(app: str) -> AppVersion:
    """The version and source digest of the app registered as `app` (shipped or registered from a folder)."""
    package = load_package(resolve(app))
    return AppVersion(app=app, version=package.manifest.version, digest=source_digest(Path(package.root)))
