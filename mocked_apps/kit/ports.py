"""Free loopback ports for app servers (a process of their own, or an app on the shared host)."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def lost_port_race(output: str) -> bool:
    """Whether a server exited because another process took its port between `free_port` and its bind."""
    return "address already in use" in output.lower() or "errno 98" in output.lower()


PORT_TRIES = 5  # a free port is taken by another process between the probe and the bind now and then, under load


__all__ = ["PORT_TRIES", "free_port", "lost_port_race"]
