"""The kit's admin API and instance store against a real server process."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from mocked_apps.kit import AdminError, TOKEN_HEADER


def test_admin_api_requires_token(notes_server):
    for method, path in [("GET", "/_gym/health"), ("GET", "/_gym/manifest"), ("POST", "/_gym/instances")]:
        assert httpx.request(method, notes_server.url + path).status_code == 401
        assert httpx.request(method, notes_server.url + path, headers={TOKEN_HEADER: "wrong"}).status_code == 401
    assert notes_server.admin.health() == {"ok": True, "app": "notes", "version": "1.0"}


def test_manifest_has_entity_schemas(notes_server):
    manifest = notes_server.admin.manifest()
    assert manifest["name"] == "notes"
    assert set(manifest["entities"]["note"]["properties"]) >= {"id", "title", "body", "pinned", "created_at"}


def test_reset_restores_state_and_clock_exactly(notes_server):
    inst = notes_server.admin.create()
    iid = inst["instance_id"]
    assert len(iid) >= 32  # 128 random bits, hex
    initial = notes_server.admin.state(iid)
    page = httpx.post(f"{notes_server.url}/i/{iid}/new", data={"title": "Trip", "body": "Pack"}, follow_redirects=False)
    assert page.status_code == 303
    changed = notes_server.admin.state(iid)
    assert changed["note"][-1]["title"] == "Trip" and changed["note"][-1]["created_at"].startswith("2026-03-02 09:00")
    notes_server.admin.reset(iid)
    assert notes_server.admin.state(iid) == initial
    # the clock was reset too: the next note gets the same timestamp again
    httpx.post(f"{notes_server.url}/i/{iid}/new", data={"title": "Trip"})
    assert notes_server.admin.state(iid) == changed | {"note": changed["note"][:-1] + [{**changed["note"][-1], "body": ""}]}


def test_instances_are_isolated(notes_server):
    a = notes_server.admin.create()["instance_id"]
    b = notes_server.admin.create()["instance_id"]
    httpx.post(f"{notes_server.url}/i/{a}/note/1/delete")
    assert [n["id"] for n in notes_server.admin.state(a)["note"]] == [2, 3]
    assert [n["id"] for n in notes_server.admin.state(b)["note"]] == [1, 2, 3]
    assert "Groceries" in httpx.get(f"{notes_server.url}/i/{b}/").text


def test_dump_is_canonical_and_sorted(notes_server):
    seed = {"note": [
        {"id": 9, "title": "z", "created_at": "2026-01-01T00:00:00"},
        {"id": 2, "title": "a", "pinned": True, "created_at": "2026-01-01T00:00:00"},
    ]}
    iid = notes_server.admin.create(seed, "2026-05-01T12:00:00")["instance_id"]
    dump = notes_server.admin.state(iid)
    assert [n["id"] for n in dump["note"]] == [2, 9]
    assert dump["note"][0]["pinned"] is True and dump["note"][1]["pinned"] is False
    assert notes_server.admin.state(iid) == dump


@pytest.mark.parametrize(
    "seed, clock, where",
    [
        ({"note": [{"id": 1, "title": "", "created_at": "2026-01-01T00:00:00"}]}, None, "seed.note[0].title"),
        ({"note": [{"id": 1, "title": "x", "created_at": "soon"}]}, None, "seed.note[0].created_at"),
        ({"note": [{"id": 1, "title": "x", "colour": "red", "created_at": "2026-01-01T00:00:00"}]}, None, "seed.note[0].colour"),
        ({"notes": []}, None, "seed.notes"),
        ({"note": [{"id": 1, "title": "a", "created_at": "2026-01-01T00:00:00"}] * 2}, None, "UNIQUE"),
        (None, "yesterday", "clock"),
    ],
)
def test_bad_seed_is_422_naming_the_field_and_creates_nothing(notes_server, seed, clock, where):
    before = httpx.get(notes_server.url + "/_gym/instances", headers={TOKEN_HEADER: notes_server.token}).json()
    with pytest.raises(AdminError) as err:
        notes_server.admin.create(seed, clock)
    assert err.value.status == 422 and where in err.value.detail
    after = httpx.get(notes_server.url + "/_gym/instances", headers={TOKEN_HEADER: notes_server.token}).json()
    assert after == before


def test_unknown_instance_is_404(notes_server):
    assert httpx.get(f"{notes_server.url}/i/{'0' * 32}/").status_code == 404
    with pytest.raises(AdminError) as err:
        notes_server.admin.reset("0" * 32)
    assert err.value.status == 404
    iid = notes_server.admin.create()["instance_id"]
    notes_server.admin.delete(iid)
    assert httpx.get(f"{notes_server.url}/i/{iid}/").status_code == 404


def test_rows_may_leave_out_optional_fields(notes_server):
    seed = {"note": [
        {"id": 1, "title": "with body", "body": "x", "pinned": True, "created_at": "2026-01-01T00:00:00"},
        {"id": 2, "title": "defaults", "created_at": "2026-01-01T00:00:00"},
    ]}
    iid = notes_server.admin.create(seed)["instance_id"]
    assert notes_server.admin.state(iid)["note"][1] == {
        "id": 2, "title": "defaults", "body": "", "pinned": False, "created_at": "2026-01-01 00:00:00.000000"}


def test_concurrent_creates_of_a_new_seed_all_succeed(notes_server):
    from concurrent.futures import ThreadPoolExecutor

    from mocked_apps.kit import AdminClient

    seed = {"note": [{"id": 1, "title": "race", "created_at": "2026-04-01T00:00:00"}]}
    clients = [AdminClient(notes_server.url, notes_server.token) for _ in range(8)]
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(lambda c: c.create(seed)["instance_id"], clients))
    assert len(set(ids)) == 8
    assert all(notes_server.admin.state(i)["note"][0]["title"] == "race" for i in ids)


def test_a_server_started_without_a_data_folder_removes_its_own_when_stopped(tmp_path, monkeypatch):
    from mocked_apps.kit import AppServer

    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the child makes its folder here
    notes = str(Path(__file__).resolve().parents[1] / "fixtures" / "apps" / "notes")
    with AppServer(notes):
        assert len(list(tmp_path.glob("gym-*"))) == 1
    assert list(tmp_path.glob("gym-*")) == []
