"""Importing this module registers gymfactory's Gymnasium ids (`gymfactory/Task-v0` and one per shipped fixture task).

    import gymnasium, gymfactory.envs
    env = gymnasium.make("gymfactory/mail-answer-he-48622-v0")
    env = gymnasium.make("gymfactory/Task-v0", task_file="run/tasks/final.jsonl", task_id="...")

`gymnasium.make("gymfactory.envs:gymfactory/Task-v0", ...)` imports it by itself, and `gymfactory.make` does too.
"""

from __future__ import annotations

from runtime.interop.gym_register import register_shipped

__all__ = ["IDS"]

IDS: list[str] = register_shipped()
