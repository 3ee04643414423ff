"""Fixtures of the factory tests: one environment manager per test module, with a home and object store of its own."""

from __future__ import annotations

import pytest

from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore


@pytest.fixture(scope="module")
def manager(tmp_path_factory):
    """App servers and a browser for the module's validations (GYMFACTORY_HOME in the test's temporary folder)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(tmp_path_factory.mktemp("gymhome")))
    with EnvironmentManager(screenshots=ObjectStore(tmp_path_factory.mktemp("shots"))) as m:
        yield m
    mp.undo()
