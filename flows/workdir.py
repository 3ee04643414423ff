"""The pipeline's output folder: where each stage writes, and which stages are already done.

A stage is done when its marker exists with the same inputs fingerprint; a rerun skips it, so a
pipeline that failed at stage k resumes at k with everything before it kept. A marker is written
whole or not at all (a temporary file, then a rename); one that cannot be read is named, with the
way out, before any stage starts.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path
from typing import Any

from contracts.errors import InputError
from runtime.store import StoreCorrupt, TrajectoryStore

TRAJECTORIES = ("rollouts", "trajectories.db")  # the rollouts stages' store: attempts resume from it


class MarkerCorrupt(InputError):
    """A stage marker that is not the JSON record `finish` writes; the message names the file and the way out."""


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
        record = self._record(stage)
        return record["summary"] if record is not None and record.get("inputs") == self.fingerprint(inputs) else None

    def finish(self, stage: str, inputs: Any, summary: dict, seconds: float) -> dict:
        record = {"inputs": self.fingerprint(inputs), "summary": summary, "seconds": round(seconds, 2), "at": time.time()}
        marker = self._marker(stage)
        partial = marker.with_name(f".{marker.name}.partial")
        partial.write_text(json.dumps(record, indent=2, default=str))
        partial.replace(marker)  # atomic: a stop mid-write leaves no half marker that reads as finished
        return summary

    def seconds(self, stage: str) -> float | None:
        record = self._record(stage)
        return record.get("seconds") if record is not None else None

    def check(self) -> None:
        """What a rerun reads back can be read: every stage marker, the trajectory store; else an InputError naming the
        first bad file and the way out (call before starting stages)."""
        folder = self.root / "stages"
        for marker in sorted(folder.glob("*.json")) if folder.is_dir() else ():
            self._record(marker.stem)
        store = self.root.joinpath(*TRAJECTORIES)
        if store.is_file():
            try:
                TrajectoryStore(store).close()
            except StoreCorrupt as err:
                raise StoreCorrupt(f"{store} is not a readable trajectory store; rerun with --fresh to start over, "
                                   "or delete that file to redo the rollouts") from err

    def _record(self, stage: str) -> dict | None:
        marker = self._marker(stage)
        if not marker.is_file():
            return None
        try:
            record = json.loads(marker.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise MarkerCorrupt(f"stage marker {marker} is corrupt ({err}); rerun with --fresh to start over, "
                                "or delete that file to redo only its stage") from None
        if not isinstance(record, dict) or not isinstance(record.get("summary"), dict):
            raise MarkerCorrupt(f"stage marker {marker} is not a stage record; rerun with --fresh to start over, "
                                "or delete that file to redo only its stage")
        return record

    def reset(self) -> None:
        """Forget every finished stage, the stored attempts and the run's own screenshots (other outputs are overwritten as
        stages rerun)."""
        shutil.rmtree(self.root / "stages", ignore_errors=True)
        shutil.rmtree(self.root / "objects", ignore_errors=True)
        store = self.root.joinpath(*TRAJECTORIES)
        for path in (store, store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
            path.unlink(missing_ok=True)  # else the rerun's rollouts would resume from them instead of starting over
