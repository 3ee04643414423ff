"""Every hand-made app's default seed (seed.json) is its projection of the one default world, so the default seeds
agree with each other by construction (the same persona, clock, accounts, vendors and invoices in every app).
When an app's projection changes, `gymfactory apps seed APP` rewrites its seed.json."""

from __future__ import annotations

import json

import pytest

from factory.worlds.default import default_seed, default_world, seed_apps, seed_path, seed_text, write_default_seeds


@pytest.mark.parametrize("app", seed_apps())
def test_seed_json_is_the_projection_of_the_default_world(app):
    on_disk = json.loads(seed_path(app).read_text())
    assert on_disk == default_seed(app), f"mocked_apps/{app}/seed.json is not its projection: run `gymfactory apps seed {app}`"


def test_the_default_seeds_agree_on_the_persona_clock_and_accounts():
    world = default_world()
    assert world.scenario.clock.isoformat() == "2026-03-02T09:00:00" and world.persona.company == "Northwind Studio"
    bank = {a["kind"]: a for a in default_seed("bank")["seed"]["account"]}
    for app in ("food", "rail"):
        labels = {m["label"] for m in default_seed(app)["seed"]["paymentmethod"]}
        assert labels == {f"{bank[k]['name']} {bank[k]['number_masked']}" for k in ("checking", "credit")}


def test_a_seed_file_that_drifted_is_rewritten_and_one_that_did_not_is_left(tmp_path, monkeypatch):
    path = tmp_path / "seed.json"
    monkeypatch.setattr("factory.worlds.default.seed_path", lambda app: path)
    path.write_text(seed_text(default_seed("bank")).replace("40691.0", "99999.0"))
    assert write_default_seeds(["bank"]) == {"bank": True}
    assert json.loads(path.read_text()) == default_seed("bank")
    assert write_default_seeds(["bank"]) == {"bank": False}
