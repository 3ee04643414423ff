"""Worlds: deterministic, varied, and integrity-checked whenever one is built."""

from __future__ import annotations

import pytest

from factory.worlds.builder import UnknownName, build_world
from factory.worlds.catalog import PERSONAS, SCENARIOS
from factory.worlds.integrity import WorldError, check, problems
from contracts.world import World


@pytest.mark.parametrize("persona", sorted(PERSONAS))
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_shipped_world_is_sound_and_rich(persona, scenario):
    for seed in range(5):
        world = build_world(persona, scenario, seed)
        assert problems(world) == []
        assert len(world.invoices) >= 4 and len(world.meetings) >= 6 and len(world.messages) >= 10
        # the invoice in the drive, the email that carried it, the payment that settles it
        filenames = {a for m in world.messages for a in m.attachments}
        assert {i.filename for i in world.invoices} <= filenames
        for inv in (i for i in world.invoices if i.paid):
            assert any(t.reference == inv.number and t.amount == -inv.amount for t in world.transactions)


def test_same_seed_same_world_and_seeds_vary():
    a = build_world("alex", "month_end", 7)
    assert a.model_dump_json() == build_world("alex", "month_end", 7).model_dump_json()
    others = {build_world("alex", "month_end", s).model_dump_json() for s in range(6)}
    assert len(others) == 6


def test_world_round_trips_through_json():
    world = build_world("rosa", "offsite", 3)
    assert World.model_validate_json(world.model_dump_json()) == world


def test_broken_references_amounts_and_dates_are_named():
    world = build_world("kenji", "client_kickoff", 2)
    inv = world.invoices[0]
    broken = world.model_copy(update={
        "invoices": (inv.model_copy(update={"vendor": "o999", "amount": inv.amount + 1}),) + world.invoices[1:],
        "meetings": (world.meetings[0].model_copy(update={"end": world.meetings[0].start}),) + world.meetings[1:],
    })
    with pytest.raises(WorldError) as err:
        check(broken)
    text = " | ".join(err.value.problems)
    assert "vendor o999 does not exist" in text
    assert f"items add up to {inv.amount:.2f}, not {inv.amount + 1:.2f}" in text
    assert "ends before it starts" in text


def test_unknown_persona_is_a_clear_error():
    with pytest.raises(UnknownName, match="known: alex, rosa, kenji"):
        build_world("bob", "month_end", 0)
