"""Generic pages over an app's own models, for hand-written apps: a table (search, filters, pagination), a detail
page (facts, actions, related rows), a form (typed values kept, one error convention, the GET page re-checks)
and one-row POST actions (set a field, delete). Each is one call on the app's router.

Why: every app re-wrote these pages (bank had 7 of its 11 pages as list/detail/form code and templates). The
kit's archetypes (`kit/archetypes/`) do the same for compiled specs; these take SQLModel classes and plain
functions instead of a spec, so an app keeps its own models, rules and layout. Overrides, smallest first:
a `Column`'s cell function, a `context` hook adding values, a filter of your own (any object with `read`,
`apply` and `controls`), and a template of your own that `{% extends "kit/pages/table.html" %}` (or
`detail.html`, `form.html`) and fills the blocks `top`, `actions` and `after`. See docs/apps.md.

Rules kept for the app: GETs only read (the form's `check=1` GET re-runs validation, writing nothing); every
change is a POST that ends in `gym.done` (commit, then 303 to a GET page).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from fastapi import APIRouter, Request
from markupsafe import Markup, escape
from sqlalchemy import func, or_
from sqlmodel import select

from .context import Gym, GymDep
from .filters import dt, money

__all__ = ["Choice", "Column", "DateRange", "Input", "MoneyError", "Range", "Search", "Sign", "Table", "as_int", "badge", "delete_action",
           "detail_page", "facts", "form_page", "parse_money", "set_field_action", "short_day", "signed", "table_page", "transition_action"]

Ctx = dict[str, Any]
"""What a page's hooks and templates see: `context(...)` values, plus `url` and the path parameters."""


def _call(value: Any, *args: Any) -> Any:
    return value(*args) if callable(value) else value


# ---- cells: values as list and detail pages show them ---------------------------------------------------
def signed(value: float) -> Markup:
    """An amount coloured by its sign ('-$12.00' as a debit, '$40.00' as a credit; pages.css colours .amt)."""
    return Markup('<span class="amt {}">{}</span>').format("debit" if value < 0 else "credit", money(value))


def short_day(when: date | datetime | str | None) -> Markup:
    """'Feb 07, 2026' with the year muted (and hidden on a phone: the class 'year')."""
    return Markup('{}<span class="muted year">, {}</span>').format(dt(when, "%b %d"), dt(when, "%Y")) if when else Markup("")


def badge(state: str) -> Markup:
    """A state as a pill ('Pending'); pages.css colours pending, confirmed/done/paid and cancelled/failed."""
    return Markup('<span class="status {0}">{1}</span>').format(state, state.capitalize())


# ---- tables ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One column: `value` is an attribute name or `fn(row, ctx) -> str | Markup`; `link(row, ctx)` gives a path
    to link the cell to, `sub(row, ctx)` a muted second line; `cls` is the cell's classes ('right', 'hide-sm')."""

    label: str
    value: str | Callable[[Any, Ctx], Any]
    link: Callable[[Any, Ctx], str] | None = None
    sub: Callable[[Any, Ctx], Any] | None = None
    cls: str = ""

    def content(self, row: Any, ctx: Ctx) -> Markup:
        raw = getattr(row, self.value) if isinstance(self.value, str) else self.value(row, ctx)
        text = escape("—" if raw in (None, "") else raw)
        if self.link is not None:
            text = Markup('<a href="{}">{}</a>').format(ctx["url"](self.link(row, ctx)), text)
        if self.sub is not None and (sub := self.sub(row, ctx)):
            text += Markup('<div class="muted small">{}</div>').format(sub)
        return text

    def cell(self, row: Any, ctx: Ctx) -> Markup:
        text = self.content(row, ctx)
        return Markup('<td class="{}">{}</td>').format(self.cls, text) if self.cls else Markup("<td>{}</td>").format(text)

    def card_fact(self, row: Any, ctx: Ctx) -> Markup:
        """The cell on a card: its column's label beside it (a card has no header row)."""
        return Markup('<div class="{}"><dt>{}</dt><dd>{}</dd></div>').format(self.cls, self.label, self.content(row, ctx))


