"""gymfactory: mocked apps, verified tasks and GRPO training for GUI agents. The CLI lives in `cli`.

For test authors: `solve_and_score(task, solve)` runs a `solve(env)` program on a task and scores where it ends, and
`judge(task, final)` scores a final (changed or not), both on the one scoring path of rollouts and validation
(footprint guard, then the sandboxed verifier at the task's clock). See docs/security.md.
"""

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"
__all__ = ["Solved", "__version__", "judge", "make", "solve_and_score"]

# name -> module: imported on first use, not at every start of the `gymfactory` command (the runtime takes a second)
_LAZY = {"judge": "runtime.judge", "solve_and_score": "runtime.solve", "Solved": "runtime.solve"}

if TYPE_CHECKING:
    from runtime.judge import judge
    from runtime.solve import Solved, solve_and_score


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gymfactory' has no attribute {name!r}")


def make(env_id: str, **kwargs):
    """`gymnasium.make` with gymfactory's ids registered (`gymfactory.envs`); gymnasium loads only when this is called,
    not at every start of the `gymfactory` command."""
    import gymnasium

    import gymfactory.envs  # noqa: F401  registers the ids

    return gymnasium.make(env_id, **kwargs)
