"""How a long command is stopped: Ctrl-C (SIGINT) and SIGTERM both raise KeyboardInterrupt, so its cleanup runs."""

from __future__ import annotations

import signal

__all__ = ["interrupt_on_signals"]


def interrupt_on_signals() -> None:
    """SIGINT and SIGTERM raise KeyboardInterrupt in the main thread, even where the process was started with SIGINT
    ignored (a non-interactive shell's `cmd &` does that, and Python then installs no handler of its own)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupt(*_) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
