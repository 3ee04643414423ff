"""`gymfactory flows serve` stops on SIGTERM (a service manager's stop): exit code 0 within seconds, and the
temporary Prefect server it started is stopped with it, whether it was serving or still starting."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flows.interrupt import _descendants
from tests.support.processes import gone

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("when", ["starting", "serving"])
def test_sigterm_stops_serve_and_its_temporary_server(tmp_path, when):
    env = {**os.environ, "GYMFACTORY_HOME": str(tmp_path / "home"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    for name in ("PREFECT_API_URL", "PREFECT_HOME"):
        env.pop(name, None)  # its own temporary server, in its own home
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gymfactory.cli", "flows", "serve"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            started = _descendants(proc.pid)  # the temporary server, once it is started
            if started and (when == "starting" or "being served" in log.read_text()):
                break
            time.sleep(0.2)
        assert started, log.read_text()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
        time.sleep(6)  # the temporary server gets 5 s to stop before it is killed
        assert [pid for pid in started if not gone(pid)] == [], log.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in _descendants(proc.pid):
            os.kill(pid, signal.SIGKILL)
