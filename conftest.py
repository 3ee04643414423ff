"""The suite's one option and its file order, here so that they work whatever paths pytest is given (tests/ or an
app's own tests)."""

from __future__ import annotations

import os


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="Check everything: every family in three worlds, every app through the checker, every cheat in "
                          "the browser (by default these sample; see tests/support/sampling.py).")


def pytest_configure(config):
    if config.getoption("--full"):
        os.environ["GYMFACTORY_TEST_FULL"] = "1"  # read at collection, and by child processes


LONGEST_FIRST = (
    "tests/factory/test_gates.py", "tests/flows/test_ctrl_c.py", "tests/test_docs.py", "tests/flows/test_deployments.py",
    "tests/checker/test_defects.py", "tests/checker/test_checker.py", "tests/flows/test_loop.py",
    "tests/flows/test_pipeline.py", "tests/flows/test_ray_runner.py", "tests/worlds/test_seeds.py",
    "tests/kit/test_compiler.py", "tests/worlds/test_generated.py", "tests/runtime/test_manager.py",
    "tests/flows/test_serve_sigterm.py", "tests/flows/test_run_options.py", "tests/runtime/test_rollout_resume.py",
    "tests/diagnosis/test_dashboard.py", "tests/flows/test_run_objects.py",
)
"""The suite's longest files (40-110 s of test time each, `scripts/test.sh --durations=0` summed per file),
longest first. `scripts/test.sh` hands files to its workers in collection order (`--dist loadfile
--no-loadscope-reorder`), so these start first and the short files fill in after them. Without it, xdist starts the
files with the most tests first, and a long file with few tests ran alone at the end for minutes."""


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest keep their order
