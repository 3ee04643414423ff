"""Task bundles: a versioned, checksummed file of tasks and the app versions they need, to re-run them elsewhere.

A bundle `NAME-vN.tar.gz` holds `bundle.json` (the manifest) and `tasks.jsonl`. The manifest records
each task's revision and content digest, the apps' manifest versions and source digests, and one
digest over all of it; loading recomputes every digest and refuses a bundle whose content does not
match (`BundleTampered`). A task keeps its id across bundles and its revision goes up by one when
its content changes; the bundle's version goes up when any task is added, changed or dropped, and
bundling the same tasks again writes nothing new. The digest says a file is intact, not who made
it: pass the published bundle digest as `expect` to pin one.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import tarfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contracts.errors import InputError
from contracts.task import Task

from .app_versions import AppVersion, app_version

FORMAT = "gymfactory-bundle/1"


class BundleTampered(InputError):
    """A bundle whose content does not match its own checksums (or the expected digest): refused."""


class TaskEntry(BaseModel):
    """One task in the manifest."""

    model_config = ConfigDict(frozen=True)

    id: str
    revision: int = Field(ge=1, description="1 when first bundled; +1 each time its content changes.")
    digest: str = Field(description="sha256 of the task's canonical JSON.")


class BundleManifest(BaseModel):
    """`bundle.json`: what the bundle holds and the digests that prove it is intact."""

    model_config = ConfigDict(frozen=True)

    format: str = FORMAT
    name: str = Field(pattern=r"^[\w.-]+$")
    version: int = Field(ge=1, description="Bundle version: +1 whenever a task is added, changed or dropped.")
    gymfactory_version: str
    apps: tuple[AppVersion, ...] = Field(description="Every app the tasks open, as they were validated on.")
    tasks: tuple[TaskEntry, ...]
    tasks_sha256: str = Field(description="sha256 of tasks.jsonl.")
    digest: str = Field(description="sha256 over name, version, apps, task entries and tasks_sha256: the bundle's identity.")


class Bundle(BaseModel):
    """A loaded bundle: its manifest and its tasks, checked."""

    model_config = ConfigDict(frozen=True)

    manifest: BundleManifest
    tasks: tuple[Task, ...]
    path: str


def task_digest(task: Task) -> str:
    """sha256 of the task's canonical JSON (keys sorted): equal content, equal digest."""
    return hashlib.sha256(json.dumps(task.model_dump(mode="json"), sort_keys=True).encode()).hexdigest()


def _manifest_digest(name: str, version: int, apps, entries, tasks_sha: str) -> str:
    body = {"name": name, "version": version, "apps": [a.model_dump() for a in apps],
            "tasks": [e.model_dump() for e in entries], "tasks_sha256": tasks_sha}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _gymfactory_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("gymfactory")
    except metadata.PackageNotFoundError:
        return "unknown"


def bundle(tasks: list[Task], out: Path, name: str, previous: Bundle | None = None) -> Path:
    """Write the bundle of `tasks` into folder `out`; revisions and version continue from `previous`.

    `previous` defaults to the newest `NAME-v*.tar.gz` already in `out`. Same tasks as it: its file is
    returned and nothing is written.
    """
    out.mkdir(parents=True, exist_ok=True)
    if previous is None and (latest := latest_bundle(out, name)) is not None:
        previous = load(latest)
    before = {e.id: e for e in previous.manifest.tasks} if previous else {}
    entries = []
    for t in sorted(tasks, key=lambda t: t.id):
        digest, old = task_digest(t), before.get(t.id)
        revision = 1 if old is None else old.revision + (old.digest != digest)
        entries.append(TaskEntry(id=t.id, revision=revision, digest=digest))
    if previous is not None and tuple(entries) == previous.manifest.tasks:
        return Path(previous.path)
    version = previous.manifest.version + 1 if previous else 1
    lines = "".join(t.model_dump_json() + "\n" for t in sorted(tasks, key=lambda t: t.id)).encode()
    apps = tuple(app_version(a) for a in sorted({a for t in tasks for a in t.apps}))
    tasks_sha = hashlib.sha256(lines).hexdigest()
    manifest = BundleManifest(name=name, version=version, gymfactory_version=_gymfactory_version(), apps=apps,
                              tasks=tuple(entries), tasks_sha256=tasks_sha,
                              digest=_manifest_digest(name, version, apps, entries, tasks_sha))
    path = out / f"{name}-v{version}.tar.gz"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:  # fixed metadata: the same bundle is the same bytes
        for member, data in (("bundle.json", manifest.model_dump_json(indent=2).encode()), ("tasks.jsonl", lines)):
            info = tarfile.TarInfo(member)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(buffer.getvalue(), mtime=0))
    return path


