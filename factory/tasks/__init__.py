"""Task synthesis: requirements first, then golden code; the task format lives in `contracts.task`."""

from contracts.task import Criterion, Task, TaskMeta

__all__ = ["Criterion", "Task", "TaskMeta"]
