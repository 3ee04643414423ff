"""Validation's kept sessions: tasks grouped by the apps they open, and one worker's session kept between them.

`validate_tasks` (factory.verifiers.validate) with `keep_sessions` gives each worker the tasks of one group after
another, and the next task that opens the same apps resets the worker's session instead of opening a new one.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import TYPE_CHECKING

from contracts.task import Task

if TYPE_CHECKING:
    from runtime.session import Session

__all__ = ["TaskGroups", "WarmSession"]


class TaskGroups:
    """The tasks left, by the apps they open: a worker goes on with its group, else takes the largest one left."""

    def __init__(self, tasks: list[Task]):
        self._lock = threading.Lock()
        self._left: dict[tuple, deque[int]] = {}
        for i, task in enumerate(tasks):
            self._left.setdefault((task.apps, task.form_factor), deque()).append(i)

    def next(self, key: tuple | None) -> tuple[tuple, int] | None:
        """(the group's key, a task's index), or None when no task is left."""
        with self._lock:
            if key not in self._left:
                key = max(self._left, key=lambda k: len(self._left[k]), default=None)
                if key is None:
                    return None
            left = self._left[key]
            i = left.popleft()
            if not left:
                del self._left[key]
            return key, i


class WarmSession:
    """One worker's session between tasks: the next task that opens the same apps resets it instead of opening one."""

    def __init__(self) -> None:
        self.session: "Session | None" = None

    def take(self, spec) -> "Session | None":
        session, self.session = self.session, None
        if session is not None and (session.spec != spec or session.closed or session.expired):
            session.close()
            session = None
        return session

    def keep(self, session: "Session") -> None:
        self.close()
        self.session = session

    def close(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            session.close()
