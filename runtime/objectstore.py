"""Screenshots and other blobs by key, in a local folder by default or at any fsspec URL (s3://, gs://, memory://).

An `s3://bucket/prefix` URL goes through `s3fs`, which takes its endpoint and credentials from the
standard variables (`AWS_ENDPOINT_URL` or `AWS_ENDPOINT_URL_S3`, `AWS_ACCESS_KEY_ID`,
`AWS_SECRET_ACCESS_KEY`, `AWS_DEFAULT_REGION`, or an AWS profile), so any S3-compatible server
(MinIO, Ceph, R2, moto) works unchanged. The bucket must exist; the store never creates one.

Records name a store by `reference(base)`: a local folder below `base` (a run folder, the folder of a
trajectory store) as a path relative to it, anything else by its URL, so a folder that holds its
objects can be copied elsewhere and still resolve them; `by_reference(reference, base)` opens either form.
"""

from __future__ import annotations

import os
from pathlib import Path

import fsspec

from mocked_apps.registry import home

__all__ = ["ObjectStore", "ObjectStoreError", "by_reference", "default_url"]


class ObjectStoreError(RuntimeError):
    """The object store's backend refused or failed a write (no such bucket, no credentials, unreachable endpoint)."""


def default_url() -> str:
    """`$GYMFACTORY_HOME/objects`."""
    return str(home() / "objects")


class ObjectStore:
    """put/get bytes under slash-separated keys below one root URL."""

    def __init__(self, url: str | Path | None = None):
        self.url = str(url or default_url()).rstrip("/")
        self.fs, self.root = fsspec.core.url_to_fs(self.url)
        self._local = self.fs.protocol in ("file", ("file", "local")) or "file" in self.fs.protocol
        if self._local:
            Path(self.root).mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> str:
        if key.startswith("/") or ".." in key.split("/"):
            raise ValueError(f"bad object key {key!r}")
        return f"{self.root}/{key}"

    def put(self, key: str, data: bytes) -> str:
        """Store `data` under `key`; returns the key."""
        path = self._path(key)
        if self._local:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            with self.fs.open(path, "wb") as f:
                f.write(data)
        except OSError as err:  # s3fs maps a missing bucket, a refused key and an unreachable endpoint to OSError
            raise ObjectStoreError(f"object store {self.url}: cannot write {key}: {err}") from err
        return key

    def get(self, key: str) -> bytes:
        """The bytes under `key`; FileNotFoundError when there are none."""
        with self.fs.open(self._path(key), "rb") as f:
            return f.read()

    def exists(self, key: str) -> bool:
        return self.fs.exists(self._path(key))

    def delete(self, key: str) -> None:
        """Remove the object under `key` (nothing when there is none)."""
        if self.fs.exists(self._path(key)):
            self.fs.rm(self._path(key))

    def keys(self, prefix: str = "") -> list[str]:
        """Every key below `prefix` (a folder-like key, or "" for all), sorted."""
        base = self._path(prefix).rstrip("/") if prefix else self.root
        if not self.fs.exists(base):
            return []
        root = self.root.rstrip("/") + "/"
        return sorted(p.removeprefix(root) for p in self.fs.find(base))

    def put_tree(self, folder: Path, prefix: str) -> list[str]:
        """Copy every file below the local `folder` under `prefix/` (e.g. an exported dataset); returns the keys."""
        folder = Path(folder)
        return [self.put(f"{prefix}/{p.relative_to(folder).as_posix()}", p.read_bytes())
                for p in sorted(folder.rglob("*")) if p.is_file()]

    def full_url(self, key: str) -> str:
        """Where the object lives, as an fsspec URL or local path."""
        return f"{self.url}/{key}"

    def reference(self, base: Path | str | None, above: int = 0) -> str:
        """How a record below `base` names this store: its path relative to `base` (`relative_to`), else its URL."""
        return self.relative_to(base, above) or self.url

    def relative_to(self, base: Path | str | None, above: int = 0) -> str | None:
        """This store's path relative to `base` when it is a local folder inside `base` or at most `above` folders higher
        (a run's `objects/` is "../objects" from its `rollouts/`); else None."""
        if not self._local or base is None:
            return None
        relative = Path(os.path.relpath(Path(self.root).resolve(), Path(base).resolve())).as_posix()
        parts = relative.split("/")
        ups = next((i for i, part in enumerate(parts) if part != ".."), len(parts))
        return relative if ups <= above else None


def by_reference(reference: str, base: Path | str | None = None) -> ObjectStore:
    """The store a record names: a URL or an absolute path as it is (records made before stores were named
    relatively hold those), a relative path below `base`."""
    if "://" in reference or os.path.isabs(reference) or base is None:
        return ObjectStore(reference)
    return ObjectStore(os.path.normpath(Path(base) / reference))
