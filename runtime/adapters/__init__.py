"""Outside benchmarks behind the environment manager's session operations (MiniWoB++), run by the one harness."""

from __future__ import annotations

__all__ = ["miniwob", "benchmark"]
