"""Drive's recipes: golden steps and verifier predicates other families call instead of re-typing drive's UI and tables."""

from __future__ import annotations

from .manifest import MANIFEST

__all__ = ["add_table_row", "open_app", "open_file", "table_source"]


def open_app() -> str:
    return f"env.open_app({MANIFEST.title!r})"


def open_file(name: str) -> str:
    """Find a file by name with the search box and open it."""
    return f'env.fill(env.word("Search") + " in Drive", {name!r})\nenv.press("Enter")\nenv.click({name!r}, role="link")'


def add_table_row(row: int, columns: list[str], cells: list[str]) -> str:
    """On an open table file: add row number `row` (1-based, header excluded) with `cells` under `columns`, and save."""
    fills = [f'env.fill({f"Row {row}, {col}"!r}, {cell!r})' for col, cell in zip(columns, cells)]
    return "\n".join(['env.click("Edit", role="link")', 'env.click("Add row", role="button")', *fills,
                      'env.click("Save table", role="button")'])


def table_source(fn: str, name: str) -> str:
    """`fn(state)`: the table file `name` (not trashed) of a final's state as {"columns": [...], "rows": [[...]]}."""
    return f'''
import json


def {fn}(state):
    f = next((f for f in state["drive"]["file"] if f["name"] == {name!r} and not f["trashed"]), None)
    return json.loads(f["content"]) if f else {{"columns": [], "rows": []}}
'''
