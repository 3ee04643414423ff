"""One server process per app type: the admin API under `/_gym/`, the app under `/i/{id}/`."""

from __future__ import annotations

import itertools
import secrets
import sys
import tempfile
import traceback
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Body, Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .filters import FILTERS
from .instances import InstanceStore, SeedError, UnknownInstance
from .package import AppPackage, load_package

KIT_DIR = Path(__file__).parent
TOKEN_HEADER = "X-Gym-Admin-Token"
SERVER_ERROR_MARK = "gym server error #"
"""Starts the line the server prints before the traceback of each request that failed with 500."""


class NewInstance(BaseModel):
    """Body of `POST /_gym/instances`."""

    seed: dict[str, Any] | None = Field(default=None, description="{table: [rows]}; the app's default seed if omitted.")
    clock: str | None = Field(default=None, description="ISO-8601 'now' of the instance; the seed's clock if omitted.")


def create_server(package: AppPackage, token: str, data_dir: Path | None = None) -> FastAPI:
    """The FastAPI app serving every instance of `package`."""
    data_dir = Path(data_dir or tempfile.mkdtemp(prefix=f"gym-{package.name}-"))
    store = InstanceStore(package, data_dir)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        store.close()

    app = FastAPI(title=package.manifest.title, lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.package = package
    app.state.store = store
    app.state.templates = _template_env(package)

    def admin(x_gym_admin_token: str | None = Header(default=None)) -> None:
        if not x_gym_admin_token or not secrets.compare_digest(x_gym_admin_token, token):
            raise HTTPException(401, f"missing or wrong {TOKEN_HEADER}")

    guarded = [Depends(admin)]

    @app.get("/_gym/health", dependencies=guarded)
    def health() -> dict:
        return {"ok": True, "app": package.name, "version": package.manifest.version}

    @app.get("/_gym/manifest", dependencies=guarded)
    def manifest() -> dict:
        return package.full_manifest().model_dump()

    @app.post("/_gym/instances", dependencies=guarded)
    def create(body: NewInstance = Body(default_factory=NewInstance)) -> dict:
        try:
            instance_id = store.create(body.seed, body.clock)
        except SeedError as err:
            raise HTTPException(422, str(err)) from None
        return {"instance_id": instance_id, "url": f"/i/{instance_id}/"}

    @app.get("/_gym/instances", dependencies=guarded)
    def list_instances() -> dict:
        return {"instances": store.ids()}

    @app.post("/_gym/instances/{instance_id}/reset", dependencies=guarded)
    def reset(instance_id: str) -> dict:
        store.reset(instance_id)
        return {"ok": True}

    @app.get("/_gym/instances/{instance_id}/state", dependencies=guarded)
    def state(instance_id: str) -> dict:
        return store.dump(instance_id)

    @app.delete("/_gym/instances/{instance_id}", dependencies=guarded)
    def delete(instance_id: str) -> dict:
        store.delete(instance_id)
        return {"ok": True}

    @app.exception_handler(UnknownInstance)
    def unknown(_request: Request, _exc: UnknownInstance):
        return JSONResponse({"detail": "no such instance"}, status_code=404)

    @app.exception_handler(HTTPException)
    def http_error(request: Request, exc: HTTPException):
        if request.url.path.startswith("/i/"):
            html = app.state.templates.get_template("kit/error.html").render(
                status=exc.status_code, detail=exc.detail, app=package.manifest, url=lambda p="/": p
            )
            return HTMLResponse(html, status_code=exc.status_code)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    app.mount("/_kit/static", StaticFiles(directory=KIT_DIR / "static"), name="kit-static")
    if package.static_dir:
        app.mount("/_app/static", StaticFiles(directory=package.static_dir), name="app-static")
    app.include_router(package.router, prefix="/i/{instance_id}")
    for middleware in package.middleware:
        app.add_middleware(middleware)
    app.add_middleware(_ServerErrors)
    return app


class _ServerErrors:
    """ASGI middleware: a request that raises answers 500 and prints '#N METHOD PATH' and a short traceback.

    Numbered, so a reader of the server's output (the contract checker) can tell a new failure from
    an old one with the same traceback; short (its last frames), so several fit in a log tail.
    """

    _count = itertools.count(1)

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False

        async def watch(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            tb = "".join(traceback.format_exception(exc, limit=-8))
            print(f"{SERVER_ERROR_MARK}{next(self._count)} {scope['method']} {scope['path']}\n{tb}", file=sys.stderr, flush=True)
            if started:
                raise
            await PlainTextResponse("Internal Server Error", status_code=500)(scope, receive, send)


def _template_env(package: AppPackage) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [jinja2.FileSystemLoader([*package.template_dirs, package.templates_dir]), jinja2.FileSystemLoader(KIT_DIR / "templates")]
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(FILTERS)
    return env
