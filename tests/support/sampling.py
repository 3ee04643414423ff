"""How much of the apps and families the suite checks: all of it with `--full`, else a sample.

The suite must stay well under 20 minutes on CI's 2 cores however many apps and families there are,
so the tests that cost browser time per app or per family check a sample of them;
`scripts/test.sh --full` (or `GYMFACTORY_TEST_FULL=1`) checks everything (every family in three
worlds, every app through the checker, every cheat replayed in the browser).

The sample is drawn by a hash of each name salted with the commit under test: the same commit
always tests the same names (a failure reproduces), and each new commit tests others, so over a
project's commits every app and family is sampled. `GYMFACTORY_TEST_SAMPLE_SALT` sets the salt, to
rerun the sample of another commit (a test's failure message names it).
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path

__all__ = ["full", "sample", "salt"]

ROOT = Path(__file__).resolve().parents[2]


def full() -> bool:
    """Whether this run checks everything (`--full` sets GYMFACTORY_TEST_FULL=1 for the run and its children)."""
    return os.environ.get("GYMFACTORY_TEST_FULL", "0") == "1"


@functools.cache
def salt() -> str:
    """`GYMFACTORY_TEST_SAMPLE_SALT`, else the commit under test (`git rev-parse HEAD`), else nothing."""
    if "GYMFACTORY_TEST_SAMPLE_SALT" in os.environ:
        return os.environ["GYMFACTORY_TEST_SAMPLE_SALT"]
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def sample(names: Iterable[str], k: int, always: Iterable[str] = ()) -> list[str]:
    """`always`, plus `k` more of `names` in the salted hash order; every name under `--full`. Sorted."""
    names, always = sorted(set(names)), set(always)
    if full():
        return names
    rest = sorted((n for n in names if n not in always), key=lambda n: hashlib.sha256(f"{salt()}:{n}".encode()).hexdigest())
    return sorted([n for n in names if n in always] + rest[:k])
