"""Clinic booking families against the app's own booking rule, over generated worlds."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from factory.worlds.builder import generated_world
from mocked_apps.clinic.families import BookSlot, EarliestInNetwork
from mocked_apps.clinic.projection import project
from mocked_apps.clinic.rules import patient_clash


def test_booking_families_pick_slots_the_patient_is_free_for():
    """A booking task never names a slot that overlaps the patient's own appointment: the app refuses that booking
    ("... already has an appointment"), so its golden code could not pass (two such tasks in 320 before)."""
    checked = 0
    for index in range(40):
        world = generated_world(seed=0, index=index)
        rows = project(world)
        for family in (BookSlot(), EarliestInNetwork()):
            for seed in range(3):
                req = family.requirements(world, random.Random(seed))
                if req is None:
                    continue
                c = req.answer_context
                doctor = next(d for d in rows["doctor"] if d["id"] == c["doctor_id"])
                start = datetime.fromisoformat(c["start"])
                end = start + timedelta(minutes=doctor["slot_minutes"])
                assert patient_clash(c["patient_id"], start, end, rows["appointment"]) is None, (world.id, family.name, c)
                checked += 1
    assert checked > 100
