"""Ctrl-C on `gymfactory run` (no PREFECT_API_URL: Prefect's temporary server): out within 10 s with one line
saying what was kept and how to resume; a rerun of that command skips the finished stages and completes;
a second Ctrl-C does not wait. On the same run folder, an agent whose every attempt is an env_error fails the run."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_tmp():
    """A TMPDIR of the run's own, to see what it leaves; in /tmp, since confined code (another uid) must reach into it."""
    folder = Path(tempfile.mkdtemp(prefix="ctrl-c-test-", dir="/tmp"))
    folder.chmod(0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _env(tmp_path: Path, tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PREFECT_API_URL", "PREFECT_HOME")}
    return {**env, "GYMFACTORY_HOME": str(tmp_path / "home"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "TMPDIR": str(tmp)}


def test_ctrl_c_stops_the_run_in_seconds_and_the_same_command_resumes(tmp_path, own_tmp):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "gymfactory.cli", "run", "--out", str(out), "--tasks", "2", "--agent", "golden",
               "--concurrency", "2"]
    proc = subprocess.Popen(command, cwd=ROOT, env=_env(tmp_path, own_tmp), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    synthesized = out / "stages" / "synthesize.json"
    deadline = time.monotonic() + 300
    while not (out / "tasks" / "validation.jsonl").is_file() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None and synthesized.is_file(), "the run ended or stalled before validation"
    time.sleep(1.0)  # into validation: browser and app servers up
    kept = {p.name: p.read_text() for p in (out / "stages").glob("*.json")}
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    lines = [line for line in err.decode().splitlines() if line.strip()]

    assert took < 10, f"took {took:.1f}s to stop"
    assert proc.returncode == 130
    assert len(lines) == 1, lines[:20]
    assert lines[0].startswith(f"Interrupted. Kept in {out}: finished stages: worlds, synthesize")
    assert lines[0].endswith(f"Resume with: gymfactory run --out {out} --tasks 2 --agent golden --concurrency 2")
    assert not (out / "stages" / "validate.json").exists()  # the interrupted stage does not look finished
    assert not (out / "report.json").exists()
    assert list(own_tmp.iterdir()) == []  # app data, workspaces, browser profile: gone with the run

    resumed = subprocess.run(command, cwd=ROOT, env=_env(tmp_path, own_tmp), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert {name: (out / "stages" / name).read_text() for name in kept} == kept  # finished stages were skipped
    assert {"validate.json", "rollouts.json", "dataset.json"} <= {p.name for p in (out / "stages").glob("*.json")}
    assert (out / "report.json").is_file()

    # the same folder, an agent whose endpoint is down: every attempt is an env_error, and the run says it failed
    down = {**_env(tmp_path, own_tmp), "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "test",
            "OPENAI_MODEL": "any"}
    failed = subprocess.run([*command[:-4], "--agent", "openai", "--concurrency", "2"], cwd=ROOT, env=down,
                            capture_output=True, text=True, timeout=600)
    assert failed.returncode == 1, failed.stderr[-3000:]
    assert "error: every rollout attempt of openai was an env_error" in failed.stderr


_SLOW_TO_STOP = textwrap.dedent("""
    import subprocess, sys, time
    from flows.interrupt import CtrlC
    child = subprocess.Popen([sys.executable, "-c",
                              "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('up', flush=True); time.sleep(120)"],
                             stdout=subprocess.PIPE)
    child.stdout.readline()
    CtrlC(lambda: "(test)", grace_s=60).install()
    print(child.pid, flush=True)
    time.sleep(120)
""")


def test_a_second_ctrl_c_exits_at_once_and_kills_what_is_left(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_TO_STOP], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    child = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGINT)  # the child ignores SIGTERM: the first Ctrl-C would wait its 60 s grace
    time.sleep(1.0)
    assert proc.poll() is None
    sent = time.monotonic()
    os.kill(proc.pid, signal.SIGINT)
    proc.wait(timeout=10)
    assert time.monotonic() - sent < 2 and proc.returncode == 130
    assert proc.stderr.read().decode().strip() == "Interrupted. (test)"
    time.sleep(0.2)
    status = Path(f"/proc/{child}/stat")
    assert not status.exists() or status.read_text().rsplit(")", 1)[1].split()[0] == "Z"


def _tree(pid: int) -> list[int]:
    from flows.interrupt import _descendants

    return _descendants(pid)


def test_sigterm_to_the_run_alone_stops_it_and_everything_it_started(tmp_path, own_tmp):
    """What `docker stop` or a scheduler's preemption sends: SIGTERM to the main process only, not its group."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "gymfactory.cli", "run", "--out", str(out), "--tasks", "2", "--agent", "golden",
               "--concurrency", "2"]
    proc = subprocess.Popen(command, cwd=ROOT, env=_env(tmp_path, own_tmp), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 300
    while not (out / "tasks" / "validation.jsonl").is_file() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "the run ended before validation"
    time.sleep(1.0)
    started = _tree(proc.pid)
    assert started, "the run had started no process (Prefect's server, app servers, a browser)"
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert proc.returncode == 143
    assert any(line.startswith(f"Stopped by SIGTERM. Kept in {out}: finished stages: worlds, synthesize") for line in lines), lines[:20]
    time.sleep(0.5)
    alive = [pid for pid in started if Path(f"/proc/{pid}/stat").exists()
             and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    assert alive == [], f"left running: {alive}"
    assert list(own_tmp.iterdir()) == []
