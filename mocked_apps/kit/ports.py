"""Free loopback ports for app servers (a process of their own, or an app on the shared host)."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


__all__ = ["free_port"]
