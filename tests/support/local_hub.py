"""A loopback HTTP server that answers the Hugging Face Hub endpoints `huggingface_hub` and `datasets` call.

Point the real clients at it with `HF_ENDPOINT` (the server URL) and any `HF_TOKEN`; it keeps git-like
history in memory: repos, commits (a full file snapshot each), the `main` branch and tags.

    with LocalHub() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        HfApi().create_repo("org/data", repo_type="dataset")
        assert hub.repos["dataset/org/data"].commits  # the initial commit

Files are committed inline ("regular" upload mode, base64 in the commit's NDJSON), which is what the
Hub asks for small text files; large-file transfer (LFS/Xet) is not served. Every request is
recorded in `requests` as (method, path) so a test can assert what the client did.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field

import uvicorn
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response

__all__ = ["LocalHub", "HubRepo"]


def git_oid(data: bytes) -> str:
    """git's blob sha1, as the Hub reports a regular file's oid."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Commit:
    oid: str
    message: str
    files: dict[str, bytes]
    parent: str | None


@dataclass
class HubRepo:
    """One repo: its commits, oldest first, its branches and tags (name -> commit oid)."""

    repo_id: str
    repo_type: str
    private: bool
    commits: list[Commit] = field(default_factory=list)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def commit_at(self, revision: str) -> Commit:
        oid = self.branches.get(revision) or self.tags.get(revision) or revision
        for c in self.commits:
            if c.oid == oid:
                return c
        raise HTTPException(404, f"Revision Not Found: {revision}", headers={"X-Error-Code": "RevisionNotFound"})


