"""`check_many`: the checker over many apps and variants, in one process or spread over worker processes.

A check keeps one core busy (its desktop and phone lanes overlap, mostly waiting on each other), so on a
machine with spare cores `jobs` worker processes check that many apps at once, each with its own Chromium.
Reports come back as each check finishes; a check that cannot go on (`CheckerError`) is a failed report of
its own, so the other checks still run and nothing done is lost.
"""

from __future__ import annotations

import atexit
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from mocked_apps.kit.variant import drawn_variant

from .check import CheckerError, check_app, fresh_browser
from .report import LAWS, CheckReport, LawResult, ordered

__all__ = ["Job", "check_many", "drawn_variants"]

Job = tuple[str, int]
"""An app reference and the variant seed to check it in."""


def drawn_variants(ref: str, k: int) -> list[int]:
    """Variant 0 and k-1 distinct variant seeds drawn from the app's reference (`drawn_variant`, as `run --variants`
    draws a task's from its id): each app shows the checker other looks, so over a catalogue every navigation, list
    and icon form is checked."""
    seeds = [0]
    j = 0
    while len(seeds) < k:
        j += 1
        if (seed := drawn_variant(ref, j)) not in seeds:
            seeds.append(seed)
    return seeds


def check_many(jobs: Sequence[Job], *, workers: int = 1, **options: Any) -> Iterator[CheckReport]:
    """Check each (ref, variant) of `jobs` with `check_app(**options)`; yields the reports as they finish (in
    `jobs` order when `workers` is 1)."""
    if workers < 1:
        raise ValueError(f"workers is 1 or more, not {workers}")
    if workers == 1 or len(jobs) <= 1:
        yield from _in_process(jobs, options)
        return
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no Playwright loop or lane inherited
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context)
    pending: dict[Future, Job] = {pool.submit(_check_in_worker, ref, variant, options): (ref, variant) for ref, variant in jobs}
    try:
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                ref, variant = pending.pop(future)
                try:
                    yield CheckReport.model_validate(future.result())
                except Exception as err:  # noqa: BLE001 - a worker that died is this check's failure, not the batch's
                    yield _could_not_check(ref, variant, f"the checking process failed: {type(err).__name__}: {err}")
    finally:  # interrupted or abandoned: the checks not started are dropped, the running ones stopped
        if pending:
            running = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in running:
                process.terminate()
        pool.shutdown(wait=True)  # joins the pool's threads (left running, they fail at interpreter exit)


def _in_process(jobs: Sequence[Job], options: dict) -> Iterator[CheckReport]:
    with fresh_browser(None) as browser:
        for ref, variant in jobs:
            yield _checked(ref, variant, browser, options)


def _checked(ref: str, variant: int, browser, options: dict) -> CheckReport:
    try:
        return check_app(ref, browser=browser, variant=variant, **options)
    except CheckerError as err:
        return _could_not_check(ref, variant, str(err))


_WORKER_BROWSER: list = []


def _check_in_worker(ref: str, variant: int, options: dict) -> dict:
    """In a worker process: check with the process's Chromium (launched on its first check)."""
    if not _WORKER_BROWSER:
        from playwright.sync_api import sync_playwright

        from mocked_apps.kit.browser import launch_chromium

        playwright = sync_playwright().start()
        _WORKER_BROWSER.append(launch_chromium(playwright))
        atexit.register(playwright.stop)
        atexit.register(_WORKER_BROWSER[0].close)
    return _checked(ref, variant, _WORKER_BROWSER[0], options).model_dump()


def _could_not_check(ref: str, variant: int, why: str) -> CheckReport:
    """The report of a check that stopped before its verdicts: every law 'not run', which fails it."""
    results = {law: LawResult(law=law, verdict="not run", evidence=f"not run: {why}") for law in LAWS}
    return ordered(ref, ref, results, 0.0, variant=variant)
