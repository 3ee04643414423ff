"""How much of the apps and families the suite checks: all of it with `--full`, else a stable sample.

The suite must stay well under 20 minutes on CI's 2 cores however many apps and families there are,
so the tests that cost browser time per app or per family check every hand-made app and family in
one world and a stable sample of the rest; `scripts/test.sh --full` (or `GYMFACTORY_TEST_FULL=1`)
checks everything (every family in three worlds, every app through the checker, every cheat in the
browser). The sample is chosen by a hash of each name, so one commit always tests the same ones, and
a new app cannot silently push an old one out of the sample without changing the hash order.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

__all__ = ["full", "sample"]


def full() -> bool:
    """Whether this run checks everything (`--full` sets GYMFACTORY_TEST_FULL=1 for the run and its children)."""
    return os.environ.get("GYMFACTORY_TEST_FULL", "0") == "1"


def sample(names: Iterable[str], k: int, always: Iterable[str] = ()) -> list[str]:
    """`always`, plus `k` more of `names` in a stable hash order; every name under `--full`. Sorted."""
    names, always = sorted(set(names)), set(always)
    if full():
        return names
    rest = sorted((n for n in names if n not in always), key=lambda n: hashlib.sha256(n.encode()).hexdigest())
    return sorted([n for n in names if n in always] + rest[:k])
