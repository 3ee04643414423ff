"""Confined runs whose outcome cannot depend on when, in which process or where they run.

Verifiers see the task's clock and a fixed hash seed; their scratch folder has a total quota; and
confinement works under a private 0700 TMPDIR, or says what really stops it. Real bubblewrap, real processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from contracts.scoring import Final
from runtime import confine
from runtime.sandbox import SandboxLimits, run_sandboxed, run_verifier

CLOCK = "2031-03-02T10:00:00"  # years from the machine's date: a verdict that reads the wall clock tells
FINAL = Final(state={}, initial_state={}, answer="done")
ROOT = Path(__file__).resolve().parents[2]
GYMFACTORY = str(Path(sys.executable).with_name("gymfactory"))
TASK = ROOT / "tests" / "fixtures" / "tasks" / "notes-create-rent.json"

needs_bwrap = pytest.mark.skipif(not confine.available(), reason="bubblewrap cannot run here")

WALL_CLOCK_VERIFIER = """
import time
from datetime import date, datetime, timezone


def verify(final):
    now = datetime.now()
    return {
        "now": now == datetime(2031, 3, 2, 10, 0),
        "today": date.today() == date(2031, 3, 2) and datetime.today() == now,
        "utc": datetime.now(timezone.utc) == datetime(2031, 3, 2, 10, 0, tzinfo=timezone.utc) and datetime.utcnow() == now,
        "time": time.time() == STAMP and time.time_ns() == STAMP * 10**9 and time.strftime("%Y-%m-%d %H:%M") == "2031-03-02 10:00",
        "types": isinstance(now, datetime) and isinstance(now, date) and isinstance(datetime.fromisoformat("2031-01-01"), date)
                 and not isinstance(date.today(), datetime),
    }
""".replace("STAMP", str(int(datetime(2031, 3, 2, 10, 0, tzinfo=timezone.utc).timestamp())))


def test_a_verifier_reading_the_wall_clock_sees_the_tasks_clock():
    run = run_verifier(WALL_CLOCK_VERIFIER, FINAL, clock=CLOCK)
    assert run.error is None and run.verdicts == {k: True for k in ("now", "today", "utc", "time", "types")}, run
    unclocked = run_verifier(WALL_CLOCK_VERIFIER, FINAL)  # no clock given: the machine's own time, which is not 2031
    assert unclocked.verdicts["now"] is False and unclocked.verdicts["types"] is True


def test_the_clock_is_frozen_for_every_repeated_call():
    source = "from datetime import datetime\ndef verify(final):\n    return {'same': datetime.now().isoformat() == '2031-03-02T10:00:00'}\n"
    run = run_verifier(source, FINAL, clock=CLOCK, repeats=3)
    assert run.consistent and run.repeats == ({"same": True},) * 3


SET_ORDER = "def f(x):\n    return [hash('gymfactory'), list({'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'})]\n"


def test_a_verdict_that_depends_on_set_ordering_is_the_same_in_every_process():
    runs = [run_sandboxed(SET_ORDER, "f", {}) for _ in range(4)]
    assert all(r.ok for r in runs), [r.error for r in runs]
    assert len({json.dumps(r.value) for r in runs}) == 1  # random hash seeds would give four different hashes
    verifier = "def verify(final):\n    return {'first': next(iter({'alpha', 'beta', 'gamma', 'delta'})) == 'alpha'}\n"
    assert len({json.dumps(run_verifier(verifier, FINAL).verdicts) for _ in range(4)}) == 1


FILL = """
def f(x):
    for i in range(64):
        with open("fill-%d" % i, "wb") as out:
            out.write(b"x" * (16 << 20))
    return "wrote 1 GiB"
"""


@needs_bwrap
def test_a_run_that_writes_past_its_scratch_quota_is_a_failed_run_not_a_full_disk():
    result = run_sandboxed(FILL, "f", {}, limits=SandboxLimits(scratch_mb=48, file_mb=32))
    assert result.error_kind == "crash" and "No space left on device" in result.error, result
    source = FILL.replace("def f(x)", "def verify(final)").replace('return "wrote 1 GiB"', "return {'a': True}")
    run = run_verifier(source, FINAL)  # the default quota (256 MiB) holds for verifiers too
    assert run.verdicts is None and run.error_kind == "crash" and "No space left" in run.error


def test_the_scratch_folder_is_empty_writable_and_the_only_writable_place():
    body = ("import os\ndef f(x):\n    open('mine.txt', 'w').write('x')\n"
            "    return [sorted(os.listdir('.')), os.getcwd(), os.environ.get('TMPDIR')]\n")
    result = run_sandboxed(body, "f", {})
    assert result.ok and result.value[0] == ["mine.txt"], result


PRIVATE_TMPDIR_RUN = """
import json, shutil, sys
from contracts.scoring import Final
from runtime import confine
from runtime.sandbox import run_verifier
from runtime.shell import Workspace

