"""Instances of two task families (pin a note, delete a note) on the notes fixture app, with varied seeds.

Held-out evaluation needs task instances never trained on; the five hand-written fixture tasks
are too few, so these families vary the notes (titles, order, pins) and the target.
Run as a script to write a JSONL file: `python -m tests.rl.notes_instances OUT.jsonl [N]`.
"""

from __future__ import annotations

import random
import sys

from contracts.taskfiles import save_tasks
from contracts.task import Task

APP = "tests/fixtures/apps/notes"
TITLES = (
    "Groceries", "Book club", "Gym", "Car service", "Birthday gift", "Tax return", "Team lunch", "Garden",
    "Passport", "Piano lesson", "Plumber", "Vacation", "Library books", "Insurance", "Recipes", "Dentist",
)
_VERIFY = '''APP = "tests/fixtures/apps/notes"


def verify(final):
    before = {{n["id"]: n for n in final.initial_state[APP]["note"]}}
    after = {{n["id"]: n for n in final.state[APP]["note"]}}
    others = set(after) - {{{target}}} == set(before) - {{{target}}} and all(after[i] == before[i] for i in before if i != {target} and i in after)
    return {{"done": {check}, "others_intact": others}}
'''
_FAMILIES = {
    "pin": ("Pin the note '{title}' so it shows at the top.", "Pin", '{target} in after and after[{target}]["pinned"] is True'),
    "delete": ("Delete the note '{title}'; keep all the others.", "Delete", "{target} not in after"),
}


def instance(family: str, rng: random.Random, index: int) -> Task:
    """One instance: 3-4 notes with random titles and pins; the target note is never pinned already."""
    titles = rng.sample(TITLES, rng.randint(3, 4))
    notes = [
        {"id": i + 1, "title": t, "body": f"About {t.lower()}", "pinned": rng.random() < 0.3,
         "created_at": f"2026-02-{10 + i:02d}T09:00:00"}
        for i, t in enumerate(titles)
    ]
    target = rng.choice(notes)
    target["pinned"] = False
    instruction, button, check = _FAMILIES[family]
    return Task(
        id=f"notes-{family}-{index:03d}",
        apps=(APP,),
        clock="2026-03-02T09:00:00",
        seed={APP: {"note": notes}},
        instruction=instruction.format(title=target["title"]),
        criteria=[{"id": "done", "description": f"the note is {family}{'ned' if family == 'pin' else 'd'}"},
                  {"id": "others_intact", "description": "no other note changed"}],
        verifier=_VERIFY.format(target=target["id"], check=check.format(target=target["id"])),
        golden=(f'def solve(env):\n    env.open_app("notes")\n    env.click({target["title"]!r}, role="link")\n'
                f'    env.click({button!r}, role="button")\n'),
        meta={"family": f"notes.{family}", "difficulty": "easy", "provenance": "template"},
    )


def notes_instances(n: int, seed: int = 0) -> list[Task]:
    """`n` instances alternating pin and delete."""
    rng = random.Random(seed)
    return [instance(("pin", "delete")[i % 2], rng, i) for i in range(n)]


if __name__ == "__main__":
    count = save_tasks(notes_instances(int(sys.argv[2]) if len(sys.argv) > 2 else 24), sys.argv[1])
    print(f"wrote {count} tasks to {sys.argv[1]}")
