"""Appearance and wording variants (issue 29): a variant changes how an app looks and words its own controls,
never what it holds; golden code follows the task's variant, and the checker passes an app in a variant."""

from __future__ import annotations

import re

import httpx
import pytest

from factory.tasks.synthesize import SynthConfig, synthesize, with_variants
from factory.verifiers.validate import ValidationConfig, validate_task
from mocked_apps.checker import check_app
from mocked_apps.kit import AppServer, AdminError
from mocked_apps.kit.variant import PALETTES, WORDS, variant_of, variant_seed
from mocked_apps.registry import available, resolve
from tests.support.sampling import sample

FAST = ValidationConfig(runs=1, verifier_timeout_s=5.0, golden_timeout_s=60.0)


def _seed_where(**want) -> int:
    """The first variant seed whose draw has every property in `want` (words by kit word)."""
    for seed in range(1, 5000):
        v = variant_of(seed)
        words = want.get("words", {})
        if all(getattr(v, k) == value for k, value in want.items() if k != "words") and all(v.word(a) == b for a, b in words.items()):
            return seed
    raise AssertionError(f"no variant seed has {want}")


def test_a_variant_is_the_same_for_the_same_seed_and_zero_is_the_app_as_drawn():
    assert variant_of(0) is None
    assert variant_of(17) == variant_of(17)
    looks = {(v.palette, v.nav, v.lists, v.icons, v.dates, tuple(sorted(v.words.items()))) for v in map(variant_of, range(1, 41))}
    assert len(looks) == 40  # 40 seeds, 40 different looks
    assert all(v.word(k) in options for v in map(variant_of, range(1, 41)) for k, options in WORDS.items())
    assert {variant_of(s).word("Search") for s in range(1, 41)} == set(WORDS["Search"])
    assert variant_of(5).word("Approve request") == "Approve request"  # the spec's own words never change
    with pytest.raises(ValueError):
        variant_of(-1)


def test_copies_in_variants_have_their_own_ids_and_seeds_and_the_same_task():
    task = synthesize(SynthConfig(n=1, catalogue=True, apps=("pawcare",), seed=3))[0]
    copies = with_variants(task, 3)
    assert copies[0] == task and [c.id for c in copies[1:]] == [f"{task.id}-v1", f"{task.id}-v2"]
    assert all(c.variant > 0 for c in copies[1:]) and copies[1].variant != copies[2].variant
    assert all(c.model_dump(exclude={"id", "variant"}) == task.model_dump(exclude={"id", "variant"}) for c in copies)
    assert with_variants(task, 3) == copies  # deterministic
    tasks = synthesize(SynthConfig(n=2, catalogue=True, apps=("pawcare",), seed=3, variants=2))
    assert len(tasks) == 4 and sum(t.variant == 0 for t in tasks) == 2  # n counts the tasks before their copies


def test_a_compiled_app_in_a_variant_looks_and_words_otherwise_and_holds_the_same_state():
    seed = _seed_where(lists="cards", icons=True, words={"Search": "Look up", "New": "Create new"})
    v = variant_of(seed)
    with AppServer(resolve("pawcare")) as server, httpx.Client(follow_redirects=True, timeout=30) as http:
        plain, varied = server.admin.create(), server.admin.create(variant_seed(seed))
        assert server.admin.state(plain["instance_id"]) == server.admin.state(varied["instance_id"])
        pages = {}
        for name, made in (("plain", plain), ("varied", varied)):
            base = server.url + made["url"].rstrip("/")
            home = http.get(base + "/").text
            link = re.search(r'href="([^"]+/appointments?)"', home) or re.search(r'href="(/i/[^"]+/[a-z_]+s)"', home)
            pages[name] = http.get(server.url + link.group(1) if link.group(1).startswith("/") else link.group(1)).text
        plain_page, varied_page = pages["plain"], pages["varied"]
        assert "Search appointments" in plain_page and "rcards" not in plain_page and "variant-" not in plain_page
        assert f"variant-{seed}" in varied_page and "icons-only" in varied_page and f"nav-{v.nav}" in varied_page
        assert 'class="rcards"' in varied_page and "Look up appointments" in varied_page
        assert 'aria-label="Create new appointment"' in varied_page  # an icon-only control keeps its accessible name
        assert PALETTES[v.palette][0] in varied_page and "Search appointments" not in varied_page


def test_a_hand_made_app_draws_synonyms_of_the_kit_words_and_a_variant_rewords_them():
    assert len({w for options in WORDS.values() for w in options}) == sum(map(len, WORDS.values()))  # one group a word
    v = variant_of(_seed_where(words={"Home": "Overview", "Search": "Look up"}))
    assert v.word("Dashboard") == v.word("Home") == "Overview"  # courses draws "Dashboard"
    assert v.word("Find") == "Look up" and v.word("Find care") == "Find care"  # a phrase is not a kit word


_BOTTOM_CARDS_FIND = _seed_where(nav="bottom", lists="cards", words={"Search": "Find"})