@dataclass(frozen=True)
class Table:
    """Columns and the line shown when there are no rows; `html(rows, ctx)` renders it (list pages, and any
    template that shows the same rows, e.g. recent activity on a home page). `cards=True` (a variant's list form,
    on `table_page`) shows each row as a card of labelled facts instead."""

    columns: Sequence[Column]
    empty: str = "Nothing here yet."

    def html(self, rows: Sequence[Any], ctx: Ctx, empty: str | None = None, cards: bool = False) -> Markup:
        if cards:
            items = Markup("").join(Markup('<li class="rcard"><dl>{}</dl></li>').format(
                Markup("").join(c.card_fact(r, ctx) for c in self.columns)) for r in rows)
            return Markup('<ul class="rcards">{}</ul>').format(items or Markup('<li class="muted">{}</li>').format(empty or self.empty))
        head = Markup("").join(Markup('<th class="{}">{}</th>').format(c.cls, c.label) for c in self.columns)
        body = Markup("").join(Markup("<tr>{}</tr>").format(Markup("").join(c.cell(r, ctx) for c in self.columns))
                               for r in rows)
        if not rows:
            body = Markup('<tr><td colspan="{}" class="muted">{}</td></tr>').format(len(self.columns), empty or self.empty)
        return Markup('<table class="list"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>').format(head, body)


def _field(label: str, name: str, control: Markup, cls: str = "field") -> Markup:
    return Markup('<div class="{}"><label for="f-{}">{}</label>{}</div>').format(cls, name, label, control)


def _input(name: str, value: str, **attrs: str) -> Markup:
    extra = Markup("").join(Markup(' {}="{}"').format(k.replace("_", "-"), v) for k, v in attrs.items())
    return Markup('<input id="f-{0}" name="{0}" value="{1}"{2}>').format(name, value, extra)


def _select(name: str, value: str, choices: Sequence[tuple[str, str]]) -> Markup:
    opts = Markup("").join(Markup('<option value="{}"{}>{}</option>').format(v, Markup(" selected") if v == value else "", text)
                           for v, text in choices)
    return Markup('<select id="f-{0}" name="{0}">{1}</select>').format(name, opts)


@dataclass(frozen=True)
class Search:
    """`q`: rows whose text columns contain it, case-insensitive."""

    columns: Sequence[Any]
    label: str = "Search text"
    placeholder: str = ""

    def read(self, params: Mapping[str, str]) -> dict[str, Any]:
        q = params.get("q", "").strip()
        return {"q": q} if q else {}

    def apply(self, stmt, values: dict[str, Any]):
        if "q" not in values:
            return stmt
        like = f"%{values['q']}%"
        return stmt.where(or_(*(c.ilike(like) for c in self.columns)))

    def controls(self, gym: Gym, values: dict[str, Any]) -> list[Markup]:
        return [_field(self.label, "q", _input("q", values.get("q", ""), placeholder=self.placeholder), "field wide")]


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if text.strip() else None
    except ValueError:
        return None


@dataclass(frozen=True)
class DateRange:
    """`start` and `end` (inclusive days) on a datetime column; bad dates are ignored."""

    column: Any
    labels: tuple[str, str] = ("From date", "To date")

    def read(self, params: Mapping[str, str]) -> dict[str, Any]:
        return {k: d for k in ("start", "end") if (d := _day(params.get(k, ""))) is not None}

    def apply(self, stmt, values: dict[str, Any]):
        if "start" in values:
            stmt = stmt.where(self.column >= datetime.combine(values["start"], datetime.min.time()))
        if "end" in values:
            stmt = stmt.where(self.column < datetime.combine(values["end"] + timedelta(days=1), datetime.min.time()))
        return stmt

    def controls(self, gym: Gym, values: dict[str, Any]) -> list[Markup]:
        return [_field(label, k, _input(k, values[k].isoformat() if k in values else "", type="date"))
                for k, label in zip(("start", "end"), self.labels)]


