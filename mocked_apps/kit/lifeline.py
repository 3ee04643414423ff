"""A server process that ends with its parent, even when the parent is killed (SIGKILL runs no cleanup).

The parent writes the token line on the child's standard input and keeps the pipe open for the
child's whole life; the kernel closes it when the parent dies, however it dies. The child reads to
end of file in a thread and then stops itself the way `stop()` would (SIGTERM). Docker's servers
close stdin after the token and do not ask for this: their containers are labelled and reaped.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

FLAG = "--stop-with-parent"


def watch_stdin() -> None:
    """Stop this process (SIGTERM to itself) once standard input reaches end of file."""

    def wait() -> None:
        try:
            while sys.stdin.buffer.read1(4096):
                pass  # the parent writes nothing more; anything it does is ignored
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="gym-lifeline", daemon=True).start()