def latest_bundle(folder: Path, name: str) -> Path | None:
    """The highest-versioned `NAME-vN.tar.gz` in `folder`, or None."""
    found = [(int(p.name[len(name) + 2 : -7]), p) for p in folder.glob(f"{name}-v*.tar.gz") if p.name[len(name) + 2 : -7].isdigit()]
    return max(found)[1] if found else None


def load(path: Path, expect: str | None = None) -> Bundle:
    """Read and check a bundle: every digest recomputed; `expect` pins the bundle digest. Else BundleTampered."""
    try:
        with tarfile.open(path, mode="r:gz") as tar:
            members = {m.name: m for m in tar.getmembers()}
            if set(members) != {"bundle.json", "tasks.jsonl"}:
                raise BundleTampered(f"{path}: a bundle holds bundle.json and tasks.jsonl, not {sorted(members)}")
            raw_manifest = tar.extractfile(members["bundle.json"]).read()
            lines = tar.extractfile(members["tasks.jsonl"]).read()
    except (tarfile.TarError, OSError, EOFError) as err:
        raise BundleTampered(f"{path} is not a readable bundle ({err})") from None
    try:
        manifest = BundleManifest.model_validate_json(raw_manifest)
        tasks = tuple(Task.model_validate_json(line) for line in lines.splitlines() if line.strip())
    except ValidationError as err:
        raise BundleTampered(f"{path}: malformed bundle ({err.errors()[0]['msg']})") from None
    if manifest.format != FORMAT:
        raise BundleTampered(f"{path}: format {manifest.format!r}, this gymfactory reads {FORMAT!r}")
    if hashlib.sha256(lines).hexdigest() != manifest.tasks_sha256:
        raise BundleTampered(f"{path}: tasks.jsonl does not match its checksum in bundle.json; refused")
    entries = {e.id: e for e in manifest.tasks}
    for t in tasks:
        if t.id not in entries or entries[t.id].digest != task_digest(t):
            raise BundleTampered(f"{path}: task {t.id} does not match its digest in bundle.json; refused")
    if len(tasks) != len(entries):
        raise BundleTampered(f"{path}: bundle.json lists {len(entries)} tasks, tasks.jsonl holds {len(tasks)}; refused")
    if _manifest_digest(manifest.name, manifest.version, manifest.apps, manifest.tasks, manifest.tasks_sha256) != manifest.digest:
        raise BundleTampered(f"{path}: bundle.json does not match its own digest; refused")
    if expect is not None and manifest.digest != expect:
        raise BundleTampered(f"{path}: bundle digest {manifest.digest[:16]}... is not the expected {expect[:16]}...; refused")
    return Bundle(manifest=manifest, tasks=tasks, path=str(path))


def app_mismatches(manifest: BundleManifest) -> list[str]:
    """How the apps installed here differ from the ones the bundle's tasks were validated on (empty: same apps)."""
    from mocked_apps.registry import UnknownApp

    problems = []
    for want in manifest.apps:
        try:
            have = app_version(want.app)
        except UnknownApp:
            problems.append(f"app {want.app} is not installed (the bundle needs version {want.version})")
            continue
        if have.version != want.version:
            problems.append(f"app {want.app}: version {have.version} here, {want.version} in the bundle")
        elif have.digest != want.digest:
            problems.append(f"app {want.app}: same version {want.version}, different source (digest {have.digest[:10]} here, "
                            f"{want.digest[:10]} in the bundle)")
    return problems