class LocalHub:
    """The fake Hub, served by uvicorn in a thread on 127.0.0.1 (a free port)."""

    def __init__(self):
        self.repos: dict[str, HubRepo] = {}
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._port = _free_port()
        self._server = uvicorn.Server(uvicorn.Config(self._app(), host="127.0.0.1", port=self._port, log_level="warning"))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def repo(self, repo_id: str, repo_type: str = "dataset") -> HubRepo:
        key = f"{repo_type}/{repo_id}"
        if key not in self.repos:
            raise HTTPException(404, "Repository Not Found", headers={"X-Error-Code": "RepoNotFound"})
        return self.repos[key]

    def __enter__(self) -> "LocalHub":
        self._thread = threading.Thread(target=self._server.run, daemon=True, name="local-hub")
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("local hub did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    # -- the endpoints -------------------------------------------------------------------------

    def _app(self) -> FastAPI:  # noqa: C901 - one route table
        app = FastAPI()

        @app.middleware("http")
        async def record(request: Request, call_next):
            self.requests.append((request.method, request.url.path))
            return await call_next(request)

        @app.post("/api/repos/create")
        async def create(request: Request):
            body = await request.json()
            repo_type = body.get("type") or "model"
            repo_id = f"{body['organization']}/{body['name']}" if body.get("organization") else body["name"]
            key = f"{repo_type}/{repo_id}"
            with self._lock:
                if key in self.repos:
                    return JSONResponse({"error": "You already created this repo", "url": f"{self.url}/{repo_type}s/{repo_id}"}, 409)
                repo = HubRepo(repo_id, repo_type, body.get("visibility") == "private" or bool(body.get("private")))
                first = Commit(secrets.token_hex(20), "initial commit", {".gitattributes": b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"}, None)
                repo.commits.append(first)
                repo.branches["main"] = first.oid
                self.repos[key] = repo
            return {"url": f"{self.url}/{repo_type}s/{repo_id}", "name": repo_id}

        @app.post("/api/validate-yaml")
        async def validate_yaml():
            return {"errors": [], "warnings": []}

        @app.get("/api/{kind}/{org}/{name}/revision/{revision:path}")
        @app.get("/api/{kind}/{org}/{name}")
        async def info(kind: str, org: str, name: str, revision: str = "main"):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            c = repo.commit_at(revision)
            return {"id": repo.repo_id, "_id": repo.repo_id, "sha": c.oid, "private": repo.private, "disabled": False,
                    "gated": False, "downloads": 0, "likes": 0, "tags": [], "cardData": {}, "lastModified": "2026-01-01T00:00:00.000Z",
                    "siblings": [{"rfilename": p, "size": len(b), "blobId": git_oid(b)} for p, b in sorted(c.files.items())]}

        @app.post("/api/{kind}/{org}/{name}/preupload/{revision:path}")
        async def preupload(kind: str, org: str, name: str, revision: str, request: Request):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            files = repo.commit_at(revision).files
            body = await request.json()
            return {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False,
                               "oid": git_oid(files[f["path"]]) if f["path"] in files else None} for f in body["files"]]}

        @app.post("/api/{kind}/{org}/{name}/commit/{revision:path}")
        async def commit(kind: str, org: str, name: str, revision: str, request: Request):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            lines = [json.loads(line) for line in (await request.body()).splitlines() if line.strip()]
            with self._lock:
                head = repo.commit_at(revision)
                files = dict(head.files)
                header = {}
                for item in lines:
                    key, value = item["key"], item["value"]
                    if key == "header":
                        header = value
                    elif key == "file":
                        files[value["path"]] = base64.b64decode(value["content"])
                    elif key == "deletedFile":
                        files.pop(value["path"], None)
                    elif key == "deletedFolder":
                        files = {p: b for p, b in files.items() if not p.startswith(value["path"].rstrip("/") + "/")}
                    else:
                        raise HTTPException(400, f"this local hub does not serve {key} operations")
                if header.get("parentCommit") and header["parentCommit"] != head.oid:
                    raise HTTPException(412, "parent commit is not the head")
                new = Commit(secrets.token_hex(20), header.get("summary", ""), files, head.oid)
                repo.commits.append(new)
                repo.branches[revision if revision in repo.branches else "main"] = new.oid
            return {"commitUrl": f"{self.url}/{kind}/{repo.repo_id}/commit/{new.oid}", "commitOid": new.oid,
                    "pullRequestUrl": None, "success": True}

        @app.get("/api/{kind}/{org}/{name}/tree/{revision}/{path:path}")
        @app.get("/api/{kind}/{org}/{name}/tree/{revision}")
        async def tree(kind: str, org: str, name: str, revision: str, path: str = "", recursive: bool = False):
            c = self.repo(f"{org}/{name}", kind.rstrip("s")).commit_at(revision)
            prefix = path.strip("/") + "/" if path.strip("/") else ""
            entries, folders = [], set()
            for p, b in sorted(c.files.items()):
                if not p.startswith(prefix):
                    continue
                rest = p[len(prefix):]
                if "/" in rest and not recursive:
                    folders.add(prefix + rest.split("/")[0])
                    continue
                if recursive:
                    parts = rest.split("/")[:-1]
                    folders.update(prefix + "/".join(parts[: i + 1]) for i in range(len(parts)))
                entries.append({"type": "file", "path": p, "oid": git_oid(b), "size": len(b)})
            return [{"type": "directory", "path": f, "oid": git_oid(f.encode()), "size": 0} for f in sorted(folders)] + entries

        @app.post("/api/{kind}/{org}/{name}/paths-info/{revision:path}")
        async def paths_info(kind: str, org: str, name: str, revision: str, request: Request):
            c = self.repo(f"{org}/{name}", kind.rstrip("s")).commit_at(revision)
            form = await request.form()
            paths = form.getlist("paths") if form else []
            out = []
            for p in paths:
                if p in c.files:
                    out.append({"type": "file", "path": p, "oid": git_oid(c.files[p]), "size": len(c.files[p])})
                elif any(f.startswith(p.rstrip("/") + "/") for f in c.files):
                    out.append({"type": "directory", "path": p, "oid": git_oid(p.encode()), "size": 0})
            return out

        @app.post("/api/{kind}/{org}/{name}/tag/{revision:path}")
        async def tag(kind: str, org: str, name: str, revision: str, request: Request):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            body = await request.json()
            with self._lock:
                if body["tag"] in repo.tags:
                    return JSONResponse({"error": f"Tag {body['tag']} already exists"}, 409)
                repo.tags[body["tag"]] = repo.commit_at(revision).oid
            return {}

        @app.get("/api/{kind}/{org}/{name}/refs")
        async def refs(kind: str, org: str, name: str):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            ref = lambda kind_, n, oid: {"name": n, "ref": f"refs/{kind_}/{n}", "targetCommit": oid}  # noqa: E731
            return {"branches": [ref("heads", n, o) for n, o in repo.branches.items()],
                    "tags": [ref("tags", n, o) for n, o in repo.tags.items()], "converts": []}

        @app.api_route("/{kind}/{org}/{name}/resolve/{revision}/{path:path}", methods=["GET", "HEAD"])
        async def resolve(kind: str, org: str, name: str, revision: str, path: str, request: Request):
            repo = self.repo(f"{org}/{name}", kind.rstrip("s"))
            c = repo.commit_at(revision)
            if path not in c.files:
                raise HTTPException(404, "Entry not found", headers={"X-Error-Code": "EntryNotFound"})
            data = c.files[path]
            headers = {"X-Repo-Commit": c.oid, "ETag": f'"{git_oid(data)}"', "Content-Length": str(len(data))}
            return Response(b"" if request.method == "HEAD" else data, headers=headers, media_type="application/octet-stream")

        return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
