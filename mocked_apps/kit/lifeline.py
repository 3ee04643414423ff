"""A server process that ends with its parent, even when the parent is killed (SIGKILL runs no cleanup).

The parent writes the token line on the child's standard input and keeps the pipe open for the
child's whole life; the kernel closes it when the parent dies, however it dies. The child reads to
end of file in a thread and then stops itself the way `stop()` would (SIGTERM). Docker's servers
close stdin after the token and do not ask for this: their containers are labelled and reaped.
"""

from __future__ import annotations

import os
import signal
import threading

FLAG = "--stop-with-parent"


def watch_stdin() -> None:
    """Stop this process (SIGTERM to itself) once standard input reaches end of file."""

    def wait() -> None:
        try:  # the descriptor, not sys.stdin: a thread blocked inside the buffered reader holds its lock, and a
            while os.read(0, 4096):  # process that exits for another reason then aborts at shutdown (exit -6)
                pass  # the parent writes nothing more; anything it does is ignored
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=wait, name="gym-lifeline", daemon=True).start()
