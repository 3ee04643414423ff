"""Contract 4's attempt status: how every attempt ends, and which statuses speak about the agent."""

from __future__ import annotations

from typing import Literal

__all__ = ["INTERRUPTED", "SCORED", "Status"]

Status = Literal["success", "failure", "env_error", "interrupted"]
"""`success`/`failure`: the agent's; `env_error`: infrastructure (never trained on, re-run in evaluation)."""

INTERRUPTED = "interrupted"  # the run stopped before the attempt finished: neither the agent's result nor an env fault
SCORED = frozenset({"success", "failure"})  # the statuses that say something about the agent (rates, training)
