"""`Gym`: what a route gets — a database session bound to its instance, the clock, rendering."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

from fastapi import Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlmodel import Session, SQLModel

from .identity import Identity
from .instances import META_TABLE, UnknownInstance
from .variant import Variant, variant_of
from .viewstate import check_declared

T = TypeVar("T", bound=SQLModel)


class Gym:
    """Per-request handle on one instance. App code never sees instance ids or files."""

    def __init__(self, request: Request, db: Session, base: str):
        self.request = request
        self.db = db
        self.base = base
        self._now: datetime | None = None

    @property
    def now(self) -> datetime:
        """The instance's virtual clock; it moves only when the app calls `advance`."""
        if self._now is None:
            value = self.db.connection().exec_driver_sql(
                f"SELECT value FROM {META_TABLE} WHERE key = 'clock'"
            ).scalar_one()
            self._now = datetime.fromisoformat(value)
        return self._now

    @property
    def identity(self) -> Identity:
        """The signed-in user of this instance (from the seed's `_identity`; empty when it has none)."""
        value = self.db.connection().exec_driver_sql(f"SELECT value FROM {META_TABLE} WHERE key = 'identity'").scalar()
        return Identity.model_validate_json(value) if value else Identity()

    @property
    def variant(self) -> Variant | None:
        """The instance's appearance variant (from the seed's `_variant`; None: the app as its spec draws it)."""
        value = self.db.connection().exec_driver_sql(f"SELECT value FROM {META_TABLE} WHERE key = 'variant'").scalar()
        return variant_of(int(value)) if value else None

    def advance(self, delta: timedelta = timedelta(minutes=1)) -> datetime:
        """Move the clock forward (committed with the request's other changes)."""
        new = self.now + delta
        self.db.connection().exec_driver_sql(
            f"UPDATE {META_TABLE} SET value = ? WHERE key = 'clock'", (new.isoformat(),)
        )
        self._now = new
        return new

    def view(self, row: SQLModel, **fields: Any) -> None:
        """Set declared view-state fields of `row` (e.g. `read=True` on opening a thread) and commit them, in a GET too.

        Only fields the manifest declares in `view_state` may be set this way (ViewStateError otherwise).
        """
        check_declared(row.__tablename__, fields, self.request.app.state.package.manifest.view_state)
        changed = {k: v for k, v in fields.items() if getattr(row, k) != v}
        if changed:
            for key, value in changed.items():
                setattr(row, key, value)
            self.db.add(row)
            self.db.commit()

    def url(self, path: str = "/", **query: Any) -> str:
        """Agent-facing URL of a path inside this instance."""
        query = {k: v for k, v in query.items() if v not in (None, "")}
        return self.base + ("/" + path.lstrip("/") if path != "/" else "/") + (f"?{urlencode(query)}" if query else "")

    def get(self, model: type[T], key: Any) -> T:
        """Row by primary key, or a 404 page."""
        row = self.db.get(model, key)
        if row is None:
            raise HTTPException(404, f"{model.__name__} {key} not found")
        return row

    def render(self, template: str, **values: Any) -> HTMLResponse:
        """Render an app template with the kit's globals (`url`, `now`, `app`, `identity`, `notice`, and the instance's
        appearance `variant` with `w(word)`, its wording of a kit word, and `icons`)."""
        env = self.request.app.state.templates
        variant = self.variant
        html = env.get_template(template).render(
            url=self.url,
            now=self.now,
            app=self.request.app.state.package.manifest,
            identity=self.identity,
            variant=variant,
            w=variant.word if variant is not None else _same,
            icons=variant is not None and variant.icons,
            request=self.request,
            notice=self.request.query_params.get("notice"),
            current_path=self.request.url.path,
            **values,
        )
        return HTMLResponse(html)

    def done(self, path: str = "/", notice: str | None = None, **query: Any) -> RedirectResponse:
        """Commit this request's changes and redirect (POST -> 303 -> GET)."""
        self.db.commit()
        return RedirectResponse(self.url(path, notice=notice, **query), status_code=303)


def gym(request: Request) -> Iterator[Gym]:
    """FastAPI dependency: the `Gym` of the instance named in the URL (404 if unknown)."""
    store = request.app.state.store
    instance_id = request.path_params.get("instance_id", "")
    try:
        engine = store.engine(instance_id)
    except UnknownInstance:
        raise HTTPException(404, "no such instance") from None
    with Session(engine) as db:
        try:
            yield Gym(request, db, f"/i/{instance_id}")
        finally:
            db.rollback()


GymDep = Annotated[Gym, Depends(gym)]
"""Route parameter type: `def inbox(gym: GymDep): ...`."""


def _same(text: str) -> str:
    return text
