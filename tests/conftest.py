"""Shared fixtures: real app servers on loopback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

FIXTURE_APPS = Path(__file__).parent / "fixtures" / "apps"


@pytest.fixture(scope="session")
def notes_server():
    """The minimal notes fixture app, served by the kit in a child process."""
    from mocked_apps.kit import AppServer

    with AppServer(str(FIXTURE_APPS / "notes")) as server:
        yield server


@pytest.fixture(scope="session")
def prefect_server():
    """One Prefect test server for every test that runs flows (starting one costs 10-60 s)."""
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield PREFECT_API_URL.value()
