"""Prefect's temporary server for `gymfactory run`: a start that fails says why (the server's exit code and the
exception its log ends with, or the last health check's answer), at once rather than after the whole timeout;
a start that works serves the API and stops with the block."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from flows.prefect_server import LOG_NAME, PrefectStartError, serving_prefect, temporary_server

ROOT = Path(__file__).resolve().parents[2]
_NO_DATABASE = "sqlite+aiosqlite:////nonexistent-gymfactory-folder/prefect.db"
"""A database the server cannot open: its folder does not exist, so the server's start-up fails."""


@pytest.fixture
def prefect_env(tmp_path, monkeypatch):
    """A Prefect home of the test's own, and no API URL or database from the caller's environment."""
    for name in ("PREFECT_API_URL", "PREFECT_API_DATABASE_CONNECTION_URL", "PREFECT_SERVER_DATABASE_CONNECTION_URL"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "prefect-home"
    home.mkdir()
    monkeypatch.setenv("PREFECT_HOME", str(home))
    monkeypatch.setenv("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    return monkeypatch


def test_a_server_that_crashes_is_reported_at_once_with_its_exit_code_and_exception(tmp_path, prefect_env):
    prefect_env.setenv("PREFECT_API_DATABASE_CONNECTION_URL", _NO_DATABASE)
    began = time.monotonic()
    with pytest.raises(PrefectStartError) as caught:
        with temporary_server(tmp_path / "run", timeout_s=600):
            pytest.fail("the server came up on a database it cannot open")
    message = str(caught.value)
    assert time.monotonic() - began < 300  # the crash itself, not the 600 s timeout
    assert message.startswith("Prefect's temporary server exited with code 3 before it answered: ")
    assert "OperationalError" in message and "unable to open database file" in message, message
    assert str(tmp_path / "run" / LOG_NAME) in message and not caught.value.timed_out
    assert "Application startup failed" in (tmp_path / "run" / LOG_NAME).read_text()


def test_a_server_not_healthy_in_time_names_the_last_health_check_and_is_stopped(tmp_path, prefect_env):
    with pytest.raises(PrefectStartError) as caught:
        with temporary_server(tmp_path, timeout_s=0.3):  # far less than any start takes
            pytest.fail("the server answered within 0.3 s")
    message = str(caught.value)
    assert caught.value.timed_out and "did not answer http://127.0.0.1:" in message and "/api/health within 0 s" in message
    assert "the last check got ConnectError" in message, message
    pid = int(message.split("(pid ", 1)[1].split(")", 1)[0])
    assert not Path(f"/proc/{pid}").exists()  # stopped and reaped, not left running


def test_a_server_that_starts_is_the_one_prefect_uses_until_the_block_ends(tmp_path, prefect_env):
    # A fresh process, as the CLI is: another test's Prefect server, set in this worker's settings, would take precedence here
    script = f"""
import os, httpx, pytest
from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_URL
from flows.prefect_server import serving_prefect
from pathlib import Path

PREFECT_API_URL.value()  # Prefect is imported, with its settings read, before the server starts (as the CLI does)
with serving_prefect(Path({str(tmp_path)!r}), timeout_s=600) as url:
    assert httpx.get(f"{{url}}/health", timeout=30).status_code == 200
    assert os.environ["PREFECT_API_URL"] == url == PREFECT_API_URL.value(), (url, PREFECT_API_URL.value())
    with get_client(sync_client=True) as client:  # a client of this process's Prefect talks to it
        assert str(client.api_url).rstrip("/") == url and client.api_healthcheck() is None
assert "PREFECT_API_URL" not in os.environ and PREFECT_API_URL.value() is None
with pytest.raises(httpx.ConnectError):
    httpx.get(f"{{url}}/health", timeout=5)
print("served and stopped")
"""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0 and "served and stopped" in done.stdout, done.stderr[-3000:]


def test_gymfactory_run_says_what_failed_in_one_error_and_no_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PREFECT_API_URL", "PREFECT_HOME")}
    env.update(GYMFACTORY_HOME=str(tmp_path / "home"), PREFECT_SERVER_ANALYTICS_ENABLED="false",
               PREFECT_API_DATABASE_CONNECTION_URL=_NO_DATABASE)
    out = tmp_path / "run"
    command = [sys.executable, "-m", "gymfactory.cli", "run", "--out", str(out), "--tasks", "1", "--agent", "golden"]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    first = next(line for line in result.stderr.splitlines() if line.startswith("error: "))
    assert first.startswith("error: Prefect's temporary server exited with code 3 before it answered: "), result.stderr
    assert "unable to open database file" in first and str(out / LOG_NAME) in first
    assert "did not start within" not in result.stderr
