"""The ui_state law: the tables of the state dump hold what the pages show, not how the user arranged them.

One rule for view preferences (issue 41): a sort order, a layout or any other way of arranging what a page
shows lives in the URL (a query parameter), never in the app's tables. The state dump is what verifiers and
the footprint guard read; a preference there would make an honest agent that sorts a list to find a record
change state the golden run did not. So the checker refuses an app that writes one (there is no exemption for
declared preference tables: nothing of the dump is hidden from a verifier or from the guard).

A click that writes a table is a view control when every surveyed page shows the same words, only in another
order; or when every surveyed page shows the same rows (table rows, list items), some in another order, and any
other text changed only on a page whose rows moved (the caption or button that says how they are arranged:
"Sorted by title", "Sort: A-Z"). A table that only view controls write is UI state, and fails the law.

A click's effect is judged on the HTML of the surveyed pages (the first page of each pattern) of the
clicked instance, fetched over HTTP right after the click. A save that changes only form values (a settings
page) is not a view change; neither is a click that changes a row's text (a pin mark) or text on a page
whose rows stayed in place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from html.parser import HTMLParser

from pydantic import BaseModel, ConfigDict, Field

from mocked_apps.kit.viewstate import without_view_state

from .admin import Finding

_SKIP = frozenset({"script", "style", "title", "template"})
_ROWS = frozenset({"tr", "li", "article"})
_ROW_ROLES = frozenset({"row", "listitem", "article"})


class _Text(HTMLParser):
    """The text nodes a person sees on the page, in document order, and the text of each outermost row."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.rows: list[str] = []
        self._skipping = 0
        self._open: list[bool] = []  # per open element: does it start a row
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIP:
            self._skipping += 1
        row = tag in _ROWS or dict(attrs).get("role") in _ROW_ROLES
        if row and self._row is None:
            self._row = []
            self._open = []
        if self._row is not None:
            self._open.append(row)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and self._skipping:
            self._skipping -= 1
        if self._row is not None and self._open:
            self._open.pop()
            if not self._open:
                self.rows.append(" ".join(self._row))
                self._row = None

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skipping:
            self.nodes.append(text)
            if self._row is not None:
                self._row.append(text)


def _parsed(html: str) -> _Text:
    parser = _Text()
    parser.feed(html)
    return parser


def text_nodes(html: str) -> list[str]:
    """The page's visible text nodes (whitespace collapsed), in document order."""
    return _parsed(html).nodes


def view_only(before: dict[str, str], after: dict[str, str]) -> bool:
    """The pages show what they showed, arranged otherwise: the same text nodes, some in another order; or the same
    rows, some in another order, with any other text changed only on a page whose rows moved."""
    same_text = same_rows = True
    reordered, moved, changed = False, set(), set()
    for path, html in before.items():
        old, new = _parsed(html), _parsed(after.get(path, ""))
        same_text = same_text and Counter(old.nodes) == Counter(new.nodes)
        same_rows = same_rows and Counter(old.rows) == Counter(new.rows)
        reordered = reordered or old.nodes != new.nodes
        if old.rows != new.rows:
            moved.add(path)
        if old.nodes != new.nodes:
            changed.add(path)
    return same_text and reordered or same_rows and bool(moved) and changed <= moved


def changed_tables(before: dict, after: dict, view_state: Iterable[str] = ()) -> frozenset[str]:
    """Tables whose rows differ between two dumps (fields declared as view state aside)."""
    a, b = without_view_state(before, view_state), without_view_state(after, view_state)
    return frozenset(t for t in set(a) | set(b) if a.get(t) != b.get(t))


class Write(BaseModel):
    """One click that changed the state dump: which tables, and whether the pages' data changed with them."""

    model_config = ConfigDict(frozen=True)

    control: str = Field(description="The control, as `Control.describe()` names it, with its viewport.")
    tables: frozenset[str] = Field(description="Tables whose rows the click changed.")
    view_only: bool | None = Field(description="The surveyed pages show the same text in another order: no displayed data changed. "
                                   "None: not looked at, since an earlier click of the same viewport changed these tables and the pages' data.")


class WriteLog:
    """Records the writes of one instance's clicks; pages are fetched only while a written table is still unjudged."""

    def __init__(self, initial: dict, pages: Callable[[], dict[str, str]], view_state: Iterable[str] = (), label: str = ""):
        self.initial = initial
        self.pages = pages
        self.view_state = tuple(view_state)
        self.label = label
        self.writes: list[Write] = []
        self._data: set[str] = set()  # tables some click changed together with the pages' data
        self._before: dict[str, str] | None = None

    def record(self, control: str, after: dict) -> None:
        """A click on `control` left the dump `after` (reset to `initial` before the click)."""
        tables = changed_tables(self.initial, after, self.view_state)
        if not tables:
            return
        if tables <= self._data:  # a data writer of these tables is known: the law can no longer flag them
            self.writes.append(Write(control=f"{self.label}: {control}", tables=tables, view_only=None))
            return
        if self._before is None:
            raise RuntimeError("WriteLog.baseline() must be called while the instance is in its initial state")
        only_view = view_only(self._before, self.pages())
        if not only_view:
            self._data |= tables
        self.writes.append(Write(control=f"{self.label}: {control}", tables=tables, view_only=only_view))

    def baseline(self) -> None:
        """Take the pages of the initial state now (call while the instance is in it)."""
        self._before = self.pages()


def ui_state_law(writes: Iterable[Write]) -> Finding:
    """Fail each table that clicks wrote but no click changed the pages' data with."""
    writes = list(writes)
    data = {t for w in writes if w.view_only is False for t in w.tables}
    written = {t for w in writes for t in w.tables}
    flagged = sorted(written - data)
    if flagged:
        lines = []
        for table in flagged:
            by = sorted({w.control for w in writes if table in w.tables})
            lines.append(f"table {table} is UI state: written only by {', '.join(by[:3])}, which change no displayed data "
                         "(the pages show the same text or rows, only in another order); keep a view preference in the URL, "
                         "not in the state dump")
        return Finding(ok=False, evidence="\n".join(lines))
    if not written:
        return Finding(ok=True, evidence="no click wrote a table")
    shown = ", ".join(sorted(written)[:8]) + (f" and {len(written) - 8} more" if len(written) > 8 else "")
    return Finding(ok=True, evidence=f"{len(writes)} state-changing clicks wrote {shown}; each table is written by a click that changes what the pages show")


__all__ = ["Write", "WriteLog", "changed_tables", "text_nodes", "ui_state_law", "view_only"]
