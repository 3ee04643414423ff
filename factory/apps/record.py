"""The session record: one JSON line per event (prompts, model turns, tool calls and results, checker reports, usage)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any


class SessionLog:
    """Append-only JSON lines for one synthesis session; `events` keeps them in memory too."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("")
        self.events: list[dict[str, Any]] = []
        self._started = time.monotonic()
        self._lock = threading.Lock()

    def write(self, kind: str, **data: Any) -> None:
        event = {"seq": len(self.events), "t": round(time.monotonic() - self._started, 3), "kind": kind, **data}
        with self._lock:
            self.events.append(event)
            with self.path.open("a") as fh:
                fh.write(json.dumps(event, default=str) + "\n")

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind]


def read_log(path: Path) -> list[dict[str, Any]]:
    """The events of a recorded session."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
