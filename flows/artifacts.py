"""Prefect artifacts the flows publish: tables, links to outputs, progress of long stages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from prefect.artifacts import create_link_artifact, create_progress_artifact, create_table_artifact, update_progress_artifact


def _key(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def table(key: str, rows: Sequence[dict], description: str) -> None:
    """A table artifact (keys must be lowercase letters, digits and dashes)."""
    create_table_artifact(key=_key(key), table=[{k: v for k, v in r.items()} for r in rows] or [{"(none)": ""}], description=description)


def link(key: str, path: Path, description: str) -> None:
    create_link_artifact(key=_key(key), link=Path(path).resolve().as_uri(), link_text=str(path), description=description)


_listeners: list[Callable[[str, str, int, int], None]] = []


def listen(callback: Callable[[str, str, int, int], None]) -> None:
    """Also report progress to `callback(key, description, done, total)` (the CLI's progress bars)."""
    _listeners.append(callback)


class ProgressArtifact:
    """A progress artifact updated as work items finish (at most every `every` items)."""

    def __init__(self, key: str, total: int, description: str, every: int = 1):
        self.total, self.done, self.every = max(total, 1), 0, max(every, 1)
        self.key, self.description = _key(key), description
        self.id = create_progress_artifact(progress=0.0, key=self.key, description=description)
        self._tell()

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.done % self.every == 0 or self.done >= self.total:
            update_progress_artifact(self.id, progress=round(100.0 * min(self.done, self.total) / self.total, 1))
        self._tell()

    def _tell(self) -> None:
        for callback in _listeners:
            callback(self.key, self.description, self.done, self.total)
