"""A fresh drive instance over real HTTP, for the drive's tests: GET/POST by path, its state dump, the rows tests pick."""

from __future__ import annotations

import json
import re

import httpx

from mocked_apps.kit import AppServer


class Drive:
    """One fresh instance of the drive: GET/POST by path, and its state dump."""

    def __init__(self, server: AppServer):
        self.server = server
        self.id = server.admin.create()["instance_id"]
        self.base = f"{server.url}/i/{self.id}"
        self.http = httpx.Client(base_url=self.base, timeout=30)

    def get(self, path: str) -> httpx.Response:
        response = self.http.get(path)
        assert response.status_code == 200, (path, response.text[:500])
        return response

    def post(self, path: str, **data) -> httpx.Response:
        response = self.http.post(path, data=data)
        assert response.status_code == 303, (path, response.status_code, response.text[:500])
        return response

    def refuse(self, path: str, **data) -> str:
        """POST a form the drive must refuse: the form again (422) with a field error; the error's text."""
        response = self.http.post(path, data=data)
        assert response.status_code == 422, (path, response.status_code)
        match = re.search(r'<p class="field-error" id="([a-z_]+)-error" role="alert">([^<]+)</p>', response.text)
        assert match and f'aria-describedby="{match[1]}-error"' in response.text, response.text[-800:]
        return match[2]

    def state(self) -> dict:
        return self.server.admin.state(self.id)

    def file(self, name: str) -> dict:
        (row,) = [f for f in self.state()["file"] if f["name"] == name]
        return row

    def folder(self, name: str) -> dict:
        (row,) = [f for f in self.state()["folder"] if f["name"] == name]
        return row

    def files(self, kind: str | None = None, **where) -> list[dict]:
        """The files not in the trash, of `kind` if given, whose fields equal `where`'s."""
        return [f for f in self.state()["file"] if not f["trashed"] and kind in (None, f["kind"])
                and all(f[k] == v for k, v in where.items())]

    def invoices(self) -> list[tuple[dict, dict]]:
        """(invoice, its file) for every invoice, in id order."""
        files = {f["id"]: f for f in self.state()["file"]}
        return [(inv, files[inv["file_id"]]) for inv in self.state()["invoice"]]

    def table_with(self, column: str) -> dict:
        """The first table (not trashed) with a `column` column and at least two rows."""
        return next(f for f in self.files("table") if column in grid(f)[0] and len(grid(f)[1]) >= 2)

    def top_folders(self) -> list[dict]:
        return [f for f in self.state()["folder"] if f["parent_id"] is None]

    def path(self, folder_id: int | None) -> list[str]:
        """The names of the folders from the top of My Drive down to `folder_id`."""
        folders = {f["id"]: f for f in self.state()["folder"]}
        names = []
        while folder_id is not None:
            names.insert(0, folders[folder_id]["name"])
            folder_id = folders[folder_id]["parent_id"]
        return names


def grid(file: dict) -> tuple[list[str], list[list[str]]]:
    """A table file's column names and rows."""
    data = json.loads(file["content"])
    return data["columns"], data["rows"]
