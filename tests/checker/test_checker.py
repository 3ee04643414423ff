"""The app contract checker against real app servers and a real Chromium: each planted defect is
caught by its own law, first; the notes fixture and every shipped app pass every law."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mocked_apps.checker import LAWS, check_app
from mocked_apps.checker.crawl import pattern
from mocked_apps.checker.laws import _bits
from mocked_apps.registry import available
from tests.conftest import FIXTURE_APPS

# broken fixture app -> the law that must be its first (reported) failure, and a word its evidence names
BROKEN = {
    "broken_token": ("admin_token", "X-Gym-Admin-Token"),
    "broken_ids": ("determinism", "note"),
    "broken_reset": ("reset", "Last saved"),
    "broken_isolation": ("isolation", "Recently saved"),
    "broken_dead": ("dead_controls", "Archive"),
    "broken_console": ("console", "page error"),
    "broken_asset": ("console", "notes.css"),
}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    from runtime.browser import launch_chromium

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


def test_notes_fixture_passes_every_law(browser):
    report = check_app(str(FIXTURE_APPS / "notes"), browser=browser)
    assert [r.law for r in report.laws] == list(LAWS)
    assert report.ok, report.failures
    assert all(r.verdict == "pass" for r in report.laws)
    # the controls exploration really clicked things and found the notes app's state changes
    assert "4 change state" in report.result("dead_controls").evidence
    assert report.seconds < 60


@pytest.mark.parametrize("app", sorted(BROKEN))
def test_each_defect_is_caught_first_by_its_law(browser, app):
    law, word = BROKEN[app]
    report = check_app(str(FIXTURE_APPS / app), browser=browser, controls_budget_s=20)
    first = report.first_failure
    assert first is not None, f"{app}: no law failed"
    assert first.law == law, f"{app}: first failure is {first.law}: {first.evidence}"
    assert word in first.evidence
    assert report.result("starts").verdict == "pass"


def test_cli_names_the_law_and_exits_non_zero(tmp_path):
    # a child process: the module's browser fixture holds this thread's Playwright loop
    out = tmp_path / "reports.json"
    cmd = [sys.executable, "-m", "gymfactory.cli", "apps", "check", str(FIXTURE_APPS / "broken_dead"), "--budget", "20", "--json", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "law dead_controls" in result.stdout and "Archive" in result.stdout
    [report] = json.loads(out.read_text())
    assert report["app"] == "broken_dead" and [r["verdict"] for r in report["laws"]].count("fail") == 1


def test_unknown_app_fails_to_start_with_a_suggestion():
    report = check_app("notez-does-not-exist")
    assert report.first_failure.law == "starts" and "unknown app" in report.first_failure.evidence
    assert all(r.verdict == "skip" for r in report.laws[1:])


def test_page_patterns_and_id_entropy():
    assert pattern("http://h:1/i/" + "ab12" * 8 + "/note/12?q=x&notice=y") == "/note/{n}?notice&q"
    assert pattern("/thread/7/reply") == "/thread/{n}/reply"
    assert _bits("0123456789abcdef" * 2) == 128
    assert _bits("12345") < 128


@pytest.mark.parametrize("name", sorted(available()))
def test_every_registered_app_passes_every_law(browser, name):
    report = check_app(name, browser=browser, controls_budget_s=30)
    assert report.ok, f"{name} fails {report.first_failure.law}: {report.first_failure.evidence}"
