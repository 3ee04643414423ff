"""Which rollout attempts keep their screenshots for replay: a sample of them, under a bound on their total size.

Golden runs are demonstrations and keep theirs whole; the other agents' attempts (the random baseline, model
agents, failed or not) are many and mostly alike, so a run keeps a sample of them for replay in the dashboard:
each attempt is in or out of the sample by a hash of its name (the same on a resume), and attempts that start
once the kept screenshots reach the bound keep none. An attempt keeps all its screenshots or none, so every
kept one replays whole; the bound is therefore exceeded by at most the attempts running when it was reached.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Decision", "ReplayBudget", "ReplaySample", "budget_for"]

Decision = Literal["kept", "sampled_out", "over_bound", "off"]
"""Why an attempt has (kept) or has no screenshots: not drawn in the sample, drawn once the bound was reached,
or screenshots off for the whole rollout."""


class ReplaySample(BaseModel):
    """How many non-golden attempts keep their screenshots."""

    model_config = ConfigDict(frozen=True)

    rate: float = Field(default=0.5, ge=0, le=1, description="Share of attempts drawn to keep their screenshots.")
    max_bytes: int = Field(default=200_000_000, ge=0, description="Bound on the total bytes of the kept screenshots.")

    def drawn(self, name: str) -> bool:
        """Whether the attempt called `name` (run, task, attempt index) is in the sample; the same on every call."""
        draw = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") / 2**64
        return draw < self.rate


class ReplayBudget:
    """The running total of one run's kept screenshots, shared by the threads that roll out its attempts."""

    def __init__(self, sample: ReplaySample, used: int = 0):
        self.sample = sample
        self.used = used
        self._lock = threading.Lock()

    def decide(self, name: str) -> Decision:
        """Whether the attempt `name`, about to start, keeps its screenshots."""
        if not self.sample.drawn(name):
            return "sampled_out"
        with self._lock:
            return "kept" if self.used < self.sample.max_bytes else "over_bound"

    def spend(self, nbytes: int) -> None:
        """Count the bytes a kept attempt's screenshots took."""
        with self._lock:
            self.used += nbytes


_budgets: dict[str, ReplayBudget] = {}
_budgets_lock = threading.Lock()


def budget_for(run: str, sample: ReplaySample) -> ReplayBudget:
    """The one budget of `run` in this process: a Ray worker bounds what it keeps of a run with it (each worker by the
    same figure); the local runner passes its budget along instead."""
    with _budgets_lock:
        return _budgets.setdefault(run, ReplayBudget(sample))
