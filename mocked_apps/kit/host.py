"""A shared host: one server process that serves many compiled apps, each on its own loopback port.

Compiled apps keep their tables in namespaces of their own, so any number of them fit in one Python
process: 40 apps cost one interpreter (FastAPI, SQLAlchemy, Jinja2 loaded once), not 40. Each app
still has its own origin (`http://127.0.0.1:PORT`), admin token and instance store, so to the
checker, the runtime and the agent it is exactly an app server (Contract 1).

`python -m mocked_apps.kit.host --port N < token` runs the host; its control API (header
`X-Gym-Host-Token`) adds an app (`POST /_host/apps`) and removes one (`DELETE /_host/apps/{port}`).
`SharedHost` is the parent's handle: one host per parent process, started on first use.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from . import lifeline
from .package import load_package
from .ports import PORT_TRIES, free_port, lost_port_race
from .server import create_server

HOST_TOKEN_HEADER = "X-Gym-Host-Token"
_SECRET_PREFIXES = ("OPENAI_", "ANTHROPIC_", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "AWS_SECRET")


class HostError(RuntimeError):
    """The shared host did not start, died, or refused an app; the message carries its last output."""


def sharing_enabled() -> bool:
    """Compiled apps share a host unless `GYMFACTORY_SHARED_APPS=0`."""
    return os.environ.get("GYMFACTORY_SHARED_APPS", "1") != "0"


# ---- the host process ---------------------------------------------------------------------------
def _host_app(token: str):
    import uvicorn
    from fastapi import Body, FastAPI, Header, HTTPException

    class _Quiet(uvicorn.Server):
        """An app's server inside the host: the host, not each app, handles signals."""

        @contextlib.contextmanager
        def capture_signals(self):
            yield

    control = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    hosted: dict[int, tuple[_Quiet, asyncio.Task, tempfile.TemporaryDirectory | None]] = {}

    def guard(x_gym_host_token: str | None) -> None:
        if not x_gym_host_token or not secrets.compare_digest(x_gym_host_token, token):
            raise HTTPException(401, "wrong host token")

    @control.get("/_host/health")
    def health(x_gym_host_token: str | None = Header(default=None)) -> dict:
        guard(x_gym_host_token)
        return {"ok": True, "apps": len(hosted), "pid": os.getpid()}

    @control.post("/_host/apps")
    async def add(body: dict = Body(...), x_gym_host_token: str | None = Header(default=None)) -> dict:
        guard(x_gym_host_token)
        try:  # a spec that does not compile, a package that does not import: the reason goes back to the caller
            package = load_package(body["ref"])
            own = None if body.get("data") else tempfile.TemporaryDirectory(prefix=f"gym-{package.name}-")
            app = create_server(package, body["token"], Path(body.get("data") or own.name))
        except Exception as err:  # noqa: BLE001 - any load error is the app's, and is answered, not raised
            raise HTTPException(422, f"{body['ref']} does not load: {type(err).__name__}: {err}") from None
        sock = socket.socket()  # bound here, so no other process can take the port between its choice and the bind
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = _Quiet(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="on"))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if task.done():
            raise HTTPException(500, f"app {package.name} did not start: {task.exception()!r}")
        hosted[port] = (server, task, own)
        return {"port": port, "app": package.name}

    @control.delete("/_host/apps/{port}")
    async def remove(port: int, x_gym_host_token: str | None = Header(default=None)) -> dict:
        guard(x_gym_host_token)
        entry = hosted.pop(port, None)
        if entry is None:
            raise HTTPException(404, "no app on that port")
        server, task, own = entry
        server.should_exit = True
        await task
        if own is not None:
            own.cleanup()
        return {"ok": True, "apps": len(hosted)}

    return control, hosted


def main(argv: list[str] | None = None) -> None:
    """Run the host until SIGTERM; every hosted app stops with it."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument(lifeline.FLAG, action="store_true", help="stop when standard input ends after the token (the parent died)")
    args = parser.parse_args(argv)
    token = sys.stdin.buffer.readline().decode().strip()
    if len(token) < 16:
        parser.error("the host token (16+ characters) must be the first line of standard input")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.stop_with_parent:
        lifeline.watch_stdin()
    control, hosted = _host_app(token)
    try:
        uvicorn.run(control, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)
    finally:
        for _server, _task, own in hosted.values():
            if own is not None:
                own.cleanup()


# ---- the parent's handle ------------------------------------------------------------------------
class SharedHost:
    """The host process of this parent process: started on first `add`, stopped when its last app is removed."""

    _lock = threading.Lock()
    _current: "SharedHost | None" = None

    def __init__(self):
        self.token = secrets.token_hex(16)
        for _ in range(PORT_TRIES):
            if self._launch():
                return
            if not lost_port_race(self.output()):
                break
        raise HostError(f"the shared app host exited with {self.proc.returncode}:\n{self.output()}")

    def _launch(self) -> bool:
        """Start the host on a fresh port: True once it answers, False when it exited; raises when it hangs."""
        self.port = free_port()
        self._log = tempfile.TemporaryFile()
        env = {k: v for k, v in os.environ.items() if not k.startswith(_SECRET_PREFIXES)}
        self.proc = subprocess.Popen([sys.executable, "-m", "mocked_apps.kit.host", "--port", str(self.port), lifeline.FLAG],
                                     stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True, env={**env, "PYTHONUNBUFFERED": "1"})
        self.proc.stdin.write(f"{self.token}\n".encode())
        self.proc.stdin.flush()  # and kept open: the host stops when it closes, with this process (lifeline)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", headers={HOST_TOKEN_HEADER: self.token}, timeout=60)
        self.apps: set[int] = set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.http.close()
                self.proc.stdin.close()
                return False
            try:
                if self.http.get("/_host/health", timeout=1).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise HostError(f"the shared app host did not answer within 60s:\n{self.output()}")

    @classmethod
    def get(cls) -> "SharedHost":
        with cls._lock:
            if cls._current is None or not cls._current.alive():
                cls._current = SharedHost()
            return cls._current

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")[-4000:]

    def add(self, ref: str, token: str, data_dir: Path | None) -> int:
        """Serve the app `ref` (a spec file) with admin `token`; answers its port."""
        try:
            response = self.http.post("/_host/apps", json={"ref": ref, "token": token, "data": str(data_dir) if data_dir else None})
        except httpx.HTTPError as err:
            raise HostError(f"the shared app host is unreachable: {err}\n{self.output()}") from err
        if response.status_code == 422:  # the app's own fault (a spec that does not compile): its reason alone
            raise HostError(str(response.json().get("detail", response.text)))
        if response.status_code != 200:
            raise HostError(f"the shared app host refused {ref}: {response.status_code} {response.text[:300]}\n{self.output()}")
        port = response.json()["port"]
        with self._lock:
            self.apps.add(port)
        return port

    def remove(self, port: int) -> None:
        """Stop the app on `port`; the host itself stops with its last app."""
        with self._lock:
            self.apps.discard(port)
            last = not self.apps
        if self.alive():
            with contextlib.suppress(httpx.HTTPError):
                self.http.delete(f"/_host/apps/{port}")
        if last:
            self.stop()

    def kill(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        with SharedHost._lock:
            if SharedHost._current is self:
                SharedHost._current = None
        self.http.close()
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stdin:
            self.proc.stdin.close()


if __name__ == "__main__":
    main()

__all__ = ["HOST_TOKEN_HEADER", "HostError", "SharedHost", "main", "sharing_enabled"]