def _number(text: str) -> float | None:
    try:
        value = abs(float(text.strip().replace("$", "").replace(",", "")))
    except ValueError:
        return None
    return value if value == value and value != float("inf") else None


@dataclass(frozen=True)
class Range:
    """`min_amount` and `max_amount` on a number column (its absolute value when `absolute`), to the cent."""

    column: Any
    absolute: bool = True
    labels: tuple[str, str] = ("Min amount", "Max amount")

    def read(self, params: Mapping[str, str]) -> dict[str, Any]:
        return {k: n for k in ("min_amount", "max_amount") if (n := _number(params.get(k, ""))) is not None}

    def apply(self, stmt, values: dict[str, Any]):
        column = func.abs(self.column) if self.absolute else self.column
        if "min_amount" in values:
            stmt = stmt.where(column >= values["min_amount"] - 0.005)
        if "max_amount" in values:
            stmt = stmt.where(column <= values["max_amount"] + 0.005)
        return stmt

    def controls(self, gym: Gym, values: dict[str, Any]) -> list[Markup]:
        return [_field(label, k, _input(k, f"{values[k]:.2f}" if k in values else "", inputmode="decimal", placeholder="0.00"))
                for k, label in zip(("min_amount", "max_amount"), self.labels)]


@dataclass(frozen=True)
class Choice:
    """`name` = one of the column's values; `choices(gym)` lists them (default: the distinct non-empty values)."""

    name: str
    label: str
    column: Any
    all_label: str = "All"
    choices: Callable[[Gym], Sequence[str]] | None = None

    def read(self, params: Mapping[str, str]) -> dict[str, Any]:
        value = params.get(self.name, "").strip()
        return {self.name: value} if value else {}

    def apply(self, stmt, values: dict[str, Any]):
        return stmt.where(self.column == values[self.name]) if self.name in values else stmt

    def controls(self, gym: Gym, values: dict[str, Any]) -> list[Markup]:
        found = self.choices(gym) if self.choices else sorted(set(gym.db.exec(select(self.column).distinct()).all()) - {"", None})
        options = [("", self.all_label)] + [(str(c), str(c)) for c in found]
        return [_field(self.label, self.name, _select(self.name, values.get(self.name, ""), options))]


@dataclass(frozen=True)
class Sign:
    """`type` = 'debit' (negative) or 'credit' (positive) on a signed amount column; anything else is ignored."""

    column: Any
    label: str = "Type"
    options: tuple[tuple[str, str], ...] = (("", "All types"), ("debit", "Debits (money out)"), ("credit", "Credits (money in)"))

    def read(self, params: Mapping[str, str]) -> dict[str, Any]:
        value = params.get("type", "")
        return {"type": value} if value in ("debit", "credit") else {}

    def apply(self, stmt, values: dict[str, Any]):
        if "type" not in values:
            return stmt
        return stmt.where(self.column < 0 if values["type"] == "debit" else self.column > 0)

    def controls(self, gym: Gym, values: dict[str, Any]) -> list[Markup]:
        return [_field(self.label, "type", _select("type", values.get("type", ""), self.options))]


def _query(values: dict[str, Any]) -> dict[str, str]:
    """Filter values as GET parameters again (pagination links, the 'Clear filters' test)."""
    out = {}
    for key, value in values.items():
        out[key] = value.isoformat() if isinstance(value, date) else f"{value:.2f}" if isinstance(value, float) else str(value)
    return out


def as_int(text: str, default: int = 1) -> int:
    """A typed number (a page, an id from a form or a path), or `default` for anything else: never a 422."""
    return int(text) if text and text.strip().isdigit() else default


