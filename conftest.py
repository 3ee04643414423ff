"""The suite's one option, here so that it works whatever paths pytest is given (tests/ or an app's own tests)."""

from __future__ import annotations

import os


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="Check everything: every family in three worlds, every app through the checker, every cheat in "
                          "the browser (by default these sample; see tests/support/sampling.py).")


def pytest_configure(config):
    if config.getoption("--full"):
        os.environ["GYMFACTORY_TEST_FULL"] = "1"  # read at collection, and by child processes
