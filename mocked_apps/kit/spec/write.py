"""Writing a spec back to YAML (what `apps compile` and `apps new` keep under `$GYMFACTORY_HOME/specs/`)."""

from __future__ import annotations

from pathlib import Path

import yaml

from .model import AppSpec


def dump_spec(spec: AppSpec) -> str:
    """The spec as YAML that `read_spec` reads back to an equal spec."""
    return yaml.safe_dump(spec.model_dump(mode="json", by_alias=True, exclude_defaults=True), sort_keys=False, allow_unicode=True)


def save_spec(spec: AppSpec, folder: Path) -> Path:
    """Write `folder/<name>.yaml` (the file name is the app's registry name); returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.name}.yaml"
    path.write_text(dump_spec(spec))
    return path


__all__ = ["dump_spec", "save_spec"]
