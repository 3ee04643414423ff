"""Another process takes a server's port between `free_port` and the server's bind (it happened in CI, under load).

The server then exits; it must exit cleanly (not abort on its lifeline thread), and the parent must start it
again on another port instead of reporting a dead environment.
"""

from __future__ import annotations

import socket
import subprocess
import sys

from mocked_apps.kit import host, process
from mocked_apps.kit.ports import free_port, lost_port_race
from mocked_apps.kit.process import AppServer
from mocked_apps.kit.host import SharedHost

def _taken() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock

def test_a_server_whose_port_is_taken_exits_and_says_why_not_an_abort():
    with _taken() as sock:
        port = sock.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-m", "mocked_apps.kit", "--app", "mocked_apps.notes", "--port", str(port), "--stop-with-parent"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        proc.stdin.write(b"0123456789abcdef0123\n")
        proc.stdin.flush()  # and kept open, as AppServer does: the lifeline thread is blocked reading it when the bind fails
        output = proc.stdout.read().decode(errors="replace")
        proc.wait(timeout=60)
        proc.stdin.close()
    assert proc.returncode > 0, output  # an exit, not a signal: the lifeline thread read through the buffered stdin once, and the exit aborted (-6)
    assert lost_port_race(output) and "Fatal Python error" not in output

def _first_taken(monkeypatch, module, sock):
    ports = iter([sock.getsockname()[1]])
    monkeypatch.setattr(module, "free_port", lambda: next(ports, None) or free_port())

def test_an_app_server_that_lost_its_port_starts_again_on_another(monkeypatch):
    with _taken() as sock:
        _first_taken(monkeypatch, process, sock)
        server = AppServer("mocked_apps.notes").start()
        try:
            assert server.port != sock.getsockname()[1]
            assert server.alive() and server.admin is not None  # it answered its admin health check
        finally:
            server.stop()

def test_the_shared_host_that_lost_its_port_starts_again_on_another(monkeypatch):
    with _taken() as sock:
        _first_taken(monkeypatch, host, sock)
        shared = SharedHost()
        try:
            assert shared.port != sock.getsockname()[1] and shared.alive()
        finally:
            shared.kill()

def test_a_server_that_fails_for_another_reason_is_not_retried():
    try:
        AppServer("tests/fixtures/apps/no-such-app").start(timeout=30)
    except process.AppServerError as err:
        assert "exited with" in str(err) and not lost_port_race(str(err))
    else:
        raise AssertionError("an app that does not exist started")
