"""Task sampling: a success estimate per task decides how many attempts it gets (DESIGN.md, RL)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class _Stats:
    attempts: int = 0
    successes: int = 0


@dataclass
class TaskSampler:
    """Unseen and sometimes-solved tasks get a full group; never-solved 4; mastered (> 0.8) 2."""

    group_size: int = 8
    never_solved: int = 4
    mastered: int = 2
    mastered_above: float = 0.8
    seed: int = 0
    _stats: dict[str, _Stats] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def success_rate(self, task_id: str) -> float | None:
        """Observed success rate, or None for an unseen task."""
        s = self._stats.get(task_id)
        return None if s is None or s.attempts == 0 else s.successes / s.attempts

    def budget(self, task_id: str) -> int:
        """Attempts (group size) for this task's next group."""
        rate = self.success_rate(task_id)
        if rate is None:
            return self.group_size
        if rate == 0:
            return min(self.never_solved, self.group_size)
        if rate > self.mastered_above:
            return min(self.mastered, self.group_size)
        return self.group_size

    def update(self, task_id: str, successes: list[bool]) -> None:
        """Record a group's outcomes (env_error attempts must not be passed in)."""
        s = self._stats.setdefault(task_id, _Stats())
        s.attempts += len(successes)
        s.successes += sum(bool(x) for x in successes)

    def sample(self, task_ids: list[str], n_tasks: int) -> list[tuple[str, int]]:
        """Pick `n_tasks` tasks (shuffled, without replacement while possible) with their budgets."""
        if not task_ids:
            raise ValueError("no tasks to sample from")
        order = list(task_ids)
        self._rng.shuffle(order)
        picks = [order[i % len(order)] for i in range(n_tasks)]
        return [(t, self.budget(t)) for t in picks]

    def state(self) -> dict[str, dict[str, int]]:
        """JSON-able statistics, for checkpoints."""
        return {k: {"attempts": v.attempts, "successes": v.successes} for k, v in self._stats.items()}

    def load_state(self, state: dict[str, dict[str, int]]) -> None:
        self._stats = {k: _Stats(**v) for k, v in state.items()}
