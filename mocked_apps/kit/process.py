"""`AppServer`: one app server as a child process on a free loopback port."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
from pathlib import Path


from mocked_apps.catalogue import compiled

from . import lifeline
from .client import AdminClient
from .host import HostError, SharedHost, sharing_enabled
from .ports import PORT_TRIES, free_port, lost_port_race
from .spec.files import has_extension, is_spec


_SECRET_PREFIXES = ("OPENAI_", "ANTHROPIC_", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "AWS_SECRET")


class AppServerError(RuntimeError):
    """The app server did not start, or died; the message carries its last output."""


class AppServer:
    """Start, watch, restart and stop the server of one app type.

    A compiled app (a spec file, or the name of one in the catalogue) is served by the process's shared
    host (`mocked_apps.kit.host`) instead of a process of its own, unless `GYMFACTORY_SHARED_APPS=0`.
    """

    def __new__(cls, app: str, *args, **kwargs):
        if cls is AppServer and _hosted_ref(app) is not None:
            cls = HostedAppServer
        return super().__new__(cls)

    def __init__(self, app: str, token: str | None = None, data_dir: Path | None = None):
        self.app = app
        self.token = token or secrets.token_hex(16)
        self.data_dir = Path(data_dir) if data_dir else None
        self.port: int | None = None
        self._proc: subprocess.Popen | None = None
        self._log = None
        self.admin: AdminClient | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> "AppServer":
        for _ in range(PORT_TRIES):
            if self._launch(timeout):
                return self
            if not lost_port_race(self.output()):
                break
        raise AppServerError(f"app server {self.app} exited with {self._proc.returncode}:\n{self.output()}")

    def _launch(self, timeout: float) -> bool:
        """Start on a fresh port: True once it answers, False when it exited; raises when it hangs."""
        self.port = free_port()
        self._log = tempfile.TemporaryFile()
        cmd = [sys.executable, "-m", "mocked_apps.kit", "--app", self.app, "--port", str(self.port), lifeline.FLAG]
        if self.data_dir:
            cmd += ["--data", str(self.data_dir)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(_SECRET_PREFIXES)}
        self._proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**env, "PYTHONUNBUFFERED": "1"},
        )
        self._proc.stdin.write(f"{self.token}\n".encode())  # the token travels on a pipe, never on a command line
        self._proc.stdin.flush()  # and the pipe stays open: the server stops when it closes, with this process (lifeline)
        admin = AdminClient(self.url, self.token)
        if admin.wait_until_up(lambda: self._proc.poll() is None, timeout):
            self.admin = admin
            return True
        admin.close()
        if self._proc.poll() is not None:
            self._proc.stdin.close()
            return False
        self.stop()
        raise AppServerError(f"app server {self.app} did not answer within {timeout:.0f}s:\n{self.output()}")

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def output(self) -> str:
        """What the server printed (its last 4 KB)."""
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def kill(self) -> None:
        """Kill the server abruptly (fault tests)."""
        if self._proc and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait()

    def stop(self) -> None:
        if self.admin:
            self.admin.close()
            self.admin = None
        if self._proc and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGTERM)
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._proc.pid, signal.SIGKILL)
                self._proc.wait()
        if self._proc and self._proc.stdin:
            self._proc.stdin.close()  # its lifeline (see lifeline.py), the last end of the pipe
        self._proc = None

    def restart(self, timeout: float = 60.0) -> "AppServer":
        """A fresh process (all instances are gone; callers re-create what they need)."""
        self.stop()
        return self.start(timeout)

    def __enter__(self) -> "AppServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _hosted_ref(app: str) -> str | None:
    """The spec file of a compiled app that a shared host should serve, or None (an app of its own process)."""
    if not sharing_enabled():
        return None
    ref = str(Path(app).resolve()) if is_spec(app) else compiled().get(app)
    return None if ref is None or has_extension(ref) else ref  # an extension's code gets a process of its own


class HostedAppServer(AppServer):
    """A compiled app on the shared host: the same interface, one process for every compiled app of this parent.

    `kill` kills the host, and so every app on it (as a crash would); `pid` and `output` are the host's.
    """

    def start(self, timeout: float = 60.0) -> "AppServer":
        try:
            self._host = SharedHost.get()
            self.port = self._host.add(_hosted_ref(self.app) or self.app, self.token, self.data_dir)
        except HostError as err:
            raise AppServerError(f"app server {self.app}: {err}") from err
        self.admin = AdminClient(self.url, self.token)
        return self

    def alive(self) -> bool:
        host = getattr(self, "_host", None)
        return host is not None and host.alive() and self.port in host.apps

    @property
    def pid(self) -> int | None:
        host = getattr(self, "_host", None)
        return host.proc.pid if host else None

    def output(self) -> str:
        host = getattr(self, "_host", None)
        return host.output() if host else ""

    def kill(self) -> None:
        host = getattr(self, "_host", None)
        if host is not None:
            host.kill()

    def stop(self) -> None:
        if self.admin:
            self.admin.close()
            self.admin = None
        host = getattr(self, "_host", None)
        if host is not None and self.port is not None:
            host.remove(self.port)
        self._host = None
