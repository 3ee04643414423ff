"""Seen from the host, a confined process is the run's fresh uid with no groups and no capabilities, never root."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from runtime import confine
from tests.support.processes import kill_owned_by, owned_by


def _status(pid: int) -> dict[str, str]:
    return dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping root needs root")
def test_the_confined_process_is_the_fresh_uid_with_no_groups():
    scratch = Path(tempfile.mkdtemp(prefix="gf-user-test-"))
    user = confine.RunUser.fresh()
    user.own(scratch)
    groups = os.getgroups()
    os.setgroups([*groups, 4])  # a supplementary group of root's (adm) that the run must not keep
    try:
        proc = confine.popen(["sleep", "30"], writable=scratch, inside="/work", user=user, stdout=subprocess.DEVNULL)
    finally:
        os.setgroups(groups)
    try:
        deadline = time.monotonic() + 10
        while _status(proc.pid)["Name"].strip() != "bwrap" and time.monotonic() < deadline:
            time.sleep(0.01)  # setpriv, then prlimit, exec into bwrap under the same pid
        status = _status(proc.pid)
        assert status["Name"].strip() == "bwrap"
        assert status["Uid"].split() == [str(user.uid)] * 4 and status["Gid"].split() == [str(user.uid)] * 4
        assert status["Groups"].split() == []  # root's supplementary groups dropped too
        assert int(status["CapEff"], 16) == 0 and int(status["CapPrm"], 16) == 0
    finally:
        proc.kill()
        proc.wait()
        kill_owned_by(user.uid)  # bwrap's inner process, if it had not yet armed --die-with-parent
        shutil.rmtree(scratch, ignore_errors=True)



@pytest.mark.skipif(os.geteuid() != 0, reason="dropping root needs root")
def test_a_run_killed_at_once_leaves_no_process_of_its_uid():
    """Killed in its first milliseconds, bwrap's inner process may not have armed --die-with-parent: the sweep of the
    run's uid takes it too (one such process outlived a run killed that early)."""
    for i in range(60):
        scratch = Path(tempfile.mkdtemp(prefix="gf-user-test-"))
        user = confine.RunUser.fresh()
        user.own(scratch)
        proc = confine.popen(["sleep", "30"], writable=scratch, inside="/work", user=user, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while _status(proc.pid)["Name"].strip() != "bwrap" and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep((i % 6) * 0.0005)  # 0-2.5 ms into bwrap: where its inner process may not yet die with it
            proc.kill()
            proc.wait()
            user.kill_all()
            deadline = time.monotonic() + 5
            while owned_by(user.uid) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert owned_by(user.uid) == []
        finally:
            kill_owned_by(user.uid)
            shutil.rmtree(scratch, ignore_errors=True)

