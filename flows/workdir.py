"""The pipeline's output folder: where each stage writes, and which stages are already done.

A stage is done when its marker exists with the same inputs fingerprint; a rerun skips it, so a
pipeline that failed at stage k resumes at k with everything before it kept.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path
from typing import Any


class Workdir:
    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, *parts: str) -> Path:
        p = self.root.joinpath(*parts)
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def _marker(self, stage: str) -> Path:
        return self.path("stages", f"{stage}.json")

    @staticmethod
    def fingerprint(inputs: Any) -> str:
        return hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def done(self, stage: str, inputs: Any) -> dict | None:
        """The stage's recorded summary if it finished with these inputs, else None."""
        marker = self._marker(stage)
        if not marker.is_file():
            return None
        record = json.loads(marker.read_text())
        return record["summary"] if record.get("inputs") == self.fingerprint(inputs) else None

    def finish(self, stage: str, inputs: Any, summary: dict, seconds: float) -> dict:
        record = {"inputs": self.fingerprint(inputs), "summary": summary, "seconds": round(seconds, 2), "at": time.time()}
        self._marker(stage).write_text(json.dumps(record, indent=2, default=str))
        return summary

    def seconds(self, stage: str) -> float | None:
        marker = self._marker(stage)
        return json.loads(marker.read_text()).get("seconds") if marker.is_file() else None

    def reset(self) -> None:
        """Forget every finished stage (outputs are overwritten as stages rerun)."""
        shutil.rmtree(self.root / "stages", ignore_errors=True)
