"""Reading the accessibility-tree text (RUNTIME.md): `parse_axtree` into nodes, `find` a node as a person names it."""

from __future__ import annotations

import difflib
import json
import re

from pydantic import BaseModel, ConfigDict, Field

_LINE = re.compile(r'^(?P<indent> *)(?:\[(?P<id>\d+)\] )?(?P<role>[A-Za-z][\w-]*)(?: (?P<name>"(?:[^"\\]|\\.)*"))?(?P<rest>.*)$')
_ATTR = re.compile(r'\s*(?P<key>[\w-]+)(?:=(?P<value>"(?:[^"\\]|\\.)*"|\S+))?')


class AxNode(BaseModel):
    """One line of the tree: id (actionable elements only), role, accessible name, attributes, depth."""

    model_config = ConfigDict(frozen=True)

    id: int | None
    role: str
    name: str = ""
    attrs: dict[str, str | bool] = Field(default_factory=dict, description="value=..., level=..., or flags such as checked: True.")
    depth: int = 0

    def line(self) -> str:
        """The node as its line in the tree (without indentation)."""
        head = f"[{self.id}] {self.role}" if self.id is not None else self.role
        name = f" {json.dumps(self.name, ensure_ascii=False)}" if self.name else ""
        attrs = "".join(f" {k}" if v is True else f" {k}={_value(v)}" for k, v in self.attrs.items())
        return head + name + attrs


def _value(value: str) -> str:
    return value if value.isdigit() else json.dumps(value, ensure_ascii=False)


class AxNotFound(LookupError):
    """No node matches; the message lists the nearest candidates so the caller (or a model) can fix the query."""


class AxAmbiguous(LookupError):
    """Several nodes match equally well where one was expected."""


def parse_axtree(text: str) -> list[AxNode]:
    """The nodes of an accessibility-tree text, in order; lines that are not nodes (e.g. the truncation note) are skipped."""
    nodes = []
    for raw in text.splitlines():
        match = _LINE.match(raw)
        if not match:
            continue
        name = json.loads(match["name"]) if match["name"] else ""
        attrs: dict[str, str | bool] = {}
        for attr in _ATTR.finditer(match["rest"]):
            value = attr["value"]
            if value is None:
                attrs[attr["key"]] = True
            else:
                attrs[attr["key"]] = json.loads(value) if value.startswith('"') else value
        nodes.append(
            AxNode(id=int(match["id"]) if match["id"] else None, role=match["role"], name=name, attrs=attrs, depth=len(match["indent"]) // 2)
        )
    return nodes


def find(nodes: list[AxNode], role: str | None = None, name: str | None = None, text: str | None = None) -> AxNode:
    """The node with this role and name (exact first, then case-insensitive substring), or containing `text`.

    Among several equally good matches the first in page order wins; with no match, AxNotFound
    lists the nearest candidates.
    """
    pool = [n for n in nodes if role is None or n.role == role]
    if name is not None:
        exact = [n for n in pool if n.name == name]
        if exact:
            return exact[0]
        folded = name.casefold().strip()
        loose = [n for n in pool if folded and folded in n.name.casefold()]
        if loose:
            return loose[0]
    elif text is not None:
        folded = text.casefold().strip()
        hits = [n for n in pool if folded in n.name.casefold() or any(folded in str(v).casefold() for v in n.attrs.values())]
        if hits:
            return hits[0]
    elif pool:
        return pool[0]
    raise AxNotFound(_not_found(nodes, pool, role, name if name is not None else text))


def _not_found(nodes: list[AxNode], pool: list[AxNode], role: str | None, wanted: str | None) -> str:
    query = " ".join(p for p in (f"role={role!r}" if role else "", f"name={wanted!r}" if wanted is not None else "") if p)
    names = list(dict.fromkeys(n.name for n in (pool or nodes) if n.name))
    near = difflib.get_close_matches(wanted or "", names, n=5, cutoff=0.3) if wanted else []
    candidates = [n for n in (pool or nodes) if n.name in near] or (pool or nodes)[:8]
    shown = "; ".join(n.line() for n in candidates[:8])
    roles = sorted({n.role for n in nodes})
    hint = f" (roles on this page: {', '.join(roles)})" if role and not pool else ""
    return f"no element with {query or 'any role'} on this page{hint}; nearest: {shown or 'none'}"
