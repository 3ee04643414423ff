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


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL cluster on loopback (Debian's server, run as the postgres user) for the whole session."""
    from tests.support.postgres import PostgresServer

    with PostgresServer() as server:
        yield server


@pytest.fixture(scope="session")
def s3_server():
    """moto in server mode: a real S3-compatible HTTP server process on loopback for the whole session."""
    from tests.support.s3server import S3Server

    with S3Server() as server:
        yield server


@pytest.fixture(scope="session")
def dockerd():
    """A private Docker daemon (own data root and socket, no bridge, no iptables) for the whole session."""
    from tests.support.dockerd import Dockerd

    with Dockerd() as daemon:
        yield daemon
