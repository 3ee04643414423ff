"""Screenshots and other blobs by key, in a local folder by default or at any fsspec URL (s3://, gs://, memory://)."""

from __future__ import annotations

from pathlib import Path

import fsspec

from mocked_apps.registry import home


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
        with self.fs.open(path, "wb") as f:
            f.write(data)
        return key

    def get(self, key: str) -> bytes:
        with self.fs.open(self._path(key), "rb") as f:
            return f.read()

    def exists(self, key: str) -> bool:
        return self.fs.exists(self._path(key))

    def full_url(self, key: str) -> str:
        """Where the object lives, as an fsspec URL or local path."""
        return f"{self.url}/{key}"
