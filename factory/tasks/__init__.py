"""Task synthesis: requirements first, then golden code; the task format lives in `schema`."""

from .schema import Criterion, Task, TaskMeta

__all__ = ["Criterion", "Task", "TaskMeta"]
