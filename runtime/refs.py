"""Elements named by their label: `click("Members")`, `fill("Email", "a@b.c")`, `select("Tier", "Joint")`.

An action names its element by id (`click(7)`) or by the name the accessibility tree gives it. A name is
resolved against the page the agent last saw (its observation's tree) to the id it stands for, then applied
like an id. A small model copies a label from the task or the page far more easily than it maps a label to
the number on its line, and a label means the same thing on an app it has never seen; the id does not.

`resolve` finds the element a name stands for: among the elements of the kinds the action works on (text
fields for fill, drop-downs for select), the first in page order whose name is the given one, ignoring case,
then the first whose name starts with it, then the first containing it; then the same over every element.
`by_name` goes the other way for demonstrations: an id becomes its element's name where that name resolves
back to the same element on that page, so a demonstration written with names does exactly what it did.
"""

from __future__ import annotations

import difflib
from typing import Iterable

from runtime.actions import Action, Fill, Select
from runtime.axtree import AxNode, parse_axtree

FILLABLE = ("textbox", "searchbox", "spinbutton", "combobox")
SELECTABLE = ("combobox", "listbox")
LONGEST = 80  # characters: a longer name (a paragraph made a link) is no label to copy


class RefError(ValueError):
    """A name that stands for no element on the page; the message is feedback for the agent."""


def _roles(action: Action) -> tuple[str, ...]:
    if isinstance(action, Fill):
        return FILLABLE
    if isinstance(action, Select):
        return SELECTABLE
    return ()


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _match(nodes: Iterable[AxNode], wanted: str) -> AxNode | None:
    nodes = [n for n in nodes if n.name]
    for test in (lambda n: _fold(n.name) == wanted, lambda n: _fold(n.name).startswith(wanted), lambda n: wanted in _fold(n.name)):
        for node in nodes:
            if test(node):
                return node
    return None


def find_named(nodes: list[AxNode], name: str, roles: tuple[str, ...] = ()) -> AxNode | None:
    """The element (a node with an id) that `name` stands for, preferring `roles`; None when there is none."""
    wanted = _fold(name)
    if not wanted:
        return None
    elements = [n for n in nodes if n.id is not None]
    preferred = [n for n in elements if n.role in roles]
    return (_match(preferred, wanted) if preferred else None) or _match(elements, wanted)


def resolve(action: Action, axtree: str) -> Action:
    """`action` with an element given by name replaced by that element's id on the page `axtree` shows.

    Actions that name no element by name come back as they are. RefError when the name matches no element.
    """
    element = getattr(action, "element", None)
    if not isinstance(element, str):
        return action
    nodes = parse_axtree(axtree)
    node = find_named(nodes, element, _roles(action))
    if node is None:
        names = list(dict.fromkeys(n.name for n in nodes if n.id is not None and n.name))
        near = difflib.get_close_matches(element, names, n=4, cutoff=0.4)
        hint = f"; nearest: {', '.join(repr(n) for n in near)}" if near else ""
        raise RefError(f"there is no element named {element!r} on this page{hint}; name one as the accessibility tree shows it, or give its id")
    return action.model_copy(update={"element": node.id})


def by_name(action: Action, axtree: str) -> Action:
    """`action` with its element id written as that element's name, when the name resolves back to the same element
    on the page `axtree` shows; otherwise (no name, a name another element answers to first, a point) unchanged."""
    element = getattr(action, "element", None)
    if not isinstance(element, int):  # a point, or already a name
        return action
    nodes = parse_axtree(axtree)
    node = next((n for n in nodes if n.id == element), None)
    if node is None or not node.name or len(node.name) > LONGEST or node.name.endswith("…"):
        return action
    if find_named(nodes, node.name, _roles(action)) is not node:
        return action
    return action.model_copy(update={"element": node.name})
