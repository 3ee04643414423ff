"""The content law's judge on text: the placeholder text issue 29 found in compiled apps is caught, the real
text of apps is not (the planted lorem and word-salad apps are in defects.py, checked on a real browser)."""

from __future__ import annotations

import pytest

from mocked_apps.checker.content import SALAD_LIMIT, failing, instruction_problems, problem, problems, units


@pytest.mark.parametrize("text, kind", [
    ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "lorem"),
    ("Accusantium voluptatem quia", "lorem"),
    ("Synergized bi-directional groupware", "catch phrase"),
    ("Customer-focused responsive functionalities", "catch phrase"),
    ("DarkOrchid Strategy", "colour name"),
    ("LightSlateGray Parent", "colour name"),
    ("Bill performance kid political", "word salad"),
    ("Floor Enough Husband", "word salad"),
    ("Suddenly religious wish another treat", "word salad"),
])
def test_placeholder_text_is_caught(text, kind):
    assert problem(text) == (kind, text)


@pytest.mark.parametrize("text", [
    "Call the dentist", "Reschedule to next week", "Mark as delivered", "Refund order", "Price per bag", "PRICE PER BAG",
    "Pay out claim", "Hand back car", "Sourdough loaf", "Leaking kitchen tap", "Fresh groceries from the corner, delivered today.",
    "Do you want to keep this?", "Plan it once.", "Orange juice", "Semi-skimmed milk", "Mature cheddar", "Ran my first half marathon",
])
def test_real_text_is_not(text):
    assert problem(text) is None


def test_a_page_is_cut_into_lines_cells_and_sentences_and_a_few_salad_lookalikes_pass():
    assert units("Name\tAisle\nPlan it once. Travel light.\n\n") == ["Name", "Aisle", "Plan it once.", "Travel light."]
    lookalikes = ["Key account manager", "Enough water left"]
    assert not failing(problems(lookalikes)) and len(lookalikes) < SALAD_LIMIT
    salad = problems(["Bill performance kid political", "Floor Enough Husband", "Various Fact Such", "Floor Enough Husband"])
    assert salad == {"word salad": ["Bill performance kid political", "Floor Enough Husband", "Various Fact Such"]}
    assert failing(salad) and failing(problems(["Lorem ipsum dolor"]))


@pytest.mark.parametrize("instruction, kind", [
    ("Create a appointment in PawCare Vet Clinic with owner Sam Lee.", "a before a vowel"),
    ("In ArtKey Museum Desk, add a new member: gift aid True.", "a program's value"),
    ("In Tablewise, mark no_show the reservation \"Ada\".", "a program's name"),
    ("Find the exam \"Ada\" and call patient in in ClearSight Opticians.", "a word said twice"),
    ("Please in Tandemly Language Exchange, block user \"Joseph\".", "a polite lead on no request"),
    ("Kindly dojoDesk Martial Arts: I need a new student.", "a polite lead on no request"),
    ("Hi, Please how many rooms are free?", "a polite lead on no request"),
    ("Kindly open FieldRep, please put account on hold \"Riverside Chemist\".", "please twice"),
    ("Kindly i have invoice SMS-55959 in Drive but forgot who sent it.", "a polite lead on no request"),
    ("Please for my trip to Wrocław: book the family suite.", "a polite lead on no request"),
    ("Add a new ticket in Helpdesk. Subject: synergized bi-directional groupware.", "catch phrase"),
])
def test_an_instruction_that_reads_as_generated_is_caught(instruction, kind):
    assert [p.split(":")[0] for p in instruction_problems(instruction)] == [kind], instruction_problems(instruction)


@pytest.mark.parametrize("instruction", [
    "Add a new walk-in in Fadeline Barbers. Name: Nicolas; cut: Kids' cut; price: $335.00.",
    "Create an appointment in PawCare Vet Clinic with these details: pet: Rex; owner: Sam Lee; reason: \"Limping\".",
    "Kindly open Receiptly, find the claim \"QI-2122\" and return to claimant, with approver note \"Please attach the receipt.\".",
    "Create an entry in ExamSeat with these details: access arrangement: None; a unit: 3; an hour: 9.",
    "Please tell me how many tickets in Helpwire are open; answer with the number.",
])
def test_an_instruction_a_person_would_write_passes(instruction):
    assert instruction_problems(instruction) == []


def _asked(families, worlds, draws: int) -> tuple[int, list[str]]:
    """How many instructions `families` gave in `worlds` (each drawn `draws` times), and the law's problems with them."""
    import random

    asked, bad = 0, []
    for family in families:
        for world in worlds:
            for draw in range(draws):
                req = family.requirements(world, random.Random(f"{draw}/{family.name}/{world.id}"))
                if req is not None:
                    asked += 1
                    bad += [f"{family.name}: {p} in {req.instruction!r}" for p in instruction_problems(req.instruction)]
    return asked, bad


def test_every_derived_familys_instruction_reads_as_a_person_would_write_it():
    """The law over the whole catalogue: each compiled app's derived families, asked in two worlds."""
    from factory.tasks.families import FAMILIES, with_catalogue
    from factory.tasks.synthesize import SynthConfig, world_pool

    pool = world_pool(SynthConfig())
    derived = [f for name, f in with_catalogue().items() if name not in FAMILIES]
    asked, bad = _asked(derived, [pool.world(0), pool.world(1)], draws=1)
    assert len(derived) > 1000 and asked > 2000
    assert not bad, f"{len(bad)} of {asked}: " + "\n".join(bad[:10])


def test_every_hand_made_familys_instruction_reads_as_a_person_would_write_it():
    """The law over the hand-made apps' and the cross-app families: each asked twice in worlds of every persona voice
    (a formal voice puts "Please" or "Kindly" before a request, never before a question or "I need ...")."""
    from factory.tasks.families import FAMILIES
    from factory.tasks.synthesize import SynthConfig, world_pool

    pool = world_pool(SynthConfig())
    worlds = [pool.world(i) for i in range(6)]
    assert {w.persona.style for w in worlds} == {"formal", "friendly", "terse"}
    asked, bad = _asked(FAMILIES.values(), worlds, draws=2)
    assert len(FAMILIES) > 100 and asked > 900
    assert not bad, f"{len(bad)} of {asked}: " + "\n".join(bad[:10])
