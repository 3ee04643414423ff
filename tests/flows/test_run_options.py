"""Bad options of `gymfactory run`: one line naming the option, exit code 2, before anything starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BAD = [
    (["--tasks", "0"], "--tasks 0: input should be greater than 0"),
    (["--concurrency", "99"], "--concurrency 99: input should be less than or equal to 16"),
    (["--provider", "gpt"], "unknown provider 'gpt'"),
    (["--provider", "templat"], "unknown provider 'templat'; did you mean template?"),
    (["--provider", "scripted"], "unknown provider 'scripted'"),  # test-only: never offered to users
    (["--agent", "goldne"], "unknown agent 'goldne'; did you mean golden?"),
    (["--agent", "openai"], "--agent openai: the openai agent needs a model"),  # no OPENAI_MODEL in the test's env
]


@pytest.mark.parametrize("options,message", BAD, ids=[" ".join(o) for o, _ in BAD])
def test_a_bad_option_is_one_line_and_exit_2_before_anything_starts(tmp_path, options, message):
    out = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_MODEL"}
    env = {**env, "GYMFACTORY_HOME": str(tmp_path / "home"), "PREFECT_API_URL": "http://127.0.0.1:9/api"}  # nothing listens
    done = subprocess.run([sys.executable, "-m", "gymfactory.cli", "run", "--out", str(out), *options], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr[-2000:]
    assert lines == [lines[0]] and lines[0].startswith("error: ") and message in lines[0], lines
    assert "scripted" not in lines[0] or options[-1] == "scripted"  # the hint never offers the test-only provider
    assert not out.exists()  # nothing started: no run folder (and no Prefect server: nothing listens at its URL)


def test_out_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    done = subprocess.run([sys.executable, "-m", "gymfactory.cli", "run", "--out", str(tmp_path / "file")], cwd=ROOT,
                          env={**os.environ, "GYMFACTORY_HOME": str(tmp_path / "home")}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"error: --out {tmp_path / 'file'}: it is a file; pass a folder (a new one, or a run folder to resume)"]


def test_the_run_help_offers_no_test_only_provider():
    done = subprocess.run([sys.executable, "-m", "gymfactory.cli", "run", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "--provider" in done.stdout and "scripted" not in done.stdout
