"""Spec files on disk: YAML documents checked against the spec model."""

from __future__ import annotations

import functools
from pathlib import Path

import yaml
from pydantic import ValidationError

from .model import AppSpec, SpecError

SPEC_SUFFIXES = (".yaml", ".yml")


def is_spec(ref) -> bool:
    """Whether a registry reference names a spec file (compiled) rather than an app package."""
    return str(ref).endswith(SPEC_SUFFIXES) and Path(ref).is_file()


def declared_extension(path: str | Path) -> str | None:
    """The extension folder a spec file names (read once per version of the file), or None."""
    path = Path(path)
    return _declared_extension(str(path.resolve()), path.stat().st_mtime_ns)


def has_extension(path: str | Path) -> bool:
    """Whether the spec file declares an extension (code of its own, so a server process of its own)."""
    return declared_extension(path) is not None


@functools.lru_cache(maxsize=256)
def _declared_extension(path: str, _mtime: int) -> str | None:
    try:
        doc = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError):
        return None
    folder = doc.get("extension") if isinstance(doc, dict) else None
    return str(folder) if folder else None


def read_spec(path: str | Path) -> AppSpec:
    """Parse and check a spec file; a bad one raises SpecError naming the file and the place."""
    path = Path(path)
    try:
        doc = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise SpecError(f"{path}: cannot read it as YAML ({err})") from None
    try:
        return AppSpec.model_validate(doc)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise SpecError(f"{path}: {loc}: {first['msg']}") from None
    except SpecError as err:
        raise SpecError(f"{path}: {err}") from None



__all__ = ["SPEC_SUFFIXES", "declared_extension", "has_extension", "is_spec", "read_spec"]
