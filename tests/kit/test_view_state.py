"""Declared view state: a GET route may set the fields its manifest declares (and is committed), never others;
the checker's dumps leave declared fields out. Apps derived from the notes fixture with the kit's helper."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AppServer, Defect, Edit, derive_app
from mocked_apps.kit.viewstate import ViewStateError, check_declared, without_view_state

NOTES = Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes"
SHOW = '''    return gym.render("note.html", note=gym.get(Note, note_id))'''
VIEWED = '''    note = gym.get(Note, note_id)
    gym.view(note, pinned=True)
    return gym.render("note.html", note=note)'''


def _app(tmp_path: Path, name: str, declare: bool) -> Path:
    edits = [Edit(file="routes.py", find=SHOW, replace=VIEWED)]
    if declare:
        edits.append(Edit(file="manifest.py", find='    icon="🗒",', replace='    icon="🗒",\n    view_state=("note.pinned",),'))
    return derive_app(NOTES, Defect(name=name, law="get_writes", description="Opening a note pins it.", edits=tuple(edits)), tmp_path)


def test_a_declared_field_is_set_by_a_get_and_committed(tmp_path):
    with AppServer(str(_app(tmp_path, "viewed_notes", declare=True))) as server:
        instance = server.admin.create()
        assert httpx.get(f"{server.url}{instance['url']}note/1", timeout=30).status_code == 200
        pinned = {n["id"]: n["pinned"] for n in server.admin.state(instance["instance_id"])["note"]}
        assert pinned[1] is True
        assert "pinned" not in without_view_state(server.admin.state(instance["instance_id"]), ("note.pinned",))["note"][0]


def test_an_undeclared_field_is_refused(tmp_path):
    with AppServer(str(_app(tmp_path, "sneaky_notes", declare=False))) as server:
        instance = server.admin.create()
        assert httpx.get(f"{server.url}{instance['url']}note/1", timeout=30).status_code == 500
        assert {n["id"]: n["pinned"] for n in server.admin.state(instance["instance_id"])["note"]}[1] is False


def test_check_declared_names_the_field():
    with pytest.raises(ViewStateError, match=r"note\.pinned is not declared"):
        check_declared("note", ["pinned"], ["message.read"])
