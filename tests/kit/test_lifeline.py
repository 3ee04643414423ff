"""An app server ends with the process that started it, also when that process is killed (no cleanup runs)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import gone

ROOT = Path(__file__).resolve().parents[2]

_PARENT = """
import sys, time
from mocked_apps.kit import AppServer
server = AppServer(sys.argv[1]).start()
print(server.pid if server.pid is not None else "", flush=True)
time.sleep(600)
"""


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


@pytest.mark.parametrize("app", ["mail", "autoshop"])  # a hand-made app's own process; a compiled app's shared host
def test_a_killed_parent_takes_its_app_server_with_it(app):
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, app], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        line = parent.stdout.readline()
        assert parent.poll() is None, "the parent did not start the server"
        servers = _children(parent.pid)
        assert servers, "no server process under the parent"
        assert line.strip() == "" or int(line) in servers
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 20
        while not all(gone(pid) for pid in servers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in servers if not gone(pid)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)  # do not leave it running if the assertion below fails
        assert not left, f"server processes {left} outlived their killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
