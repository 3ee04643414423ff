"""Small tasks on the notes fixture app for the runtime's tests (R1), and helpers to find a browser to kill."""

from __future__ import annotations

import os
from pathlib import Path

from contracts.task import Task

NOTES = str(Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes")

CREATE_VERIFIER = """
def verify(final):
    app = list(final.state)[0]
    titles = [n["title"] for n in final.state[app]["note"]]
    before = [n["title"] for n in final.initial_state[app]["note"]]
    return {"created": "{title}" in titles and "{title}" not in before, "answered": final.answer == "{answer}"}
"""


def create_note_task(title: str = "Trip", answer: str = "done", apps: tuple[str, ...] = (NOTES,), **extra) -> Task:
    """Create a note called `title` and answer `answer`; `answered` is optional (weight 1)."""
    return Task(
        id=f"notes.create.{title.lower()}",
        apps=apps,
        instruction=f"Create a note titled {title}, then answer {answer}.",
        criteria=[
            {"id": "created", "description": f"a note titled {title} exists"},
            {"id": "answered", "description": f"the answer is {answer}", "required": False},
        ],
        verifier=CREATE_VERIFIER.replace("{title}", title).replace("{answer}", answer),
        golden="def solve(env):\n    pass  # placeholder: R2 runs golden code\n",
        meta={"family": "notes.create", "provenance": "hand"},
        **extra,
    )


def solve_create(session, title: str, answer: str = "done") -> list:
    """Drive a session through the create-note task by role and name, as golden code would."""
    from runtime.axtree import find, parse_axtree

    obs = session.observe()
    steps = []
    for role, name, action in (("link", "New note", "click({id})"), ("textbox", "Title", f'fill({{id}}, "{title}")'), ("button", "Save note", "click({id})")):
        node = find(parse_axtree(obs.axtree), role=role, name=name)
        obs = session.step(action.format(id=node.id), action_id=f"{session.attempt}-{len(steps)}")
        steps.append(obs)
    steps.append(session.step(f'answer("{answer}")', action_id=f"{session.attempt}-answer"))
    return steps


def chromium_pids() -> list[int]:
    """Browser (not renderer) processes of Chromium started by this test process."""
    mine = _descendants(os.getpid())
    out = []
    for pid in mine:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmd and b"chrom" in cmd[0] and not any(arg.startswith(b"--type=") for arg in cmd):
            out.append(pid)
    return out


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out
