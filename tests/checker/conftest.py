"""Fixtures of the checker tests: one Chromium per session, and the planted-defect apps derived from notes."""

from __future__ import annotations

from pathlib import Path

import pytest

from mocked_apps.kit import derive_app
from tests.conftest import FIXTURE_APPS

from .defects import BY_NAME


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for the module's checks (a module fixture: the CLI tests run in child processes)."""
    from playwright.sync_api import sync_playwright

    from mocked_apps.kit.browser import launch_chromium

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def defect_app(tmp_path_factory):
    """name -> the folder of that planted defect's app, derived from notes once per session."""
    root = tmp_path_factory.mktemp("defects")
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            built[name] = derive_app(FIXTURE_APPS / "notes", BY_NAME[name][0], root)
        return built[name]

    return get
