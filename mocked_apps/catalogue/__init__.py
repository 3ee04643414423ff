"""The catalogue of compiled apps: the shipped specs (`specs/*.yaml`) and the ones written with `gymfactory apps
compile` / `apps new` (under `$GYMFACTORY_HOME/specs/`), found by file name; the kit compiles each on use."""

from __future__ import annotations

import os
from pathlib import Path

SPECS = Path(__file__).parent / "specs"


def user_specs() -> Path:
    """Where `apps compile` and `apps new` keep spec files: `$GYMFACTORY_HOME/specs`."""
    return Path(os.environ.get("GYMFACTORY_HOME", Path.home() / ".gymfactory")) / "specs"


def compiled() -> dict[str, str]:
    """App name (the spec file's stem, which is the spec's `name`) -> spec file, shipped ones first."""
    out: dict[str, str] = {}
    for folder in (SPECS, user_specs()):
        if folder.is_dir():
            out.update({p.stem: str(p.resolve()) for p in sorted(folder.glob("*.yaml"))})
    return out


__all__ = ["SPECS", "compiled", "user_specs"]
