"""A lane: a thread with a Chromium of its own, so the phone viewport is checked while the desktop one is.

Playwright's sync API belongs to the thread that started it; a second viewport in parallel needs a
second thread with its own Playwright. The lane starts once per process (on first use) and serves
every check after it, so its Chromium launch is paid once, not per app.
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from playwright.sync_api import Browser, sync_playwright

from mocked_apps.kit.browser import launch_chromium

T = TypeVar("T")


class Lane:
    """Runs jobs `fn(browser)` one at a time on its own thread and Chromium; `submit` answers a Future."""

    def __init__(self, name: str):
        self._jobs: queue.Queue[tuple[Callable[[Browser], Any], Future] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name=f"checker-lane-{name}", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[Browser], T]) -> Future:
        """Queue `fn` for the lane's thread; its result (or exception) arrives in the Future."""
        future: Future = Future()
        self._jobs.put((fn, future))
        return future

    def call(self, fn: Callable[[Browser], T]) -> T:
        """Run `fn` on the lane and wait for it."""
        return self.submit(fn).result()

    def close(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(timeout=30)

    def _serve(self) -> None:
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                try:
                    while (job := self._jobs.get()) is not None:
                        fn, future = job
                        if future.set_running_or_notify_cancel():
                            browser = self._run(pw, browser, fn, future)
                finally:
                    browser.close()
        except BaseException as err:  # no browser for this lane: every job, now and later, gets the reason
            while (job := self._jobs.get()) is not None:
                job[1].set_exception(err)

    @staticmethod
    def _run(pw: Any, browser: Browser, fn: Callable[[Browser], Any], future: Future) -> Browser:
        """Run one job; answers the browser for the next one.

        The lane lives as long as its process, so its Chromium can die between checks (a crash, the
        kernel's OOM killer). Playwright learns that only on its next call, which then fails: the job
        runs once more on a fresh Chromium, since it never reached the dead one. A job that fails
        with the browser alive, or fails again, hands its exception to the caller.
        """
        for attempt in range(2):
            try:
                future.set_result(fn(browser))
                return browser
            except BaseException as err:  # handed to the caller, who decides what it means
                if browser.is_connected() or attempt:
                    future.set_exception(err)
                    return browser
                try:
                    browser = launch_chromium(pw)
                except BaseException:
                    future.set_exception(err)
                    raise
        return browser


_LANES: dict[str, Lane] = {}
_LOCK = threading.Lock()


def lane(name: str) -> Lane:
    """The process's lane called `name`, started on first use and closed at exit."""
    with _LOCK:
        if name not in _LANES:
            _LANES[name] = Lane(name)
            atexit.register(_LANES[name].close)
        return _LANES[name]


__all__ = ["Lane", "lane"]
