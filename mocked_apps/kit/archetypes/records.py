"""Record archetypes every entity gets: the sortable, filterable table; the detail page with tabs and its
state-machine actions (a review step where the spec asks for one); the create form or multi-step wizard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import func, or_
from sqlmodel import select

from mocked_apps.kit.context import Gym, GymDep
from mocked_apps.kit.spec.formula import evaluate
from mocked_apps.kit.spec.model import EntitySpec, PageSpec, TransitionSpec, page_path, page_title

from .common import Compiled, computed, fmt, options, parse, ref_titles, render

PAGE_SIZE = 25
_TEXTUAL = ("text", "longtext", "phone", "email", "address", "choice")


def search(app: Compiled, e: EntitySpec, stmt, q: str):
    """Rows whose text fields contain `q` (case-insensitive)."""
    model = app.model(e.name)
    cols = [getattr(model, f.name) for f in e.fields if f.type in _TEXTUAL]
    if q and cols:
        stmt = stmt.where(or_(*(func.lower(c).contains(q.lower()) for c in cols)))
    return stmt


def mount_table(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    """A list page: search, state tabs, filters on choice fields, column sorting, pagination, 'New ...'."""
    e = app.spec.entity(page.entity)
    model = app.model(e.name)
    path = page_path(page)
    title = page_title(app.spec, page)
    sortable = {f.name for f in e.fields} | ({e.state_field} if e.states else set())
    filters = [f for f in e.fields if f.filter and f.type in ("choice", "bool")]

    @router.get(path)
    def table(gym: GymDep, request: Request, q: str = "", sort: str = "", dir: str = "asc", state: str = "", p: int = 1):
        stmt = search(app, e, select(model), q)
        chosen = {}
        for f in filters:
            value = request.query_params.get(f.name, "")
            if value:
                chosen[f.name] = value
                stmt = stmt.where(getattr(model, f.name) == (value == "yes" if f.type == "bool" else value))
        if e.states and state in e.states:
            stmt = stmt.where(getattr(model, e.state_field) == state)
        total = gym.db.exec(select(func.count()).select_from(stmt.subquery())).one()
        column = getattr(model, sort if sort in sortable else "id")
        stmt = stmt.order_by(column.desc() if dir == "desc" else column, model.id)
        pages = max(1, -(-total // PAGE_SIZE))
        p = min(max(p, 1), pages)
        rows = gym.db.exec(stmt.offset((p - 1) * PAGE_SIZE).limit(PAGE_SIZE)).all()
        columns = [f for f in e.fields if not f.hidden][:6]
        return render(app, gym, "arch/table.html", title, entity=e, rows=rows, columns=columns, q=q, sort=sort, dir=dir,
                      state=state, filters=filters, chosen=chosen, total=total, p=p, pages=pages, path=path,
                      refs=ref_titles(app, gym, e), options=lambda f: options(app, gym, f))


def mount_records(app: Compiled, e: EntitySpec, router: APIRouter) -> None:
    """Create form (or wizard), detail page with tabs, and one action page per transition, for entity `e`."""
    model = app.model(e.name)
    base = f"/{e.name}"
    steps = [list(s) for s in e.steps] or ([list(e.create)] if e.create else [])

    if e.create:
        @router.get(base + "/new")
        def new_form(gym: GymDep, request: Request, step: int = 1, check: str = ""):
            values = {name: request.query_params.get(name, "") for name in e.create}
            step = min(max(step, 1), len(steps))
            errors: dict[str, str] = {}
            if check:  # a GET that re-runs validation of the fields so far: reads only
                for name in (n for s in steps[:step] for n in s):
                    _, err = parse(e.field(name), values[name])
                    if err:
                        errors[name] = err
                if errors:  # back to the first step with an error
                    step = next(i + 1 for i, s in enumerate(steps) if any(n in errors for n in s))
                elif request.query_params.get("next") and step < len(steps):
                    step += 1
            return render(app, gym, "arch/form.html", f"New {e.display.lower()}", entity=e, steps=steps, step=step,
                          values=values, errors=errors, action=gym.url(base + "/new"),
                          options=lambda f: options(app, gym, f), field=e.field)

        @router.post(base + "/new")
        async def create(gym: GymDep, request: Request):
            form = await request.form()
            values = {name: str(form.get(name, "")) for name in e.create}
            row: dict[str, Any] = {}
            for name in e.create:
                value, err = parse(e.field(name), values[name])
                if err:
                    return gym.done(base + "/new", check=1, step=len(steps), **values)
                row[name] = value
            obj = model(**row)
            gym.db.add(obj)
            gym.db.flush()
            return gym.done(f"{base}/{obj.id}", notice=f"{e.display} created")

    @router.get(base + "/{row_id}")
    def detail(gym: GymDep, row_id: int, tab: str = ""):
        row = gym.get(model, row_id)
        tabs = dict(e.tabs) or {"Overview": tuple(f.name for f in e.fields[:4]), "All details": tuple(f.name for f in e.fields)}
        current = tab if tab in tabs else next(iter(tabs))
        actions = [(t, e.transition_label(t), _guard_ok(e, t, row)) for t in e.transitions if _state(e, row) in t.source]
        return render(app, gym, "arch/detail.html", str(getattr(row, e.title)), entity=e, row=row, tabs=tabs, tab=current,
                      actions=actions, computed=computed(e, row), refs=ref_titles(app, gym, e), base=base,
                      back=app.list_path(e.name), extra=_extra(app, gym, e, row))

    for t in e.transitions:
        _mount_transition(app, e, t, router)


def _state(e: EntitySpec, row) -> str | None:
    return getattr(row, e.state_field) if e.states else None


def _guard_ok(e: EntitySpec, t: TransitionSpec, row) -> bool:
    return t.allows(row.model_dump())


def _extra(app: Compiled, gym: Gym, e: EntitySpec, row) -> list[tuple[str, list]]:
    """Rows of other entities that reference this one (shown on their own tab)."""
    out = []
    for other in app.spec.entities:
        for f in other.fields:
            if f.type == "ref" and f.ref == e.name:
                m = app.model(other.name)
                rows = gym.db.exec(select(m).where(getattr(m, f.name) == row.id).order_by(m.id)).all()
                out.append((other, rows))
    return out


def _mount_transition(app: Compiled, e: EntitySpec, t: TransitionSpec, router: APIRouter) -> None:
    model = app.model(e.name)
    path = f"/{e.name}/{{row_id}}/do/{t.name}"
    label = e.transition_label(t)

    @router.get(path)
    def review(gym: GymDep, request: Request, row_id: int, check: str = ""):
        row = gym.get(model, row_id)
        values = {n: request.query_params.get(n, "") for n in t.inputs}
        errors = {n: err for n in t.inputs if check and (err := parse(e.field(n), values[n])[1])}
        allowed = _state(e, row) in t.source and _guard_ok(e, t, row)
        return render(app, gym, "arch/transition.html", label, entity=e, row=row, transition=t, label=label, values=values,
                      errors=errors, allowed=allowed, base=f"/{e.name}", field=e.field,
                      options=lambda f: options(app, gym, f), computed=computed(e, row), refs=ref_titles(app, gym, e))

    @router.post(path)
    async def perform(gym: GymDep, request: Request, row_id: int):
        row = gym.get(model, row_id)
        form = await request.form()
        values = {n: str(form.get(n, "")) for n in t.inputs}
        if _state(e, row) not in t.source or not _guard_ok(e, t, row):
            return gym.done(f"/{e.name}/{row_id}", notice=f"This {e.display.lower()} can no longer be changed that way")
        parsed = {}
        for n in t.inputs:
            value, err = parse(e.field(n), values[n])
            if err or (value in ("", None) and e.field(n).type != "bool"):
                return gym.done(path.replace("{row_id}", str(row_id)), check=1, **values)
            parsed[n] = value
        for n, value in parsed.items():
            setattr(row, n, value)
        setattr(row, e.state_field, t.to)
        for name, effect in t.effects.items():
            setattr(row, name, _effect(gym, effect, row))
        gym.db.add(row)
        back = str(form.get("_back", ""))  # the board moves a card and stays on the board
        return gym.done(back if back.startswith("/") and not back.startswith("//") else f"/{e.name}/{row_id}", notice=f"{label}: done")


def _effect(gym: Gym, effect: str, row) -> Any:
    if effect == "$now":
        return gym.now
    if effect == "$today":
        return gym.now.date()
    try:
        return evaluate(effect, row.model_dump())
    except ValueError:
        return effect


__all__ = ["PAGE_SIZE", "mount_records", "mount_table", "search"]
