"""The app compiler: every catalogue spec compiles with 3+ derived families; one compiled app per archetype group
passes the contract checker on a real browser; derived tasks of a compiled app pass validation (see tests/factory)."""

from __future__ import annotations

import pytest

from mocked_apps.catalogue import compiled
from mocked_apps.checker import check_app
from mocked_apps.kit.package import load_package, load_part
from mocked_apps.kit.spec import SpecError, read_spec
from mocked_apps.registry import available


def test_every_catalogue_spec_compiles_with_three_families_and_is_registered(monkeypatch):
    monkeypatch.setenv("GYMFACTORY_CATALOGUE", "1")
    apps = compiled()
    assert len(apps) >= 40
    registry = available()
    categories = set()
    for name, path in apps.items():
        spec = read_spec(path)
        assert spec.name == name and registry[name] == path
        package = load_package(path)
        assert {t.__tablename__ for t in package.tables} >= {e.name for e in spec.entities}
        assert package.default_seed[spec.entities[0].name], name
        assert len(load_part(path, "families").FAMILIES) >= 3, name
        categories.add(spec.category)
    assert len(categories) >= 18
    monkeypatch.setenv("GYMFACTORY_CATALOGUE", "0")  # the default run keeps to the shipped apps' families
    assert load_part(apps["pawcare"], "families") is None and load_part(apps["pawcare"], "projection") is not None


def test_a_bad_spec_names_the_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ntitle: B\ncategory: x\ndescription: d\nentities:\n  thing:\n    title: nope\n"
                   "    fields: {name: {}}\npages:\n  - {archetype: table, entity: thing}\n")
    with pytest.raises(SpecError, match="entities.thing.title"):
        read_spec(bad)


@pytest.mark.parametrize("app", ["pawcare", "cornerstore", "pulse"])
def test_compiled_apps_pass_the_checker(app):
    """Between them: table, detail+tabs, wizard, booking, calendar, board, catalogue+cart, feed, chat, settings (map list and
    media: trailhead, checked in tests/checker/test_checker.py's sample of registered apps, and by `apps check`)."""
    report = check_app(app)
    assert report.ok, report.fail_line()


def test_apps_new_varies_a_catalogue_spec_and_apps_compile_registers_it(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from gymfactory.cli import build
    from mocked_apps.catalogue import user_specs

    monkeypatch.setenv("GYMFACTORY_HOME", str(tmp_path))
    runner = CliRunner()
    made = runner.invoke(build(), ["apps", "new", "--category", "pets", "--seed", "4", "--no-check"])
    assert made.exit_code == 0, made.output
    (path,) = user_specs().glob("*.yaml")
    spec = read_spec(path)
    base = read_spec(compiled()["petpals"])
    assert spec.category == "pets" and spec.name != base.name and spec.theme != base.theme
    assert available()[spec.name] == str(path.resolve())
    again = runner.invoke(build(), ["apps", "new", "--category", "pets", "--seed", "4", "--no-check"])
    assert again.exit_code == 0 and read_spec(path) == spec  # deterministic
    bad = runner.invoke(build(), ["apps", "new", "--category", "petz", "--no-check"])
    assert bad.exit_code == 2 and "did you mean pets" in bad.output
    compiled_out = runner.invoke(build(), ["apps", "compile", str(compiled()["fixit"]), "--no-check"])
    assert compiled_out.exit_code == 0 and (user_specs() / "fixit.yaml").is_file()


def test_formulas_compute_and_refuse_code():
    from mocked_apps.kit.spec import FormulaError, evaluate

    assert evaluate("round(rate * nights * 1.1, 2)", {"rate": 99.5, "nights": 3}) == 328.35
    assert evaluate("balance >= fee and not closed", {"balance": 10, "fee": 5, "closed": False}) is True
    for bad in ("__import__('os').system('true')", "rate.__class__", "[x for x in rate]", "open('f')"):
        with pytest.raises(FormulaError):
            evaluate(bad, {"rate": 1})


def test_sample_data_is_deterministic_and_draws_people_from_the_world():
    from datetime import datetime

    from contracts.world import World  # noqa: F401  (the projection's input)
    from mocked_apps.kit.compiler import projection
    from mocked_apps.kit.spec import sample_seed
    from factory.tasks.synthesize import SynthConfig, worlds

    spec = read_spec(compiled()["mediclinic"])
    clock = datetime(2026, 3, 2, 9)
    assert sample_seed(spec, 1, clock) == sample_seed(spec, 1, clock) != sample_seed(spec, 2, clock)
    world = next(worlds(SynthConfig(n=1, personas=("alex",), scenarios=("month_end",))))
    rows = projection(spec)(world)["visit"]
    people = {p.name for p in world.people}
    assert sum(r["patient"] in people for r in rows) >= len(rows) // 2
