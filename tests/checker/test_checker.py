"""The app contract checker against real app servers and a real Chromium: the notes fixture and the apps
(a sample of them drawn per commit; every one with `--full`) pass every law, at both viewports, with the coverage printed."""

from __future__ import annotations

import pytest

from mocked_apps.checker import LAWS, check_app
from mocked_apps.checker.admin import _bits
from mocked_apps.checker.crawl import pattern
from mocked_apps.registry import available, shipped
from tests.conftest import FIXTURE_APPS
from tests.support.sampling import salt, sample


HAND_MADE, COMPILED = 4, 1
"""Apps checked per run: this many hand-made ones and this many compiled or registered ones, drawn per commit
(tests/support/sampling.py), so successive commits check different apps; `scripts/test.sh --full` (or
`gymfactory apps check` with no names) checks every app. Each app's own tests run on every run, and
tests/kit/test_compiler.py checks compiled apps that cover every archetype."""


def _sampled() -> list[str]:
    """The apps this run checks (every one of them with `--full`)."""
    hand = set(shipped())
    return sample(hand, HAND_MADE) + sample([n for n in available() if n not in hand], COMPILED)


def test_notes_fixture_passes_every_law_at_both_viewports(browser):
    report = check_app(str(FIXTURE_APPS / "notes"), browser=browser)
    assert [r.law for r in report.laws] == list(LAWS)
    assert report.ok, report.failures
    assert all(r.verdict == "pass" for r in report.laws)
    # the controls were really clicked at each viewport, and found the notes app's state changes
    assert "desktop: 4 distinct controls, 4 clicked (4 change state)" in report.result("dead_controls").evidence
    assert "phone:" in report.result("dead_controls").evidence
    desktop, phone = report.coverage
    assert desktop.viewport.startswith("desktop") and phone.viewport.startswith("phone")
    for c in (desktop, phone):  # every form of notes (new note, pin, delete) submitted at each size
        assert c.forms_found == 3 and c.forms_exercised == 3, c
        assert c.controls_exercised + c.controls_sampled == c.controls_found and c.controls_unchecked == 0, c
    assert report.seconds < 60


def test_unknown_app_fails_to_start_with_a_suggestion():
    report = check_app("notez-does-not-exist")
    assert report.first_failure.law == "starts" and "unknown app" in report.first_failure.evidence
    assert all(r.verdict == "skip" for r in report.laws[1:])
    assert not report.ok


def test_page_patterns_and_id_entropy():
    assert pattern("http://h:1/i/" + "ab12" * 8 + "/note/12?q=x&notice=y") == "/note/{n}?notice&q"
    assert pattern("/thread/7/reply") == "/thread/{n}/reply"
    assert _bits("0123456789abcdef" * 2) == 128
    assert _bits("12345") < 128


@pytest.mark.parametrize("name", _sampled())
def test_every_registered_app_passes_every_law(browser, name):
    report = check_app(name, browser=browser, controls_budget_s=30)
    assert report.ok, f"{report.fail_line()} (sample of GYMFACTORY_TEST_SAMPLE_SALT={salt()!r})"
    assert all(c.forms_exercised == c.forms_found for c in report.coverage), report.coverage
