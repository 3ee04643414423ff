"""The host's processes as /proc shows them: which are still alive, which belong to a uid (confined runs' fresh uids)."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def gone(pid: int) -> bool:
    """Whether `pid` has ended: no longer listed, or a zombie that an init which never reaps keeps listed."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def owned_by(uid: int) -> list[int]:
    """The live host pids owned by `uid`."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid == uid and not gone(int(entry.name)):
                pids.append(int(entry.name))
        except FileNotFoundError:
            continue
    return pids


def kill_owned_by(uid: int) -> None:
    """SIGKILL every live pid of `uid`; one that ends between the listing and the signal is already what we want."""
    for pid in owned_by(uid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
