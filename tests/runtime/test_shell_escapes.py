"""The agent's shell() as an attacker uses it: every escape an RL policy could find is refused.

Each test runs real commands through a real session (notes app server, Chromium, bubblewrap) and
checks the effect from outside: the host network, the admin API, the instance database, other
folders and processes. A refused escape is the agent's failure, never an env_error.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import time
from pathlib import Path

import pytest

from runtime.backends.local import LocalBackend
from runtime.manager import EnvironmentManager, SessionSpec
from runtime.shell import MAX_WORKSPACE_BYTES, WORKSPACE_CRITERION
from tests.runtime.notes_tasks import NOTES, create_note_task
from tests.support.processes import owned_by


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("instances")


@pytest.fixture(scope="module")
def manager(data_dir, tmp_path_factory):
    backend = LocalBackend(data_dir=data_dir)
    with EnvironmentManager(backend=backend) as m:
        yield m


@pytest.fixture()
def session(manager):
    task = create_note_task("Escape", files={"notes/todo.txt": "buy milk\n"})
    s = manager.request(SessionSpec.for_task(task, screenshots=False))
    s.reset(task)
    yield s
    s.close()


def _sh(session, command: str):
    return session.step(f"shell({command!r})")


def test_runs_unprivileged_with_no_capabilities(session):
    obs = _sh(session, "id -u; grep CapEff /proc/self/status; ls /")
    lines = obs.shell_output.splitlines()
    assert lines[0] == "65534" and lines[1].split()[1] == "0000000000000000"
    assert "root" not in lines[2:] and "work" not in lines[2:]  # no /root, no project checkout


def test_network_is_closed_and_nsenter_cannot_reopen_it(manager, session):
    port = manager.backend.server(NOTES).port
    connect = f"python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=2); print(\"REACHED\")'"
    for command in (connect, f"nsenter -t 1 -n {connect}", f"nsenter -t $PPID -n -U {connect}", f"unshare -n {connect}"):
        obs = _sh(session, command)
        assert "REACHED" not in obs.shell_output and obs.last_action_error, command


def test_no_admin_token_anywhere_the_shell_can_look(manager, session):
    token = manager.backend.server(NOTES).token
    obs = _sh(session, "cat /proc/*/cmdline /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; env; ls /proc | grep -c '^[0-9]'")
    assert token not in obs.shell_output
    assert int(obs.shell_output.splitlines()[-1]) <= 4  # only the sandbox's own few processes are visible
    for pid in (os.getpid(), manager.backend.server(NOTES).pid):  # nor on the host: not on any command line
        assert token not in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")


def test_instance_database_cannot_be_written_so_the_cheat_scores_zero(data_dir, session):
    instance = session.instances[0]
    [db] = list(data_dir.rglob(f"{instance.instance_id}.db"))
    cheat = (f"python3 -c \"import sqlite3; c = sqlite3.connect('{db}'); "
             "c.execute(\\\"insert into note (title, body) values ('Escape', '')\\\"); c.commit()\"")
    obs = _sh(session, cheat)
    assert obs.last_action_error
    _sh(session, "find / -path /usr -prune -o -name '*.db' -print 2>/dev/null > found.txt")
    assert session.final().files["found.txt"] == ""
    with sqlite3.connect(db) as con:
        assert ("Escape",) not in con.execute("select title from note").fetchall()
    outcome = session.evaluate()
    assert outcome.status == "failure" and not outcome.success


def test_task_files_home_other_workspaces_and_parent_environ_are_invisible(manager, session, tmp_path):
    secret = tmp_path / "task.json"
    secret.write_text('{"verifier": "SECRET-VERIFIER"}')
    other = manager.request(SessionSpec.for_task(create_note_task("Other", files={"mine.txt": "OTHER-SESSION"}), screenshots=False))
    other.reset(create_note_task("Other", files={"mine.txt": "OTHER-SESSION"}))
    try:
        paths = [secret, Path.home() / ".gymfactory", other.workspace / "mine.txt", session.workspace.parent,
                 Path(f"/proc/{os.getpid()}/environ"), Path("/etc/shadow")]
        command = "; ".join(f"cat {shlex.quote(str(p))} 2>&1; ls {shlex.quote(str(p))} 2>&1" for p in paths)
        obs = _sh(session, command + "; ls ..; cat /etc/passwd")
        out = obs.shell_output
        assert "SECRET-VERIFIER" not in out and "OTHER-SESSION" not in out and "PATH=" not in out
        assert out.count("No such file or directory") >= 2 * len(paths) - 1
        assert "root:x:0:0" in out and out.count(":x:") == 2  # a two-line /etc/passwd of the sandbox's own
    finally:
        other.close()


def test_setsid_and_nohup_children_die_with_the_command(session):
    _sh(session, "setsid sleep 300 > /dev/null 2>&1 & nohup sleep 300 > /dev/null 2>&1 & disown; echo started")
    uid = session._workspace.user.uid
    deadline = time.monotonic() + 5
    while owned_by(uid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert owned_by(uid) == []


def test_fork_bomb_is_bounded_and_cleaned_up(session):
    started = time.monotonic()
    obs = _sh(session, "bomb(){ bomb | bomb & }; bomb; for ((i=0; i<300000; i++)); do :; done; "
                  "c=0; for d in /proc/[0-9]*; do c=$((c+1)); done; echo procs $c")
    assert time.monotonic() - started < 15
    counts = [int(w) for line in obs.shell_output.splitlines() if line.startswith("procs") for w in line.split()[1:]]
    assert counts and counts[0] <= 70  # RLIMIT_NPROC of the session's uid: 64
    uid = session._workspace.user.uid
    deadline = time.monotonic() + 5
    while owned_by(uid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert owned_by(uid) == []
    assert _sh(session, "echo alive").shell_output.strip() == "alive"  # the next command runs normally


def test_workspace_flood_is_the_agents_failure_not_an_env_error(session):
    obs = _sh(session, "for i in $(seq 1200); do head -c 1048576 /dev/zero > f$i; done; echo finished")
    assert "over its limit" in obs.last_action_error and "finished" not in obs.shell_output
    assert sum(f.stat().st_size for f in session.workspace.rglob("*") if f.is_file()) < 2 * MAX_WORKSPACE_BYTES
    outcome = session.evaluate()
    assert (outcome.status, outcome.success, outcome.reward) == ("failure", False, 0.0)
    assert outcome.verdicts == {WORKSPACE_CRITERION: False}


def test_an_oversized_answer_is_feedback_not_a_way_to_stall_the_verifier(session):
    obs = session.step('answer("' + "9" * 30_000 + '")')
    assert obs.last_action_error and not obs.done and session.answer is None
    assert session.evaluate().status == "failure"
