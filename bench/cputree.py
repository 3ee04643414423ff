"""CPU seconds of this process and everything it started, split by kind, from /proc.

`resource.getrusage(RUSAGE_CHILDREN)` counts only children we reaped ourselves; Chromium's
processes are children of Playwright's driver and are never reaped by us, so a bench that reads
rusage alone misses the browser, which is most of the work. Live descendants are read from
/proc (their own time plus that of the children they reaped); children that already exited and
were reaped by us come from rusage.
"""

from __future__ import annotations

import os
import resource
from collections import Counter, defaultdict

_TICK = os.sysconf("SC_CLK_TCK")


def _kind(cmdline: str) -> str:
    if "chrom" in cmdline:
        return "chromium"
    if "playwright" in cmdline or cmdline.startswith("node") or "/node " in cmdline:
        return "playwright driver"
    if "mocked_apps" in cmdline:
        return "app servers"
    if "bwrap" in cmdline or "python3 -I" in cmdline:
        return "sandboxes"
    return "other"


def cpu_by_kind() -> Counter:
    """Cumulative CPU seconds by kind: this process, its live descendants, and reaped children."""
    parents: dict[int, list[int]] = defaultdict(list)
    info: dict[int, tuple[str, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # exited while we looked
        parents[int(fields[1])].append(int(name))
        info[int(name)] = (cmdline, sum(int(x) for x in fields[11:15]) / _TICK)
    totals: Counter = Counter()
    me = os.getpid()
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    totals["this process"] = own.ru_utime + own.ru_stime
    totals["sandboxes"] += reaped.ru_utime + reaped.ru_stime  # short-lived children we reaped: sandbox runs
    stack = list(parents[me])
    while stack:
        pid = stack.pop()
        stack += parents[pid]
        if pid in info:
            cmdline, seconds = info[pid]
            # its own time plus its reaped (dead) children's: live children are counted on their own
            totals[_kind(cmdline)] += seconds
    return totals


__all__ = ["cpu_by_kind"]
