"""The replay dashboard over the trajectory store: HTML pages for people, `/api/...` JSON for coding agents."""

from runtime.dashboard.data import TrajectoryView
from runtime.dashboard.events import StepEvent, attempt_events

__all__ = ["StepEvent", "TrajectoryView", "attempt_events"]
