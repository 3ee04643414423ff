"""Where bubblewrap cannot run, commands that would run untrusted code stop with the fix, unless the user opts out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TASK = Path(__file__).resolve().parents[1] / "fixtures" / "tasks" / "notes-create-rent.json"
GYMFACTORY = [str(Path(sys.executable).with_name("gymfactory"))]


def _rollout(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess:
    nowhere = tmp_path / "empty-bin"  # a PATH with no bwrap on it: what a machine without bubblewrap looks like
    nowhere.mkdir(exist_ok=True)
    env = {**os.environ, "PATH": str(nowhere), "GYMFACTORY_HOME": str(tmp_path / "home")}
    env.pop("GYMFACTORY_UNSAFE_NO_CONFINEMENT", None)
    argv = [*GYMFACTORY, *flags, "rollout", "--agent", "golden", "--tasks", str(TASK), "--store", str(tmp_path / "t.db")]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, cwd=TASK.parents[3])


def test_no_bubblewrap_stops_before_anything_runs_and_names_the_fix(tmp_path):
    done = _rollout(tmp_path)
    assert done.returncode == 3, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "bubblewrap is not installed" in lines[0]
    assert "apt-get install -y bubblewrap" in lines[0] and "--unsafe-no-confinement" in lines[0]
    assert "Traceback" not in done.stderr


def test_the_explicit_opt_out_runs_and_says_so(tmp_path):
    done = _rollout(tmp_path, "--unsafe-no-confinement")
    assert "untrusted code may run unconfined" in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
