"""The kit's defect derivation: a declared edit applies exactly once, or the derivation refuses, naming why."""

from __future__ import annotations

import pytest

from mocked_apps.kit import Defect, DeriveError, Edit, derive_app, load_manifest
from tests.conftest import FIXTURE_APPS


def test_a_defect_is_the_notes_app_with_its_edits_and_its_own_name(tmp_path):
    defect = Defect(name="notes_dead", law="dead_controls", description="Notes with a dead button.",
                    edits=(Edit(file="templates/note.html", find="<h1>", replace="<button>Nothing</button><h1>"),
                           Edit(file="static/x.js", replace="1;\n")))
    root = derive_app(FIXTURE_APPS / "notes", defect, tmp_path)
    assert load_manifest(root).name == "notes_dead"
    assert (root / "__init__.py").read_text() == '"""Notes with a dead button."""\n'
    assert "<button>Nothing</button><h1>" in (root / "templates/note.html").read_text()
    assert (root / "static/x.js").read_text() == "1;\n"
    assert (root / "routes.py").read_text() == (FIXTURE_APPS / "notes" / "routes.py").read_text()
    assert "<button>Nothing" not in (FIXTURE_APPS / "notes" / "templates/note.html").read_text()


@pytest.mark.parametrize("edit, says", [
    (Edit(file="templates/note.html", find="no such text", replace="x"), "0 times"),
    (Edit(file="templates/note.html", find="{{", replace="x"), "times, not once"),
    (Edit(file="missing.py", find="a", replace="b"), "does not exist"),
    (Edit(file="routes.py", replace="x"), "already exists"),
])
def test_an_edit_that_does_not_apply_exactly_is_refused(tmp_path, edit, says):
    with pytest.raises(DeriveError, match=says):
        derive_app(FIXTURE_APPS / "notes", Defect(name="bad", law="console", description="d", edits=(edit,)), tmp_path)
