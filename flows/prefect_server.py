"""Prefect's temporary API server for `gymfactory run`, started here so that a failed start names its cause.

Left to Prefect, the temporary server's output goes nowhere and a failed start reads as a timeout: a server
that crashed at once (exit code 3, a database it cannot open) is restarted again and again as if its port were
taken, one of any other exit code is polled until the start-up timeout passes, and either way the run then
blames a busy machine. Here the server's output goes to a log
file, a crash is reported as soon as it happens with its exit code and the log's last lines, and a real
timeout says what the last health check got.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

LOG_NAME = "prefect-server.log"
"""The temporary server's stdout and stderr, in the run's output folder."""

_EPHEMERAL_ENV = {"PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1"}
"""What Prefect sets for its own temporary server (prefect.server.api.server.SubprocessASGIServer)."""
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class PrefectStartError(RuntimeError):
    """Prefect's temporary server did not come up; the message says why (exit code and log, or the last health check)."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out


@contextmanager
def temporary_server(log_dir: Path, timeout_s: float) -> Iterator[str]:
    """Start Prefect's API server on a free loopback port, wait until it is healthy, and yield its API URL;
    stop it after the block. PrefectStartError, naming the cause, if it exits or stays unhealthy for `timeout_s`."""
    log_dir = Path(log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / LOG_NAME
    port = _free_port()
    url = f"http://127.0.0.1:{port}/api"
    command = [sys.executable, "-m", "uvicorn", "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "error", "--lifespan", "on"]
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env={**os.environ, **_EPHEMERAL_ENV})
    try:
        _wait_healthy(process, url, log_path, timeout_s)
        yield url
    finally:
        _stop(process)


@contextmanager
def serving_prefect(log_dir: Path, timeout_s: float) -> Iterator[str]:
    """A temporary server (as `temporary_server`) that this process's Prefect uses for the block: PREFECT_API_URL
    names it, for the processes started meanwhile and, with Prefect's settings read again, for Prefect here, which
    read its settings when first imported."""
    with temporary_server(log_dir, timeout_s) as url:
        os.environ["PREFECT_API_URL"] = url
        _reread_settings()
        try:
            yield url
        finally:
            os.environ.pop("PREFECT_API_URL", None)
            _reread_settings()


def _reread_settings() -> None:
    """Have Prefect read its settings from the environment again (the CLI imported it, with the flows, already)."""
    from prefect.context import refresh_global_settings_context

    refresh_global_settings_context()


def _wait_healthy(process: subprocess.Popen, url: str, log_path: Path, timeout_s: float) -> None:
    """Return once GET {url}/health answers 200; raise PrefectStartError when the process exits or time runs out."""
    deadline = time.monotonic() + timeout_s
    last = "no answer yet"
    with httpx.Client(timeout=5) as client:
        while True:
            code = process.poll()
            if code is not None:
                cause = _cause(log_path)
                if cause:
                    raise PrefectStartError(f"Prefect's temporary server exited with code {code} before it answered: {cause} "
                                            f"(its log: {log_path})")
                raise PrefectStartError(f"Prefect's temporary server exited with code {code} before it answered; its log "
                                        f"({log_path}) ends:\n{tail(log_path) or '(empty)'}")
            try:
                response = client.get(f"{url}/health")
            except httpx.HTTPError as err:
                last = f"{type(err).__name__}: {err}"
            else:
                if response.status_code == 200:
                    return
                last = f"HTTP {response.status_code}: {response.text[:200]}"
            if time.monotonic() > deadline:
                raise PrefectStartError(f"Prefect's temporary server (pid {process.pid}) did not answer {url}/health within "
                                        f"{timeout_s:.0f} s; the last check got {last}; its log ({log_path}) ends:\n"
                                        f"{tail(log_path) or '(empty)'}", timed_out=True)
            time.sleep(0.2)


def tail(path: Path, lines: int = 8) -> str:
    """The last non-empty lines of a log, colour codes dropped."""
    try:
        text = _ANSI.sub("", path.read_text(errors="replace"))
    except OSError:
        return ""
    return "\n".join([line for line in text.splitlines() if line.strip()][-lines:])


def _cause(log_path: Path) -> str:
    """'ExceptionType: message' of the last exception the log shows, or ''."""
    found = [line.strip() for line in tail(log_path, 200).splitlines() if _EXCEPTION.match(line.strip())]
    return found[-1] if found else ""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


__all__ = ["LOG_NAME", "PrefectStartError", "serving_prefect", "tail", "temporary_server"]