def table_page(router: APIRouter, path: str, *, model: Any, title: str | Callable[[Ctx], str], table: Table,
               order: Sequence[Any], filters: Sequence[Any] = (), where: Callable[[Ctx], Sequence[Any]] | None = None,
               context: Callable[[Gym, Ctx], Ctx] | None = None, page_size: int = 50, noun: tuple[str, str] = ("row", "rows"),
               pager: tuple[str, str] = ("Previous page", "Next page"), actions: Sequence[tuple[str, str]] = (),
               template: str = "kit/pages/table.html", layout: str = "layout.html") -> None:
    """GET `path`: the rows of `model` (`where(ctx)` clauses, then the filters), ordered, `page_size` a page.

    `ctx` holds the path parameters, `url`, and what `context(gym, ctx)` adds (e.g. the account a page is about,
    or a 404 through `gym.get`); `title` may be a function of it (ctx['filters'] holds the filter values)."""

    @router.get(path)
    def page(gym: GymDep, request: Request):
        ctx: Ctx = {"url": gym.url, **request.path_params}
        ctx.update(context(gym, ctx) if context else {})
        values: dict[str, Any] = {}
        for f in filters:
            values.update(f.read(request.query_params))
        ctx["filters"] = values
        stmt = select(model).where(*(where(ctx) if where else ()))
        for f in filters:
            stmt = f.apply(stmt, values)
        total = gym.db.exec(select(func.count()).select_from(stmt.subquery())).one()
        pages = max(1, -(-total // page_size))
        number = min(as_int(request.query_params.get("page", "")), pages)
        rows = gym.db.exec(stmt.order_by(*order).offset((number - 1) * page_size).limit(page_size)).all()
        count = f"{total} {noun[0] if total == 1 else noun[1]}" + (
            f" match{'es' if total == 1 else ''} your filters" if values else "") + (f" · page {number} of {pages}" if pages > 1 else "")
        cards = gym.variant is not None and gym.variant.lists == "cards"
        return gym.render(template, layout=layout, title=_call(title, ctx), ctx=ctx, rows=rows, table=table.html(rows, ctx, cards=cards),
                          controls=[c for f in filters for c in f.controls(gym, values)], active=bool(values), count=count,
                          query=_query(values), page=number, pages=pages, pager=pager, path=request.url.path[len(gym.base):],
                          actions=actions, search_q=values.get("q", ""), **{k: v for k, v in ctx.items() if k != "url"})


# ---- detail pages --------------------------------------------------------------------------------------
def facts(pairs: Sequence[tuple[str, Any]]) -> Markup:
    """A definition list of (label, value) pairs; empty values show as '—'."""
    items = Markup("").join(Markup("<dt>{}</dt><dd>{}</dd>").format(k, "—" if v in (None, "") else v) for k, v in pairs)
    return Markup('<dl class="facts">{}</dl>').format(items)


def detail_page(router: APIRouter, path: str, *, model: Any, title: Callable[[Any], str],
                facts_of: Callable[[Any, Ctx], Sequence[tuple[str, Any]]], key: str = "row_id",
                context: Callable[[Gym, Any, Ctx], Ctx] | None = None, crumbs: Sequence[tuple[str, str]] = (),
                template: str = "kit/pages/detail.html", layout: str = "layout.html") -> None:
    """GET `path` (with `{key}` in it): one row of `model` (404 when missing) as a heading and its facts.

    The template gets `row`, `facts` and what `context(gym, row, ctx)` adds; an app's own template extending
    `kit/pages/detail.html` adds toolbars, forms and related tables in the blocks `top`, `actions`, `after`."""

    @router.get(path)
    def page(gym: GymDep, request: Request):
        row = gym.get(model, as_int(request.path_params[key], 0))
        ctx: Ctx = {"url": gym.url, **request.path_params}
        ctx.update(context(gym, row, ctx) if context else {})
        return gym.render(template, layout=layout, title=title(row), row=row, facts=facts(facts_of(row, ctx)),
                          crumbs=crumbs, **{k: v for k, v in ctx.items() if k != "url"})


# ---- forms ---------------------------------------------------------------------------------------------
class MoneyError(ValueError):
    """A typed amount that is not a positive dollar amount with at most 2 decimals; the message fits the form."""


def parse_money(text: str, limit: float = 1_000_000.0) -> float:
    """'$1,240.00' -> 1240.0, or MoneyError with the message a person sees next to the input."""
    cleaned = (text or "").strip().replace("$", "").replace(",", "")
    if not cleaned:
        raise MoneyError("Enter an amount.")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise MoneyError("Enter an amount in dollars, e.g. 1240.00.") from None
    if not value.is_finite() or value <= 0:
        raise MoneyError("The amount must be more than $0.00.")
    if value.as_tuple().exponent < -2:
        raise MoneyError("Use at most 2 decimals (cents).")
    if value > Decimal(str(limit)):
        raise MoneyError(f"The amount is above the {money(limit)} online limit.")
    return float(value)


@dataclass(frozen=True)
class Input:
    """One form input. `kind`: 'text', 'select' (`options(gym, values) -> [(value, label)]`, `blank` the empty choice's
    label or None for no empty choice), 'money' (a $ prefix, decimal keyboard) or 'textarea'. `hint(gym)` is a muted
    line under it; `link` = (text, link label, path) a line with a link (e.g. 'Not listed? Add a payee')."""

    name: str
    label: str
    kind: str = "text"
    options: Callable[[Gym, dict[str, str]], Sequence[tuple[Any, Any]]] | None = None
    blank: str | None = ""
    placeholder: str = ""
    required: bool = False
    maxlength: int | None = None
    hint: Callable[[Gym], str] | None = None
    link: tuple[str, str, str] | None = None

    def choices(self, gym: Gym, values: dict[str, str]) -> list[tuple[str, str]]:
        """The select's (value, label) pairs; `values` are the form's current ones (e.g. to keep a row's own choice)."""
        found = [(str(v), str(text)) for v, text in (self.options(gym, values) if self.options else ())]
        return ([("", self.blank)] if self.blank is not None else []) + found


def form_page(router: APIRouter, path: str, *, title: str | Callable[[Any], str], inputs: Sequence[Input],
              validate: Callable[[Gym, dict[str, str], Any], dict[str, str]],
              save: Callable[[Gym, dict[str, str], Any], Any] | None = None, model: Any = None, key: str = "row_id",
              done: Callable[[Any], str] | None = None, saved: Callable[[Any, bool], str] | None = None,
              initial: Callable[[Any], dict[str, str]] | None = None, defaults: Mapping[str, str] | None = None,
              submit: str | Callable[[Any], str] = "Save", cancel: str | Callable[[Any], str] = "/", summary: bool = False,
              note: str = "", crumbs: Sequence[tuple[str, str]] = (), template: str = "kit/pages/form.html",
              layout: str = "layout.html") -> None:
    """GET and POST `path`. When the path names a row (`{key}`), the form edits that row of `model` (404 when
    missing) and the GET shows `initial(row)` (default: the row's values of the inputs); otherwise it shows the
    query's values over `defaults` (links may pre-fill).

    POST: `validate(gym, values, row)` -> {input: message}; errors go back to the GET with the typed values and
    `check=1`, where the same validation runs again (so the page shows them and nothing is stored); else
    `save(gym, values, row)` answers (it ends in `gym.done`). Values are the raw strings, stripped. Without `save`,
    the inputs are the row's text fields: the row (a new `model()` on a create page) gets them, then the answer goes
    to `done(row)` with the notice `saved(row, created)`."""
    edits = model is not None and "{" + key + "}" in path

    def _row(gym: Gym, request: Request) -> Any:
        return gym.get(model, as_int(request.path_params[key], 0)) if edits else None

    def _fields(gym: Gym, values: dict[str, str], row: Any):
        created, row = row is None, row if row is not None else model()
        for name, value in values.items():
            setattr(row, name, value)
        gym.db.add(row)
        gym.db.flush()
        return gym.done(done(row) if done else "/", notice=saved(row, created) if saved else "Saved")

    def _initial(row: Any) -> dict[str, str]:
        return initial(row) if initial else {i.name: "" if getattr(row, i.name) is None else str(getattr(row, i.name)) for i in inputs}

    def _render(gym: Gym, request: Request, row: Any, values: dict[str, str], errors: dict[str, str]):
        return gym.render(template, layout=layout, title=_call(title, row), row=row, inputs=inputs, values=values,
                          errors=errors, choices=lambda i: i.choices(gym, values), hint=lambda i: i.hint(gym) if i.hint else "",
                          action=request.url.path[len(gym.base):], submit=_call(submit, row), cancel=_call(cancel, row),
                          summary=summary, note=note, crumbs=crumbs)

    @router.get(path)
    def show(gym: GymDep, request: Request):
        row, check = _row(gym, request), request.query_params.get("check", "")
        typed = {i.name: request.query_params.get(i.name, "") for i in inputs}
        if check or row is None:
            values = typed if check else {k: v or (defaults or {}).get(k, "") for k, v in typed.items()}
        else:
            values = _initial(row)
        return _render(gym, request, row, values, validate(gym, _strip(values), row) if check else {})

    @router.post(path)
    async def submit_form(gym: GymDep, request: Request):
        row, form = _row(gym, request), await request.form()
        values = {i.name: str(form.get(i.name, "")) for i in inputs}
        if validate(gym, _strip(values), row):
            return gym.done(request.url.path[len(gym.base):], check=1, **values)
        return (save or _fields)(gym, _strip(values), row)


def _strip(values: dict[str, str]) -> dict[str, str]:
    return {k: v.strip() for k, v in values.items()}


# ---- one-row actions -----------------------------------------------------------------------------------
def set_field_action(router: APIRouter, path: str, *, model: Any, name: str, done: Callable[[Any], str], notice: str,
                     key: str = "row_id") -> None:
    """POST `path`: set one text field of a row to the posted value (stripped), then back to `done(row)`."""

    @router.post(path)
    async def act(gym: GymDep, request: Request):
        row = gym.get(model, as_int(request.path_params[key], 0))
        setattr(row, name, str((await request.form()).get(name, "")).strip())
        gym.db.add(row)
        return gym.done(done(row), notice=notice)


def delete_action(router: APIRouter, path: str, *, model: Any, done: str, notice: Callable[[Any], str],
                  before: Callable[[Gym, Any], None] | None = None, key: str = "row_id") -> None:
    """POST `path`: delete a row (404 when missing) after `before(gym, row)` (e.g. cancel what depends on it)."""

    @router.post(path)
    def act(gym: GymDep, request: Request):
        row = gym.get(model, as_int(request.path_params[key], 0))
        if before is not None:
            before(gym, row)
        gym.db.delete(row)
        return gym.done(done, notice=notice(row))



def transition_action(router: APIRouter, path: str, *, model: Any, act: Callable[[Gym, Any], Any], field: str = "status",
                      source: Sequence[str] = ("pending",), settled: Callable[[Any], str], noun: Callable[[Any], str] | None = None,
                      key: str = "row_id") -> None:
    """POST `path`: a state change (confirm, cancel) that runs `act(gym, row)` only while the row's `field` is in
    `source`; a second click (double click, back button) changes nothing and goes back to `settled(row)`'s page
    with a notice saying the row (`noun(row)`, default the model's name) is already in its state."""

    @router.post(path)
    def act_once(gym: GymDep, request: Request):
        row = gym.get(model, as_int(request.path_params[key], 0))
        if getattr(row, field) not in source:
            what = noun(row) if noun else model.__name__.lower()
            return gym.done(settled(row), notice=f"This {what} is already {getattr(row, field)}.")
        return act(gym, row)
