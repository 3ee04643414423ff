"""Domain vocabularies of compiled apps' sample data: curated lists that name their source, read as real text, keep
titles apart (no value inside another, so a search for one finds one), and group rows by their own values."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from mocked_apps.catalogue import compiled
from mocked_apps.checker.content import problem, problems
from mocked_apps.kit.spec import SampleError, read_spec, sample_seed
from mocked_apps.kit.spec.sample import sample_names
from mocked_apps.kit.spec.vocab import domain_of, domains, vocabularies

CLOCK = datetime(2026, 3, 2, 9)


@pytest.mark.parametrize("name", sorted(vocabularies()))
def test_each_vocabulary_names_its_source_and_reads_as_real_text(name):
    vocab = vocabularies()[name]
    assert vocab.source and vocab.about
    assert len(vocab.items) >= 5 and all(values for values in vocab.groups.values())
    lower = [v.lower() for v in vocab.items]
    inside = [(a, b) for a in lower for b in lower if a != b and a in b]
    assert not inside, f"{name}: a search for one value would find another: {inside[:3]}"
    flagged = [problem(v) for v in vocab.items if problem(v) and problem(v)[0] != "word salad"]
    assert not flagged, flagged


def test_domains_cover_every_catalogue_category_and_read_as_real_text():
    categories = {read_spec(path).category for path in compiled().values()}
    assert {c: domain_of(c).name for c in categories if domain_of(c).name == "general"} == {}
    assert domain_of("car rental").name == "travel" and domain_of("repair services").name == "home"
    assert domain_of("pets").name == "pets" and domain_of("recruiting").name == "hr"
    assert domain_of("underwater basket weaving").name == "general"


@pytest.mark.parametrize("category, domain", [
    ("taxi", "general"), ("tournament", "general"), ("petition", "general"), ("equipment rental", "general"),  # not tax, tour, pet, rent
    ("training", "fitness"), ("invoicing", "finance"), ("pharmacies", "health"), ("utilities", "finance"),
    ("streaming", "entertainment"), ("camping holidays", "travel"), ("logistics", "logistics"), ("climbing gym", "fitness"), ("car rentals", "travel"),
])
def test_a_category_matches_whole_words_and_plurals_and_marked_prefixes_only(category, domain):
    assert domain_of(category).name == domain
    for d in domains():
        assert not problems([*d.titles, *d.notes]), d.name


def test_grouped_vocabularies_follow_the_rows_own_values():
    grocery = vocabularies()["grocery"]
    rng = random.Random(1)
    assert {grocery.pick(rng, ["Bakery", 3]) for _ in range(30)} <= set(grocery.groups["Bakery"])
    rows = sample_seed(read_spec(compiled()["cornerstore"]), 7, CLOCK)["product"]
    assert all(r["name"] in grocery.groups[r["aisle"]] for r in rows)
    assert list(rows[0]) == ["id", "name", "aisle", "brand", "price", "stock", "organic"]  # the spec's order, whatever the draw order
    animals = sample_seed(read_spec(compiled()["petpals"]), 7, CLOCK)["animal"]
    assert all(a["breed"] in vocabularies()["breed"].groups[a["species"]] for a in animals)
    posts = sample_seed(read_spec(compiled()["pulse"]), 7, CLOCK)["post"]  # a headline by topic, its text by headline
    assert all(p["headline"] in vocabularies()["post_headline"].groups[p["topic"]] for p in posts)
    assert all(p["body"] in vocabularies()["post_body"].groups[p["headline"]] for p in posts)


def test_every_compiled_apps_sample_rows_are_free_of_lorem_and_salad():
    """Every text value of every catalogue spec's default seed, judged by the checker's content law."""
    salad = {}
    for name, path in compiled().items():
        spec = read_spec(path)
        seed = sample_seed(spec, spec.sample_seed, CLOCK)
        assert seed == sample_seed(spec, spec.sample_seed, CLOCK), name  # deterministic from the seed
        found = problems(str(v) for rows in seed.values() for r in rows for v in r.values() if isinstance(v, str))
        assert set(found) <= {"word salad"}, (name, found)
        salad[name] = found.get("word salad", [])
    # the heuristic flags a few real phrases ("Key account manager", "Old Town Food Walk"): at most one value in an
    # app, in at most one app of 40
    flagged = {name: found for name, found in salad.items() if found}
    assert all(len(found) <= 1 for found in flagged.values()) and len(flagged) <= max(2, len(salad) // 40), flagged


def test_free_text_samples_draw_from_the_apps_domain_and_unknown_names_say_what_is_known():
    spec = read_spec(compiled()["notedeck"])
    body = spec.entity("note").model_copy(update={"fields": tuple(
        f.model_copy(update={"sample": "paragraph"}) if f.name == "body" else f for f in spec.entity("note").fields)})
    spec = spec.model_copy(update={"entities": (body,)})
    notes = set(domain_of(spec.category).notes)
    for row in sample_seed(spec, 3, CLOCK)["note"]:
        assert row["body"] and all(s in " ".join(notes) for s in row["body"].replace(". ", ".|").split("|")), row["body"]
    assert "grocery" in sample_names() and "job" in sample_names() and "lorem" not in sample_names()
    bad = body.model_copy(update={"fields": tuple(f.model_copy(update={"sample": "lorem"}) if f.name == "body" else f for f in body.fields)})
    with pytest.raises(SampleError, match="known: .*grocery"):
        sample_seed(spec.model_copy(update={"entities": (bad,)}), 3, CLOCK)
