"""The environment the flows share in one process: one manager (app servers, browser) and browser slots."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

from runtime.manager import EnvironmentManager

_lock = threading.Lock()
_manager: EnvironmentManager | None = None
_slots = threading.BoundedSemaphore(4)


@contextmanager
def environment(concurrency: int, backend: str = "local", objects_url: str | None = None) -> Iterator[EnvironmentManager]:
    """Open (or reuse) the shared manager for the duration of a flow; `concurrency` browser slots, app servers on
    `backend`, screenshots at `objects_url` (the run folder's `objects/`: `PipelineConfig.object_store()`)."""
    global _manager, _slots
    with _lock:
        owner = _manager is None
        if owner:
            _manager = EnvironmentManager(backend=backend, screenshots=objects_url)
            _slots = threading.BoundedSemaphore(concurrency)
        manager = _manager
    try:
        yield manager
    finally:
        if owner:
            with _lock:
                _manager = None
            manager.close()


@contextmanager
def browser_slot() -> Iterator[None]:
    """Hold one of the browser slots (a concurrency limit that protects the one browser)."""
    with _slots:
        yield


def current() -> EnvironmentManager:
    if _manager is None:
        raise RuntimeError("no environment is open: wrap the flow body in flows.environment.environment()")
    return _manager
