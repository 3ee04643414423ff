"""The environment manager: `request(spec, lease)` hands out sessions; they `reset`, `observe`, `step`, `evaluate`.

    manager = EnvironmentManager()                      # LocalBackend, screenshots under $GYMFACTORY_HOME/objects
    session = manager.request(SessionSpec.for_task(task), Lease(seconds=600))
    obs = session.reset(task)
    obs = session.step('click(3)', action_id="a1-s1")
    outcome = session.evaluate()
    session.close()
"""

from __future__ import annotations

import secrets
import shutil
import threading
from pathlib import Path

from runtime.backends.base import Backend, DeadlineExceeded, EnvError, LeaseExpired, TaskSetupError
from runtime import confine
from runtime.objectstore import ObjectStore
from runtime.session import Deadlines, Lease, Outcome, PreparedStart, Session, SessionSpec

KEPT_STARTS = 8  # prepared starts kept per session spec between sessions

__all__ = [
    "DeadlineExceeded",
    "Deadlines",
    "EnvError",
    "EnvironmentManager",
    "Lease",
    "LeaseExpired",
    "Outcome",
    "Session",
    "SessionSpec",
    "TaskSetupError",
]


class EnvironmentManager:
    """Sessions over one backend; a reaper gives back the instances of sessions whose lease expired."""

    def __init__(
        self,
        backend: Backend | str | None = None,
        screenshots: ObjectStore | str | Path | None = None,
        deadlines: Deadlines | None = None,
        workspace_root: Path | None = None,
        axtree_lines: int = 400,
        reap_every_s: float = 1.0,
    ):
        confine.require()  # before anything starts: untrusted code (verifiers, golden, shell) must be confinable
        if backend is None:
            from runtime.backends.local import LocalBackend

            backend = LocalBackend()
        elif isinstance(backend, str):  # a name from a config or the command line: `local`, `docker`
            from runtime.backends import make_backend

            backend = make_backend(backend)
        self.backend = backend
        self.screenshots = screenshots if isinstance(screenshots, ObjectStore) else ObjectStore(screenshots)
        self.deadlines = deadlines or Deadlines()
        self._own_workspaces = workspace_root is None  # a folder it made is removed by close(); one it was given is kept
        self.workspace_root = Path(workspace_root) if workspace_root else confine.scratch_folder("gym-workspaces-")
        self.axtree_lines = axtree_lines
        self._sessions: dict[str, Session] = {}
        self._starts: dict[SessionSpec, list[PreparedStart]] = {}  # closed sessions' prepared starts, for the next ones
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reaper = threading.Thread(target=self._reap, args=(reap_every_s,), name="gym-lease-reaper", daemon=True)
        self._reaper.start()

    def request(self, spec: SessionSpec, lease: Lease | None = None) -> Session:
        """A new session for `spec`; nothing is provisioned until its first `reset(task)` (which may find a closed
        session's prepared start: a page already loading a ready instance)."""
        with self._lock:
            starts = self._starts.get(spec)
            start = starts.pop() if starts else None
        if start is not None and not start.page.alive():
            self._drop_start(start)
            start = None
        session = Session(self, secrets.token_hex(8), spec, lease or Lease(), start)
        with self._lock:
            self._sessions[session.id] = session
        return session

    def sessions(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def close(self) -> None:
        """Close every session, stop the backend, and remove the workspace folder it created."""
        self._stop.set()
        for session in self.sessions():
            session.close()
        with self._lock:
            starts, self._starts = [s for kept in self._starts.values() for s in kept], {}
        for start in starts:
            self._drop_start(start)
        self.backend.close()
        if self._own_workspaces:
            shutil.rmtree(self.workspace_root, ignore_errors=True)

    def __enter__(self) -> "EnvironmentManager":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _keep_start(self, spec: SessionSpec, start: PreparedStart) -> None:
        """Keep a closing session's prepared start for the next session of `spec` (a few per spec; else dropped)."""
        with self._lock:
            kept = self._starts.setdefault(spec, [])
            if len(kept) < KEPT_STARTS and not self._stop.is_set():
                kept.append(start)
                return
        self._drop_start(start)

    def _drop_start(self, start: PreparedStart) -> None:
        start.page.close()
        self.backend.release(start.instance)

    def _forget(self, session: Session) -> None:
        with self._lock:
            self._sessions.pop(session.id, None)

    def _reap(self, every: float) -> None:
        while not self._stop.wait(every):
            for session in self.sessions():
                if session.expired and session._lock.acquire(blocking=False):
                    try:
                        if session.expired:
                            session.close()
                    finally:
                        session._lock.release()
