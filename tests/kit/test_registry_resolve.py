"""An app reference: a registered name, a module, or a package folder; a name wins over a same-named folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.registry import UnknownName
from mocked_apps.registry import available, resolve

FIXTURE_NOTES = Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes"


def test_a_registered_name_wins_over_a_folder_of_that_name_in_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "notes").mkdir()  # any folder: `gymfactory run` from /tmp met one and failed to serve the notes app
    monkeypatch.chdir(tmp_path)
    assert resolve("notes") == available()["notes"]
    with pytest.raises(Exception, match="not a package folder"):
        from mocked_apps.kit.package import load_package

        load_package(resolve("./notes"))  # a path is the folder, and that folder is no app


def test_a_folder_path_and_a_typo():
    assert resolve(str(FIXTURE_NOTES)) == str(FIXTURE_NOTES)
    with pytest.raises(UnknownName, match="notes"):
        resolve("notse")
