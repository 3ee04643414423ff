"""The checker's lane outlives any one Chromium: a browser killed between jobs is replaced, and the next job runs."""

from __future__ import annotations

import os
import signal

import pytest

from mocked_apps.checker.lane import Lane


def _browser_pid(browser) -> int:
    """The Chromium browser process's pid, from the browser's own SystemInfo domain."""
    session = browser.new_browser_cdp_session()
    try:
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        session.detach()
    return next(p["id"] for p in processes if p["type"] == "browser")


def _open_and_read(browser) -> str:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<h1>alive</h1>")
        return page.inner_text("h1")
    finally:
        context.close()


def test_a_job_after_chromium_was_killed_runs_on_a_fresh_chromium():
    lane = Lane("test-kill")
    try:
        assert lane.call(_open_and_read) == "alive"
        pid = lane.call(_browser_pid)
        os.kill(pid, signal.SIGKILL)
        assert lane.call(_open_and_read) == "alive"  # the dead browser is noticed, replaced, and the job run there
        assert lane.call(_browser_pid) != pid
    finally:
        lane.close()


def test_a_job_that_fails_on_a_live_browser_is_not_retried():
    lane = Lane("test-fail")
    runs: list[int] = []

    def fails(browser):
        runs.append(1)
        raise ValueError("the job's own fault")

    try:
        with pytest.raises(ValueError, match="the job's own fault"):
            lane.call(fails)
        assert runs == [1]
        assert lane.call(_open_and_read) == "alive"
    finally:
        lane.close()
