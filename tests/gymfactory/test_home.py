"""A fresh machine: the `gymfactory` command creates its per-user folders before any command or Prefect starts."""

from __future__ import annotations

import os
import subprocess
import sys


def _fresh_env(home, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("GYMFACTORY_HOME", "PREFECT_HOME", "PREFECT_API_URL")}
    return {**env, "HOME": str(home), **extra}


def test_an_empty_home_gets_gymfactory_home_and_the_whole_prefect_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run([sys.executable, "-m", "gymfactory.cli", "apps", "list"], env=_fresh_env(home),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (home / ".gymfactory" / "prefect").is_dir()


def test_a_nested_gymfactory_home_and_an_explicit_prefect_home_are_made_in_full(tmp_path):
    gym, prefect = tmp_path / "a" / "b" / "gym", tmp_path / "c" / "d" / "prefect"
    done = subprocess.run([sys.executable, "-m", "gymfactory.cli", "apps", "list"],
                          env=_fresh_env(tmp_path, GYMFACTORY_HOME=str(gym), PREFECT_HOME=str(prefect)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert gym.is_dir() and prefect.is_dir() and not (gym / "prefect").exists()
