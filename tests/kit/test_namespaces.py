"""Per-app table namespaces: two apps with the same table names load into one process."""

from __future__ import annotations

from pathlib import Path

from mocked_apps.kit import Defect, Edit, derive_app, load_package

MAIL = Path(__file__).resolve().parents[2] / "mocked_apps" / "mail"


def test_two_apps_with_a_message_table_load_side_by_side(tmp_path):
    twin = derive_app(MAIL, Defect(name="mail_twin", law="none", description="A second mail app.",
                                   edits=(Edit(file="NOTES.txt", replace="same tables as mail\n"),)), tmp_path)
    first, second = load_package("mocked_apps.mail"), load_package(str(twin))
    assert first.table("message") is not None and second.table("message") is not None
    assert first.table("message") is not second.table("message")
    assert first.table("message").metadata is not second.table("message").metadata