def test_a_hand_made_app_in_a_variant_rewords_moves_its_navigation_and_lists_cards_with_the_same_state():
    seed = _BOTTOM_CARDS_FIND
    with AppServer("mocked_apps.bank") as server, httpx.Client(follow_redirects=True, timeout=30) as http:
        plain, varied = server.admin.create(), server.admin.create(variant_seed(seed))
        assert server.admin.state(plain["instance_id"]) == server.admin.state(varied["instance_id"])
        a = http.get(server.url + plain["url"].rstrip("/") + "/payees").text
        b = http.get(server.url + varied["url"].rstrip("/") + "/payees").text
        assert 'aria-label="Search transactions"' in a and 'aria-label="Find transactions"' in b and "Search transactions" not in b
        assert a.index("<nav") < a.index("<main") and b.index("</main>") < b.index('<nav class="sidenav navbar"')  # a bar after the page
        assert '<table class="list">' in a and 'class="rcards"' not in a
        assert 'class="rcards"' in b and "<dt>Account / reference</dt>" in b and '<table class="list">' not in b
        assert b.count('href="' + varied["url"].rstrip("/") + '/pay?') == a.count('href="' + plain["url"].rstrip("/") + '/pay?') > 0  # the same controls


def test_a_hand_made_golden_passes_in_two_variants_whose_text_differs_and_a_hard_coded_word_fails(manager):
    """Through the real browser: the golden's observations are the page walker's text, as an agent reads it."""
    task = synthesize(SynthConfig(n=1, seed=1, families=("bank.client_payment_amount",)))[0]
    assert 'env.word("Search") + " transactions"' in task.golden
    seen = {}
    for seed in (0, _BOTTOM_CARDS_FIND):
        result = validate_task(task.model_copy(update={"id": f"{task.id}-{seed}", "variant": seed}), manager, FAST)
        assert result.accepted, (seed, result.detail)
        seen[seed] = result.golden_steps[0].axtree
    plain, varied = seen[0], seen[_BOTTOM_CARDS_FIND]
    assert 'searchbox "Search transactions"' in plain and 'searchbox "Find transactions"' in varied
    assert 'searchbox "Search transactions"' not in varied
    lines = lambda text, start: next(i for i, line in enumerate(text.splitlines()) if line.startswith(start))
    assert lines(plain, "navigation") < lines(plain, "main") and lines(varied, "main") < lines(varied, "navigation")
    assert "BANKING" in plain and "BANKING" not in varied  # the sidebar's section headings are not on a bar
    hard = task.model_copy(update={"id": task.id + "-hard", "variant": _BOTTOM_CARDS_FIND,
                                   "golden": task.golden.replace('env.word("Search") + " transactions"', '"Search transactions"')})
    rejected = validate_task(hard, manager, FAST)
    assert not rejected.accepted and "Search transactions" in (rejected.detail or "")


def test_a_malformed_variant_entry_is_refused_naming_its_key():
    with AppServer("mocked_apps.notes") as server:
        for entry in ({"seed": -1}, {"seed": "3"}, {"seed": 2, "theme": "dark"}, {"seed": True}, [3]):
            with pytest.raises(AdminError, match="_variant"):
                server.admin.create({"_variant": [entry]})
        with pytest.raises(AdminError, match="_variant"):
            server.admin.create({"_variant": {"seed": 3}})


def test_golden_code_follows_the_task_variant_and_a_hard_coded_word_fails_there(manager):
    seed = _seed_where(words={"Search": "Find"})
    task = next(t for t in synthesize(SynthConfig(n=4, catalogue=True, apps=("pawcare",), seed=5))
                if "env.word('Search')" in t.golden)
    varied = task.model_copy(update={"id": task.id + "-find", "variant": seed})
    result = validate_task(varied, manager, FAST)
    assert result.accepted, result.detail
    steps = [s.action for s in result.golden_steps]
    assert any(a.startswith("fill(") for a in steps)
    hard = varied.model_copy(update={"id": task.id + "-hard", "golden": re.sub(r"env\.word\('Search'\) \+ '", "'Search", task.golden)})
    assert "env.word" not in hard.golden.split("def solve", 1)[1].split("\n")[2]
    rejected = validate_task(hard, manager, FAST)
    assert not rejected.accepted and "Search" in (rejected.detail or "")  # the plain wording is not on the varied page


_CARDS_ICONS_BOTTOM = _seed_where(lists="cards", icons=True, nav="bottom")
_TABS_TABLE = _seed_where(lists="table", icons=False, nav="tabs", words={"Search": "Find"})


@pytest.mark.parametrize("case", sample([f"{app}@{v}" for app in available() for v in (_CARDS_ICONS_BOTTOM, _TABS_TABLE)], 0,
                                        always=[f"pawcare@{_CARDS_ICONS_BOTTOM}", f"bank@{_CARDS_ICONS_BOTTOM}"]))
def test_the_checker_passes_apps_in_variants_at_both_viewports(case):
    """A compiled and a hand-made app in a cards + icons + bottom-bar variant; `scripts/test.sh --full`: every app in two
    variants."""
    app, seed = case.split("@")
    seed = int(seed)
    report = check_app(app, variant=seed)
    assert report.ok, report.fail_line()
    assert report.variant == seed and {c.viewport.split()[0] for c in report.coverage} == {"desktop", "phone"}


def test_a_hand_made_app_keeps_its_own_template_names_in_a_variant():
    # the kit's base page once set `c` (the variant's colours) over clinic's `{% import "_macros.html" as c %}`:
    # every clinic page answered 500 in any variant, and only the checker over every app in a variant found it
    with AppServer("mocked_apps.clinic") as server, httpx.Client(follow_redirects=True, timeout=30) as http:
        varied = server.admin.create(variant_seed(6011))
        for path in ("", "/appointments", "/appointments/1", "/doctors/1"):
            page = http.get(server.url + varied["url"].rstrip("/") + path)
            assert page.status_code == 200 and "variant-6011" in page.text, (path, page.status_code)
