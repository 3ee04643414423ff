"""The app contract checker against real app servers and a real Chromium: the notes fixture and the apps
(a sample of them drawn per commit; every one with `--full`) pass every law, at both viewports, with the coverage printed."""

from __future__ import annotations

import pytest

from mocked_apps.checker import LAWS, check_app
from mocked_apps.checker.admin import _bits
from mocked_apps.checker.batch import drawn_variants
from mocked_apps.checker.crawl import pattern
from mocked_apps.kit.variant import PALETTES, variant_of
from mocked_apps.registry import available, shipped
from tests.conftest import FIXTURE_APPS
from tests.support.sampling import full, salt, sample


HAND_MADE, COMPILED = 4, 1
"""Apps checked per run: this many hand-made ones and this many compiled or registered ones, drawn per commit
(tests/support/sampling.py), so successive commits check different apps, the compiled one in a drawn variant
too; `scripts/test.sh --full` (or `gymfactory apps check --variants 2`) checks every app as drawn and in a variant.
Each app's own tests run on every run, and
tests/kit/test_compiler.py checks compiled apps that cover every archetype."""


def _sampled() -> list[tuple[str, int]]:
    """The apps this run checks and their variants: every app as drawn and in a variant drawn from its name with
    `--full`; else the sampled apps as drawn, and the compiled ones in their drawn variant too."""
    hand = set(shipped())
    compiled = sample([n for n in available() if n not in hand], COMPILED)
    return [(name, seed) for name in sample(hand, HAND_MADE) + compiled
            for seed in drawn_variants(name, 2 if full() or name in compiled else 1)]


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


def test_a_spec_that_does_not_compile_fails_to_start_with_the_spec_error(tmp_path):
    spec = tmp_path / "broken.yaml"
    spec.write_text("name: broken\ntitle: Broken\nentities: {}\n")
    report = check_app(str(spec))
    starts = report.result("starts")
    assert starts.verdict == "fail" and "does not load: SpecError" in starts.evidence and "category: Field required" in starts.evidence
    assert "500 Internal Server Error" not in starts.evidence and not report.ok


def test_the_checked_variants_are_drawn_per_app_and_cover_every_layout():
    assert drawn_variants("pawcare", 1) == [0]
    three = drawn_variants("pawcare", 3)
    assert three[0] == 0 and len(set(three)) == 3 and all(1 <= s <= 9999 for s in three[1:]) and drawn_variants("pawcare", 3) == three
    assert drawn_variants("pawcare", 2) != drawn_variants("cornerstore", 2)  # two apps show the checker other looks
    looks = [variant_of(drawn_variants(name, 2)[1]) for name in available()]
    assert {v.nav for v in looks} == {"sidebar", "tabs", "bottom"} and {v.lists for v in looks} == {"table", "cards"}
    assert {v.icons for v in looks} == {True, False} and {v.font for v in looks} == {"sans", "serif", "rounded", "mono", "condensed"}
    assert {v.palette for v in looks} == set(PALETTES)


def test_page_patterns_and_id_entropy():
    assert pattern("http://h:1/i/" + "ab12" * 8 + "/note/12?q=x&notice=y") == "/note/{n}?notice&q"
    assert pattern("/thread/7/reply") == "/thread/{n}/reply"
    assert _bits("0123456789abcdef" * 2) == 128
    assert _bits("12345") < 128


@pytest.mark.parametrize(("name", "variant"), _sampled())
def test_every_registered_app_passes_every_law(browser, name, variant):
    report = check_app(name, browser=browser, controls_budget_s=30, variant=variant)
    assert report.ok, f"{report.fail_line()} (sample of GYMFACTORY_TEST_SAMPLE_SALT={salt()!r})"
    assert all(c.forms_exercised == c.forms_found for c in report.coverage), report.coverage
