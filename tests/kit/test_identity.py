"""The kit owns the signed-in identity: a world's persona, projected into the seed, is who the bank shows
(no hard-coded company), it stays out of state dumps, and a malformed one is a 422 naming the field."""

from __future__ import annotations

import httpx
import pytest

from factory.worlds.builder import generated_world
from factory.worlds.seeds import seeds_for
from mocked_apps.kit import AdminError, AppServer
from mocked_apps.kit.identity import IDENTITY_KEY


@pytest.fixture(scope="module")
def bank():
    with AppServer("mocked_apps.bank") as server:
        yield server


def _page(server: AppServer, instance: dict, path: str = "") -> str:
    response = httpx.get(f"{server.url}{instance['url']}{path}", timeout=30)
    assert response.status_code == 200
    return response.text


def test_a_world_of_another_persona_shows_its_own_company_and_name(bank):
    world = generated_world(7, 0)
    assert world.persona.company != "Northwind Studio"
    records = seeds_for(world, ["bank"])["bank"]
    instance = bank.admin.create(records, world.scenario.clock.isoformat())
    html = _page(bank, instance)
    assert f"{world.persona.company} · {world.persona.name}".replace("&", "&amp;").replace("'", "&#39;") in html
    assert "Northwind Studio" not in html
    assert IDENTITY_KEY not in bank.admin.state(instance["instance_id"])


def test_the_default_seed_signs_in_its_own_user(bank):
    assert "Northwind Studio · Alex Morgan" in _page(bank, bank.admin.create())


def test_a_malformed_identity_is_rejected_naming_the_field(bank):
    seed = {IDENTITY_KEY: [{"name": "A", "email": "a@b.example", "company": "C", "role": "boss"}]}
    with pytest.raises(AdminError, match=r"_identity\[0\]\.role"):
        bank.admin.create(seed)
