"""One Prefect test server for every flow test."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def prefect_server():
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield PREFECT_API_URL.value()
