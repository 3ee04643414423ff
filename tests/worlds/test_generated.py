"""Generated worlds: deterministic, sound at every size, every catalogue scenario playable, the
distractors there, bad size knobs refused in one line, and every app's projection loaded for real."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from factory.worlds.builder import generated_world, world_from
from factory.worlds.catalog import PERSONAS, SCENARIOS
from factory.worlds.integrity import problems
from factory.worlds.personas import generated_persona
from factory.worlds.pool import WorldPool, scenario_of
from factory.worlds.seeds import PROJECTIONS
from factory.worlds.seeds.load import load_on_apps
from mocked_apps.registry import SHIPPED
from tests.support.sampling import sample
from factory.worlds.size import WorldSizeError, world_size
from gymfactory.cli import build
from contracts.registry import UnknownName

_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _texts(world) -> list[str]:
    """Every free text of a world, where an unfilled template placeholder would show."""
    out = [world.scenario.title, world.scenario.description]
    out += [m.title for m in world.meetings] + [m.location for m in world.meetings] + [m.description for m in world.meetings]
    out += [d.name for d in world.documents] + [d.folder for d in world.documents] + [d.text for d in world.documents]
    out += [c for d in world.documents for r in d.rows for c in r]
    out += [m.subject for m in world.messages] + [m.body for m in world.messages]
    out += [o.name for o in world.organisations] + [t.description for t in world.transactions]
    return out


def test_same_seed_same_world_and_worlds_differ():
    a = generated_world(7, 3)
    assert a.model_dump_json() == generated_world(7, 3).model_dump_json()
    assert generated_persona(7, 3) == a.persona
    others = {generated_world(7, i).model_dump_json() for i in range(30)} | {generated_world(8, 3).model_dump_json()}
    assert len(others) == 31
    personas = [generated_persona(7, i) for i in range(60)]
    assert len({p.id for p in personas}) == 60 and len({p.locale for p in personas}) >= 8 and len({p.currency for p in personas}) >= 4
    assert set(PERSONAS) == {"alex", "rosa", "kenji"}  # the hand-written ones stay as fixtures


def test_many_generated_worlds_are_sound():
    worlds = [generated_world(11, i) for i in range(120)]
    assert all(problems(w) == [] for w in worlds)
    assert len({w.scenario.id for w in worlds}) == len(SCENARIOS) >= 24
    assert len({w.persona.name for w in worlds}) >= 115


@pytest.mark.parametrize("knobs", [dict(people=6, documents=0, history_days=14, distractor_rate=0.0),
                                   dict(people=120, documents=150, history_days=365, distractor_rate=1.0)])
def test_worlds_are_sound_at_the_size_extremes(knobs):
    size = world_size(**knobs)
    for i in range(len(SCENARIOS)):
        w = generated_world(3, i, size)
        assert problems(w) == [], w.id
        assert len(w.documents) >= knobs["documents"]
    assert len(w.people) >= knobs["people"]


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_scenario_generates_a_valid_world(scenario):
    spec = SCENARIOS[scenario]
    for i in range(3):
        w = world_from(generated_persona(5, i), spec, seed=i)
        assert problems(w) == [] and w.scenario.id == scenario and scenario_of(w.id) == scenario
        leftovers = [t for t in _texts(w) if _PLACEHOLDER.search(t)]
        assert not leftovers, leftovers[:3]
        for cast in spec.cast:  # the scenario's cast is in the world, with its people
            assert any(o.kind in (cast.kind, "vendor") and any(p.org == o.id for p in w.people) for o in w.organisations)
        kinds = {type(b).__name__ for b in spec.beats}
        if "Booking" in kinds:
            assert any(f.key.startswith("booking.") for f in w.facts)
        # what every family needs: open invoices with payees and the email that carried them, checking and savings
        assert any(not inv.paid for inv in w.invoices)
        assert {a.kind for a in w.accounts} >= {"checking", "savings"}


def test_distractors_at_full_rate():
    w = generated_world(2, 0, world_size(distractor_rate=1.0))
    vendors = sorted(o.name for o in w.organisations if o.kind == "vendor")
    assert any(b != a and b.startswith(a + " ") for a in vendors for b in vendors)  # near-duplicate vendor names
    numbers = [i.number for i in w.invoices]
    assert any(a != b and sorted(a) == sorted(b) and a.split("-")[0] == b.split("-")[0] for a in numbers for b in numbers)
    names = [d.name for d in w.documents]
    assert any(n != m and m in n for n in names for m in names)  # an outdated copy beside the document
    open_amounts = [i.amount for i in w.invoices if not i.paid]
    assert any(t.amount < 0 and not t.reference and any(0 < abs(-t.amount - a) <= 0.05 * a for a in open_amounts) for t in w.transactions)
    plain = generated_world(2, 0, world_size(distractor_rate=0.0))
    assert len(plain.invoices) < len(w.invoices) and len(plain.documents) < len(w.documents)


def test_a_near_duplicate_vendor_never_says_its_suffix_twice():
    """A sibling vendor's drawn suffix that the name already ends with gives way to the next ("Ovenfix Services" drew
    " Services" in world 3: "Ovenfix Services Services" read as a stutter in every page and instruction naming it)."""
    names = [o.name for seed in range(6) for o in generated_world(seed, 0, world_size(distractor_rate=1.0)).organisations]
    assert "Ovenfix Services International" in names
    assert not [n for n in names if re.search(r"\b(\w+) \1\b", n)]


def test_bad_size_knobs_and_names_are_one_line_errors():
    with pytest.raises(WorldSizeError, match=r"people=2: .* between 6 and 400"):
        world_size(people=2)
    with pytest.raises(WorldSizeError, match="distractor_rate=1.5"):
        world_size(distractor_rate=1.5)
    with pytest.raises(WorldSizeError, match="known knobs: people, documents, history_days, distractor_rate"):
        world_size(colleagues=3)
    with pytest.raises(UnknownName, match="did you mean month_end"):
        WorldPool(personas=("alex",), scenarios=("month_ned",))
    result = CliRunner().invoke(build(), ["bench", "worlds", "--worlds", "1", "--projections", "0", "--history-days", "3"], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert lines == ["error: world size knob history_days=3: Input should be greater than or equal to 14; it must be between 14 and 730"], result.output


def test_pools_are_deterministic_and_fixture_pools_cycle():
    generated = WorldPool(seed=4)
    assert generated.count is None and generated.world(9).model_dump_json() == WorldPool(seed=4).world(9).model_dump_json()
    fixtures = WorldPool(seed=1, personas=("alex", "rosa"), scenarios=("trip", "hiring"), worlds_per_pair=2)
    ids = [fixtures.world(i).id for i in range(fixtures.count)]
    assert fixtures.count == 8 and len(set(ids)) == 8 and fixtures.world(8).id == ids[0]


def test_every_projection_creates_real_instances_for_generated_worlds():
    """One generated world per catalogue scenario (distractors on), loaded into the real server of every hand-made
    app and of a sample of the compiled ones (every app with --full: one server start each is most of the cost, 56
    apps took 200 s). `gymfactory bench worlds` does the same over 200 worlds."""
    worlds = [generated_world(21, i, world_size(distractor_rate=0.6)) for i in range(len(SCENARIOS))]
    apps = sample(PROJECTIONS, 4, always=[a for a in PROJECTIONS if a in SHIPPED])
    loads = load_on_apps(worlds, apps)
    assert set(loads) == set(apps) and len(apps) >= min(len(PROJECTIONS), len(SHIPPED) + 4)
    for app, load in loads.items():
        assert load.seed_errors == [] and load.row_mismatches == [], (app, load.seed_errors[:2], load.row_mismatches[:2])
        assert load.created == len(worlds), app