run = run_verifier("def verify(final):\\n    return {'a': final.answer == 'done'}\\n", Final(state={}, initial_state={}, answer="done"))
workspace = Workspace(confine.scratch_folder("gym-workspaces-") / "s1")
workspace.fill({"note.txt": "hello"})
shell = workspace.run("cat note.txt && echo more > new.txt && id -u")
print(json.dumps({"mode": confine.mode(), "verdicts": run.verdicts, "error": run.error, "shell": shell.output,
                  "shell_error": shell.error, "root": str(confine.scratch_root())}))
shutil.rmtree(workspace.path.parent)  # the scratch root is shared: leave nothing in it
"""


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="a private TMPDIR blocks only a run whose bwrap starts as another uid")
def test_confinement_works_under_a_private_tmpdir(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    private.chmod(0o700)  # what `mktemp -d`, systemd's PrivateTmp and many CI runners give
    env = {**os.environ, "TMPDIR": str(private)}
    env.pop(confine.SCRATCH_ENV, None)
    env.pop(confine.UNSAFE_ENV, None)
    done = subprocess.run([sys.executable, "-c", PRIVATE_TMPDIR_RUN], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["mode"] == "confined (bubblewrap)" and out["verdicts"] == {"a": True}, out
    assert out["shell"] == "hello65534\n" and out["shell_error"] is None and not out["root"].startswith(str(private)), out


def test_a_folder_no_other_uid_can_pass_is_named_as_the_cause(tmp_path):
    """When confinement really cannot run for want of a reachable folder, the message says so, not 'install bubblewrap'."""
    closed = tmp_path / "closed"
    closed.mkdir()
    (closed / "scratch").mkdir()
    closed.chmod(0o700)
    env = {**os.environ, confine.SCRATCH_ENV: str(closed / "scratch"), "GYMFACTORY_HOME": str(tmp_path / "home")}
    env.pop(confine.UNSAFE_ENV, None)
    argv = [GYMFACTORY, "rollout", "--agent", "golden", "--tasks", str(TASK), "--store", str(tmp_path / "t.db")]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 3 and len(lines) == 1, done.stderr[-2000:]
    assert f"{closed} is drwx------, not searchable by other users" in lines[0] and confine.SCRATCH_ENV in lines[0], lines[0]
    assert "apt-get install" not in lines[0] and "user namespaces" not in lines[0]


def test_no_confined_run_leaves_a_folder_behind_in_tmpdir(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop(confine.SCRATCH_ENV, None)
    code = ("from runtime.sandbox import run_sandboxed\n"
            "assert [run_sandboxed('def f(x):\\n    return 1\\n', 'f', {}).value for _ in range(3)] == [1, 1, 1]\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no gf-etc-*, gf-sandbox-* or scratch root of ours


def test_a_rollouts_verdict_is_taken_at_the_tasks_clock(tmp_path):
    """The one scoring path of rollouts (Session.evaluate) runs the verifier at the task's clock too."""
    from contracts.taskfiles import load_tasks
    from runtime.manager import EnvironmentManager, SessionSpec
    from runtime.objectstore import ObjectStore

    [task] = load_tasks(TASK)
    ids = [c.id for c in task.criteria]
    verifier = f"from datetime import datetime\ndef verify(final):\n    return {{c: datetime.now() == datetime(2031, 3, 2, 10, 0) for c in {ids!r}}}\n"
    task = task.model_copy(update={"verifier": verifier, "clock": CLOCK})
    with EnvironmentManager(screenshots=ObjectStore(tmp_path / "shots")) as manager:
        session = manager.request(SessionSpec.for_task(task, screenshots=False))
        session.reset(task)
        outcome = session.evaluate()
    assert outcome.status == "success" and outcome.reward == 1.0, outcome
