"""--catalogue with a small --tasks reaches hand-made and compiled apps alike (round-robin over apps, then families),
the default synthesis keeps its order, and `tasks families --catalogue` lists the derived families."""

from __future__ import annotations

from collections import Counter

from typer.testing import CliRunner

from factory.tasks.families import FAMILIES, spread_over_apps
from factory.tasks.synthesize import SynthConfig, select_families, synthesize
from gymfactory.cli import build


def test_a_small_catalogue_synthesis_spans_as_many_apps_as_tasks_half_of_them_compiled():
    tasks = synthesize(SynthConfig(n=24, catalogue=True))
    apps = Counter(t.apps[0] for t in tasks)
    compiled = [t for t in tasks if t.meta.family not in FAMILIES]
    assert len(tasks) == 24 and len(apps) == 24, apps  # the declared order gave five hand-made apps
    assert len(compiled) == 12 and len({t.apps[0] for t in compiled}) == 12


def test_the_spread_takes_apps_round_robin_then_families_and_the_default_order_is_unchanged():
    assert select_families(SynthConfig()) == list(FAMILIES.values())  # no --catalogue: as declared
    families = list(FAMILIES.values())
    spread = spread_over_apps(families, seed=0)
    apps = len({f.apps[0] for f in families})
    first = [f.apps[0] for f in spread[:apps]]
    assert sorted(spread, key=lambda f: f.name) == sorted(families, key=lambda f: f.name)
    assert len(set(first)) == apps  # every app once before any app twice
    assert [f.name for f in spread if f.apps[0] == "notes"] == [f.name for f in families if f.apps[0] == "notes"]
    assert spread_over_apps(families, seed=1) != spread  # the seed draws the apps' order


def test_tasks_families_lists_the_derived_families_with_catalogue():
    runner = CliRunner()
    plain = runner.invoke(build(), ["tasks", "families"], env={"COLUMNS": "300"})
    full = runner.invoke(build(), ["tasks", "families", "--catalogue"], env={"COLUMNS": "300"})
    assert plain.exit_code == 0 and full.exit_code == 0, (plain.output[-500:], full.output[-500:])
    assert "pawcare.appointment.create" in full.output and "pawcare.appointment.create" not in plain.output
    assert f"{len(FAMILIES)} families over" in plain.output and "--catalogue adds the compiled apps' families" in plain.output
    assert int(full.output.split(" families over")[0].split()[-1]) > 1000
