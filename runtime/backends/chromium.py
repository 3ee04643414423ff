"""One headless Chromium driven by Playwright's async API on a dedicated event-loop thread.

Playwright objects are not thread-safe; every call goes through `ChromiumHost.run`, which
schedules a coroutine on the host's loop and waits with a deadline from any thread.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import threading
from typing import Any, Awaitable, Callable, TypeVar

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import async_playwright

from mocked_apps.kit.browser import context_options, launch_chromium

from .base import DeadlineExceeded, EnvError, PageSetup, Served

T = TypeVar("T")
IDLE_CONTEXTS = 32


class ChromiumHost:
    """The browser process and its loop thread; relaunches the browser when it has died."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="gym-chromium", daemon=True)
        self._thread.start()
        self._playwright = None
        self._browser = None
        self._lock = asyncio.Lock()
        self._idle: dict[tuple, list[tuple[Any, Any, "_Router"]]] = {}
        self.launches = 0

    def run(self, coro: Awaitable[T], timeout: float, what: str = "browser call") -> T:
        """Run `coro` on the loop; DeadlineExceeded after `timeout` s (the coroutine is cancelled)."""
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout=max(timeout, 0.001))
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise DeadlineExceeded(f"{what} passed its deadline of {timeout:.2f}s") from None

    def connected(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    async def _ensure(self):
        async with self._lock:
            if self._browser is None or not self._browser.is_connected():
                if self._playwright is None:
                    self._playwright = await async_playwright().start()
                if self._browser is not None:
                    try:
                        await self._browser.close()
                    except PlaywrightError:
                        pass  # already dead: closing only frees Playwright's handles
                self._browser = await launch_chromium(self._playwright)
                self.launches += 1
            return self._browser

    async def _open(self, setup: PageSetup):
        browser = await self._ensure()
        key = (id(browser), setup.form_factor, setup.init_script, setup.route)
        while self._idle.get(key):
            context, page, router = self._idle[key].pop()
            if not page.is_closed():
                router.serve = setup.serve
                return context, page, router
        try:
            context = await browser.new_context(**context_options(setup.form_factor))
        except PlaywrightError:
            if browser.is_connected():
                raise
            browser = await self._ensure()  # it died just now: relaunch once
            key = (id(browser),) + key[1:]
            context = await browser.new_context(**context_options(setup.form_factor))
        router = _Router(key, setup.serve)
        if setup.route:
            await context.route(setup.route, router.handle)
        if setup.init_script:
            await context.add_init_script(setup.init_script)
        return context, await _new_page(context), router

    async def _park(self, context, page, router: "_Router") -> None:
        """Keep a healthy context for the next session of the same setup (a new context costs ~10x a navigation)."""
        idle = self._idle.setdefault(router.key, [])
        if len(idle) >= IDLE_CONTEXTS or not self.connected() or page.is_closed():
            await context.close()
            return
        await page.goto("about:blank")
        await context.clear_cookies()
        router.serve = None
        idle.append((context, page, router))

    def open_page(self, setup: PageSetup, timeout: float) -> "ChromiumPage":
        try:
            context, page, router = self.run(self._open(setup), timeout, "opening a browser page")
        except PlaywrightError as err:
            raise EnvError(f"browser: cannot open a page: {err}") from err
        return ChromiumPage(self, context, page, setup.form_factor, router)

    def prewarm(self, setup: PageSetup, count: int, timeout: float = 120.0) -> None:
        """Open `count` contexts for `setup` and park them, so that the first sessions skip context creation."""

        async def _warm():
            opened = [await self._open(setup) for _ in range(count)]
            for context, page, router in opened:
                await self._park(context, page, router)

        self.run(_warm(), timeout, "pre-opening browser contexts")

    def close(self) -> None:
        async def _stop():
            if self._browser is not None:
                try:
                    await self._browser.close()
                except PlaywrightError:
                    pass  # the browser is already gone
            if self._playwright is not None:
                await self._playwright.stop()

        if self._thread.is_alive():
            try:
                self.run(_stop(), 30, "closing the browser")
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join(timeout=10)


class _Router:
    """Answers the context's routed URLs with the current session's `serve` (contexts outlive sessions)."""

    def __init__(self, key: tuple, serve: Callable[[str], Served] | None):
        self.key, self.serve = key, serve

    async def handle(self, route) -> None:
        if self.serve is None:
            await route.abort()
            return
        served = self.serve(route.request.url)
        headers = {"location": served.location} if served.location else None
        await route.fulfill(status=served.status, content_type=served.content_type, body=served.body, headers=headers)


async def _new_page(context):
    page = await context.new_page()
    page.gym_cdp = await context.new_cdp_session(page)  # fast PNG capture (optimizeForSpeed)
    return page


_CAPTURE_TRIES = 4


async def screenshot_png(page) -> bytes:
    """The viewport as PNG, through CDP with Chromium's fast encoder (about 2x Playwright's screenshot)."""
    for attempt in range(_CAPTURE_TRIES):
        try:
            result = await page.gym_cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            return base64.b64decode(result["data"])
        except PlaywrightError as err:  # no frame yet (the compositor is between frames): a moment later there is one
            if "Unable to capture screenshot" not in str(err) or attempt == _CAPTURE_TRIES - 1:
                raise
            await asyncio.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


class ChromiumPage:
    """A session's context and page in the shared browser, and at most one standby page loading the next start."""

    def __init__(self, host: ChromiumHost, context, page, form_factor: str, router: _Router):
        self.host = host
        self.context = context
        self.page = page
        self.form_factor = form_factor
        self._router = router
        self._standby = None  # (url, the page loading it, future of that load)
        self._spare = None  # the page a take() replaced: the next preload loads in it

    def alive(self) -> bool:
        """Whether the browser and the page still answer (a kept page may outlive its browser)."""
        return self.host.connected() and not self.page.is_closed()

    def preload(self, url: str | None) -> None:
        """Start loading `url` in a second page of this context and return at once (`take(url)` swaps it in);
        None closes that page."""
        standby, self._standby = self._standby, None
        self._drop(standby)
        if url is None:
            return

        async def _load():
            page, self._spare = self._spare, None
            if page is None or page.is_closed():
                page = await _new_page(self.context)
            self._standby = (url, page, asyncio.ensure_future(page.goto(url, wait_until="load")))

        try:
            self.host.run(_load(), 10, "opening a standby page")
        except (PlaywrightError, DeadlineExceeded):
            pass  # no standby: take() answers False and the reset loads the page itself

    def take(self, url: str, timeout: float) -> bool:
        """Make the standby page the session's page if it loaded `url` (waiting for the load to end); else False."""
        standby, self._standby = self._standby, None
        if standby is None or standby[0] != url or not self.alive():
            self._drop(standby)
            return False

        async def _swap():
            _, page, loading = standby
            try:
                await loading
            except PlaywrightError:
                await page.close()
                return False
            self._spare, self.page = self.page, page
            return True

        try:
            return self.host.run(_swap(), timeout, "taking the standby page")
        except DeadlineExceeded:
            self._drop(standby)
            raise

    def _drop(self, standby) -> None:
        if standby is None:
            return

        async def _close():
            loading = standby[2]
            if loading.done() and not loading.cancelled():
                loading.exception()  # a failed load nobody will take: read, so asyncio does not warn
            loading.cancel()
            try:
                await standby[1].close()
            except PlaywrightError:
                pass  # the context or browser is gone already

        try:
            self.host.run(_close(), 10, "closing a standby page")
        except DeadlineExceeded:
            pass  # a hung page goes with its context

    def call(self, fn: Callable[[Any], Awaitable[T]], timeout: float) -> T:
        """`fn(page)` on the browser loop; a dead browser or closed page is an EnvError."""
        try:
            return self.host.run(fn(self.page), timeout, "browser operation")
        except PlaywrightError as err:
            if not self.host.connected() or self.page.is_closed():
                raise EnvError(f"browser died: {str(err).splitlines()[0]}") from err
            raise EnvError(f"browser: {str(err).splitlines()[0]}") from err

    def close(self, reuse: bool = True) -> None:
        """Park the context for the next session (`reuse`), or close it; never raises."""
        self.preload(None)

        async def _close():
            spare, self._spare = self._spare, None
            try:
                if spare is not None:
                    await spare.close()
                if reuse:
                    await self.host._park(self.context, self.page, self._router)
                else:
                    await self.context.close()
            except PlaywrightError:
                pass  # the browser died with the context in it: nothing left to close

        try:
            self.host.run(_close(), 10, "closing a browser context")
        except DeadlineExceeded:
            pass  # a hung context is dropped; the browser is relaunched if it is dead
