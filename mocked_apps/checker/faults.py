"""Server faults in a report: the app server's tracebacks, and the exception line that names each.

A 500 page says only "Internal Server Error"; the cause is in the server's output, where the kit
numbers each failed request. The checker looks at that output around each step and puts the
newest traceback into the failing law's evidence, and its exception ('Type: message') on the FAIL line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mocked_apps.kit import SERVER_ERROR_MARK

_HEAD = "Traceback (most recent call last):"


def tracebacks(output: str) -> list[str]:
    """Every Python traceback in `output`, each ending with its exception line.

    The server's output is kept as a sliding tail, so the first traceback may have lost its head:
    a run of indented 'File ...' frames followed by an unindented line counts too.
    """
    found: list[str] = []
    block: list[str] = []
    for line in output.splitlines():
        if line.strip() == _HEAD:
            block = [line]
        elif line.startswith((" ", "\t")) or not line.strip():
            if block or line.lstrip().startswith("File "):
                block = block or [_HEAD + "  (its head scrolled out of the server log)"]
                block.append(line)
        elif block:
            if any(b.lstrip().startswith("File ") for b in block):
                found.append("\n".join(b for b in block if b.strip()) + "\n" + line)
            block = []
    return found


def exception_line(text: str) -> str:
    """'Type: message' of the last traceback in `text`, or '' if it holds none."""
    found = tracebacks(text)
    return found[-1].splitlines()[-1].strip() if found else ""


def trimmed(traceback: str, frames: int = 4) -> str:
    """A traceback cut to its last `frames` frames: the app's own code is usually there."""
    lines = traceback.splitlines()
    body = lines[1:-1]
    starts = [i for i, line in enumerate(body) if line.lstrip().startswith("File ")]
    if len(starts) > frames:
        body = ["  …"] + body[starts[-frames]:]
    return "\n".join([lines[0], *body, lines[-1]])


class ServerLog:
    """The app server's numbered request failures (see the kit's SERVER_ERROR_MARK), read from its output tail."""

    def __init__(self, output: Callable[[], str]):
        self._output = output
        self._last = max(self._numbered(output()), default=0)

    @staticmethod
    def _numbered(text: str) -> dict[int, str]:
        """Failure number -> its block ('#N METHOD PATH' and the traceback under it)."""
        parts = re.split(rf"^{re.escape(SERVER_ERROR_MARK)}(\d+) ", text, flags=re.M)
        return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}

    def new_traceback(self) -> str:
        """The newest failure since the previous call: 'METHOD PATH' and its trimmed traceback ('' if none)."""
        blocks = self._numbered(self._output())
        fresh = [n for n in blocks if n > self._last]
        if not fresh:
            return ""
        newest = max(fresh)
        more = f" (the newest of {newest - self._last} failed requests)" if newest - self._last > 1 else ""
        self._last = newest
        request, _, rest = blocks[newest].partition("\n")
        found = tracebacks(rest)
        return f"{request}{more}\n" + (trimmed(found[-1]) if found else rest.strip())


__all__ = ["ServerLog", "exception_line", "tracebacks", "trimmed"]
