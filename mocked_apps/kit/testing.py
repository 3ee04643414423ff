"""Helpers for an app's own tests: a fresh instance over real HTTP, and real Chromium pages at both sizes.

    from mocked_apps.kit.testing import Client, browser_pages, served

    server = served("mocked_apps.memos")           # a module-scoped pytest fixture: one real app server

    def test_pin(server):
        with Client(server) as app:                # a fresh instance from the default seed
            where = app.post("/memo/1/pin")        # a form POST must redirect (303); the path it went to
            assert app.state()["memo"][0]["pinned"]

    def test_pages(server):
        with Client(server) as app, browser_pages() as pages:
            for form_factor, page in pages:        # desktop 1280x800, then a phone with touch
                page.goto(app.url("/"))
        assert pages.errors == []                 # console errors and page errors of every page
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from .browser import context_options, launch_chromium
from .process import AppServer

__all__ = ["BrowserPages", "Client", "browser_pages", "served"]


def served(ref: str, scope: str = "module"):
    """A pytest fixture that yields a running `AppServer` for the app `ref` (module, folder or name)."""

    @pytest.fixture(scope=scope)
    def _server():
        with AppServer(ref) as server:
            yield server

    return _server


class Client:
    """One instance on a running app server (default seed unless given), over real HTTP; deleted on exit."""

    def __init__(self, server: AppServer, seed: dict | None = None, clock: str | None = None):
        self.server = server
        self.id = server.admin.create(seed, clock)["instance_id"]
        self.root = f"/i/{self.id}"
        self.http = httpx.Client(base_url=f"{server.url}{self.root}", timeout=30)

    def url(self, path: str = "/") -> str:
        """The absolute URL of a page of this instance (what a browser opens)."""
        return f"{self.server.url}{self.root}/{path.lstrip('/')}"

    def state(self) -> dict[str, list[dict[str, Any]]]:
        return self.server.admin.state(self.id)

    def reset(self) -> None:
        self.server.admin.reset(self.id)

    def get(self, path: str, **params: Any) -> httpx.Response:
        """GET a page that must answer 200."""
        response = self.http.get(path, params=params or None)
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        return response

    def post(self, path: str, **data: Any) -> str:
        """POST a form that must end in a redirect (303: POST ends in done); the path+query it went to."""
        response = self.http.post(path, data=data)
        assert response.status_code == 303, (path, response.status_code, response.text[:500])
        location = response.headers["location"]
        assert location.startswith(self.root), location
        return location[len(self.root):]

    def close(self) -> None:
        self.http.close()
        self.server.admin.delete(self.id)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class BrowserPages:
    """Iterates (form factor, page) in a fresh context each; collects console and page errors in `errors`."""

    def __init__(self, browser, form_factors: tuple[str, ...]):
        self.browser, self.form_factors = browser, form_factors
        self.errors: list[str] = []

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        for form_factor in self.form_factors:
            context = self.browser.new_context(**context_options(form_factor))
            page = context.new_page()
            page.on("console", lambda m, ff=form_factor: m.type == "error" and self.errors.append(f"{ff}: {m.text}"))
            page.on("pageerror", lambda e, ff=form_factor: self.errors.append(f"{ff}: {e}"))
            try:
                yield form_factor, page
            finally:
                context.close()


@contextmanager
def browser_pages(form_factors: tuple[str, ...] = ("desktop", "mobile")) -> Iterator[BrowserPages]:
    """Real headless Chromium; iterate the result for one page per form factor."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            yield BrowserPages(browser, form_factors)
        finally:
            browser.close()
