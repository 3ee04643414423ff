"""The default world: the one world whose projection is every hand-made app's default seed (its seed.json).

Why: default seeds written by hand drift apart (the bank's card re-typed into rail and food, an invoice in
mail that the bank never shows). Projected from one world they agree by construction: the same persona,
clock, accounts, vendors and invoices in every app. `gymfactory apps seed` rewrites the files;
tests/test_default_seeds.py holds every app with a projection to them.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from contracts.world import World
from mocked_apps.registry import SHIPPED

from .builder import build_world
from .integrity import check
from .seeds import PROJECTIONS

__all__ = ["ACCOUNTS", "DEFAULT_WORLD", "SHIFT", "default_seed", "default_world", "seed_apps", "seed_path", "seed_text", "write_default_seeds"]

DEFAULT_WORLD = ("alex", "month_end", 0)
"""(persona, scenario, seed) of the default world: Alex Morgan of Northwind Studio at a month-end close, with two
closed months of bank history and unpaid vendor invoices."""
SHIFT = timedelta(days=60)
"""The built world is moved this far on, so its clock is Monday 2 March 2026 09:00, the apps' default clock."""
ACCOUNTS = {"checking": ("Business Checking", "4821"), "savings": ("Business Savings", "7730"),
            "credit": ("Business Platinum Card", "1009")}
"""The default accounts' names and numbers: the ones the apps' tests, screenshots and fixture tasks know."""


def _shifted(value):
    """Every ISO date or datetime inside `value` moved on by SHIFT."""
    if isinstance(value, dict):
        return {k: _shifted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shifted(v) for v in value]
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", value):
        return (datetime.fromisoformat(value) + SHIFT).isoformat()
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return (date.fromisoformat(value) + SHIFT).isoformat()
    return value


@functools.lru_cache(maxsize=1)
def default_world() -> World:
    """The built world, moved on by SHIFT, with the ACCOUNTS' names and numbers; integrity-checked again."""
    world = _shifted(build_world(*DEFAULT_WORLD).model_dump(mode="json"))
    for account in world["accounts"]:
        account["name"], account["number"] = ACCOUNTS[account["kind"]]
    return check(World.model_validate(world))


def default_seed(app: str) -> dict:
    """What `app`'s seed.json holds: the default world's clock and the app's projection of the world."""
    world = default_world()
    return {"clock": world.scenario.clock.isoformat(), "seed": PROJECTIONS[app](world)}


def seed_text(seed: dict) -> str:
    """A seed file's text: one row a line, so a diff of two seeds shows the rows that changed."""
    tables = [f" {json.dumps(name)}: [" + ",".join(f"\n  {json.dumps(row, ensure_ascii=False)}" for row in rows) + ("\n ]" if rows else "]")
              for name, rows in seed["seed"].items()]
    return f'{{"clock": {json.dumps(seed["clock"])}, "seed": {{\n' + ",\n".join(tables) + "\n}}\n"


def seed_apps() -> list[str]:
    """The hand-made apps whose default seed is a projection: shipped app folders with projection.py and seed.json."""
    return sorted(name for name in SHIPPED if name in PROJECTIONS and seed_path(name).is_file())


def seed_path(app: str) -> Path:
    return Path(importlib.import_module(SHIPPED[app]).__file__).parent / "seed.json"


def write_default_seeds(apps: list[str] | None = None) -> dict[str, bool]:
    """Rewrite each app's seed.json as its projection of the default world; app -> whether the file changed."""
    changed = {}
    for app in apps or seed_apps():
        text, path = seed_text(default_seed(app)), seed_path(app)
        changed[app] = not path.is_file() or path.read_text() != text
        if changed[app]:
            path.write_text(text)
    return changed
