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


# Landmarks that only group what follows; their children keep every id and text, so the compact view drops them.
_GROUPING = frozenset({"main", "navigation", "search", "banner", "contentinfo", "complementary", "region", "form", "group",
                       "list", "listitem", "generic", "section", "article"})
_SEP = " | "
_ID = re.compile(r"^\[(\d+)\] ")


def compact_tree(text: str, budget: int = 1600, cut: int = 40) -> str:
    """The accessibility tree as a model should read it: every actionable element, the text near it, fewer tokens.

    About two thirds of the full tree's tokens for the same ids (docs/learning.md): no indentation, no
    grouping landmarks, no quotes around names (`[23] link Kelly (focused, value="x")`), headings without
    their level, and each run of plain text lines as one line (`Rabbit | Ajna Kain | Jun 23, 2026`).
    Past `budget` characters, text pieces longer than `cut` end in an ellipsis (a list's previews; a
    record's own page is short and stays whole). Every element with an id keeps its line.
    """
    lines: list[tuple[bool, str]] = []  # (plain text?, line)
    texts: list[str] = []

    def flush() -> None:
        if texts:
            lines.append((True, _SEP.join(texts)))
            texts.clear()

    for raw in text.splitlines():
        nodes = parse_axtree(raw)
        if not nodes:
            flush()
            lines.append((False, raw.strip()))
            continue
        node = nodes[0]
        if node.id is None and node.role == "text":
            texts.append(node.name)
            continue
        flush()
        if node.id is not None or node.role not in _GROUPING:
            lines.append((False, _compact_line(node)))
    flush()
    out = "\n".join(line for _, line in lines)
    if len(out) > budget:
        out = "\n".join(_shorten(line, cut) if plain else line for plain, line in lines)
    return out


def _compact_line(node: AxNode) -> str:
    head = f"[{node.id}] {node.role}" if node.id is not None else node.role
    attrs = [k if v is True else f"{k}={_value(v)}" for k, v in node.attrs.items() if not (node.role == "heading" and k == "level")]
    return head + (f" {node.name}" if node.name else "") + (f" ({', '.join(attrs)})" if attrs else "")


def _shorten(line: str, cut: int) -> str:
    return _SEP.join(p if len(p) <= cut else p[:cut].rstrip() + "…" for p in line.split(_SEP))


def page_changes(before: str, after: str, most: float = 0.5) -> str | None:
    """The lines of compact tree `after` that `before` (the page a step earlier) does not have, or None when that is
    more than `most` of the page, which is then better shown whole.

    New and changed lines come in page order; an element that went away is listed as `gone: [n] ...`, so every id
    the page still has is either unchanged in the earlier tree or shown here. "" when nothing changed.
    """
    old, new = before.splitlines(), after.splitlines()
    added: list[str] = []
    gone: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op in ("replace", "insert"):
            added += new[j1:j2]
        if op in ("replace", "delete"):
            gone += old[i1:i2]
    kept = {m[1] for line in new if (m := _ID.match(line))}
    gone = [line for line in gone if (m := _ID.match(line)) and m[1] not in kept]
    if len(added) + len(gone) > most * max(1, len(new)):
        return None
    return "\n".join(added + [f"gone: {line}" for line in gone])


def same_start(before: str, after: str, least: int = 4) -> tuple[int, str] | None:
    """(m, the rest of `after`) when compact tree `after` starts with the same lines as `before` up to element [m]'s
    line, at least `least` lines (an app's header and navigation, kept from page to page); else None.

    Ids are given in page order, so those lines hold elements [1] to [m] exactly as before.
    """
    old, new = before.splitlines(), after.splitlines()
    cut, last = 0, None
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            break
        if match := _ID.match(b):
            cut, last = i + 1, int(match[1])
    if last is None or cut < least:
        return None
    return last, "\n".join(new[cut:])
