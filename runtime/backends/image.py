"""The app-server image of the docker backend, built offline from this machine's own files.

No registry is needed: the root filesystem is assembled from what already runs the app servers here
(the Python interpreter and its standard library, the site-packages distributions the kit imports,
the shared libraries they link, the project's packages those import) and handed to `docker import`. The
image is tagged by a digest of every file's path, size and modification time, so it is built once
per change of the code or the environment and reused after.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata as md
import json
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AppImage", "ImageBuildError", "build_image", "image_files"]

REPOSITORY = "gymfactory-apps"
SITE = "/opt/gym/site-packages"
PROJECT = "/opt/gym/project"
# What the kit server needs to serve any app, beyond what importing it shows; their requirements come along.
ROOT_DISTRIBUTIONS = ("fastapi", "uvicorn", "sqlmodel", "Jinja2", "httpx", "python-multipart", "pydantic")
# Imported in a fresh interpreter to see which distributions the kit and the shipped apps load.
_TRACE = """
import importlib.metadata as md, json, sys
import mocked_apps.kit.__main__, mocked_apps.kit.server, uvicorn.main
from mocked_apps.kit.package import AppPackageError, load_package
from mocked_apps.registry import SHIPPED
for ref in SHIPPED.values():
    try:
        load_package(ref)
    except (AppPackageError, ImportError):
        pass  # a broken app fails at its own server's start, with its own reason; the others still need an image
found, root = md.packages_distributions(), sys.argv[1]
tops = {m.split(".")[0] for m in list(sys.modules)}
print(json.dumps({"distributions": sorted({d for t in tops for d in found.get(t, [])}),
                  "packages": sorted(t for t in tops if (getattr(sys.modules.get(t), "__file__", None) or "").startswith(root + "/"))}))
"""
_STDLIB_SKIP = {"site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "__phello__"}


class ImageBuildError(RuntimeError):
    """The app-server image could not be assembled or imported; the message says which file or daemon answer."""


class AppImage(BaseModel):
    """An imported app-server image and how to run Python in it."""

    model_config = ConfigDict(frozen=True)

    tag: str = Field(description="repository:digest as the daemon knows it.")
    python: str = Field(description="The interpreter's absolute path inside the image.")
    env: dict[str, str] = Field(description="Environment a container of the image needs (PYTHONPATH, library path).")
    built: bool = Field(description="False when the daemon already had this digest.")
    size_mb: float = Field(default=0.0, description="Size of the root filesystem tarball (0 when not built now).")


def _project_root() -> Path:
    import mocked_apps

    return Path(mocked_apps.__file__).resolve().parents[1]


def _closure(names: tuple[str, ...]) -> list[md.Distribution]:
    """The distributions `names` need, with their requirements (extras left out), each once."""
    seen: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        name = re.split(r"[\s;<>=!~\[(]", todo.pop(), maxsplit=1)[0]
        key = re.sub(r"[-_.]+", "-", name).lower()
        if not key or key in seen:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue  # an optional dependency this environment does not have
        seen[key] = dist
        todo += [r for r in (dist.requires or []) if "extra ==" not in r]
    return list(seen.values())


@functools.lru_cache(maxsize=1)
def _imported() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(distributions, project packages) the kit server and the shipped apps import, seen in a fresh interpreter.

    Seen once per process (a few seconds): an import added to the kit meanwhile reaches the image in the next process.
    """
    root = _project_root()
    done = subprocess.run([sys.executable, "-c", _TRACE, str(root)], capture_output=True, text=True, cwd=root, timeout=120)
    if done.returncode != 0:
        raise ImageBuildError(f"app image: importing the kit and the shipped apps failed:\n{done.stderr[-3000:]}")
    seen = json.loads(done.stdout.splitlines()[-1])
    packages = tuple(t for t in seen["packages"] if (root / t / "__init__.py").is_file())  # not the venv's
    return tuple(d for d in seen["distributions"] if d != "gymfactory"), packages


@functools.lru_cache(maxsize=1)
def _stdlib(prefix: Path) -> tuple[Path, ...]:
    """The standard library's files, less tests, GUI and packaging tools (listed once per process)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    tag = sys.implementation.cache_tag
    files = []
    for path in stdlib.rglob("*"):
        rel = path.relative_to(stdlib).parts
        if rel[0] in _STDLIB_SKIP or rel[0].startswith("config-") or path.is_dir():
            continue
        if path.name.startswith(("_tkinter", "_curses", "readline")):
            continue  # GUI and terminal modules drag in X11 and ncurses
        if path.suffix == ".pyc" and not path.name.endswith(f".{tag}.pyc"):
            continue  # optimised copies (.opt-1/.opt-2) are never loaded here
        files.append(path)
    return tuple(files)


@functools.lru_cache(maxsize=4)
def _shared_libraries(objects: tuple[Path, ...]) -> frozenset[Path]:
    """Every shared library the interpreter and these extension modules link, as `ldd` resolves them (once per set)."""
    libs: set[Path] = set()
    for chunk in range(0, len(objects), 200):
        done = subprocess.run(["ldd", *map(str, objects[chunk:chunk + 200])], capture_output=True, text=True)
        for line in done.stdout.splitlines():
            match = re.search(r"(/\S+\.so[\w.]*) \(0x", line)
            if match:
                libs.add(Path(match.group(1)))
    return frozenset(libs)


@functools.lru_cache(maxsize=1)
def _site_files(names: tuple[str, ...]) -> dict[str, Path]:
    """Path in the image -> file here, for every file of these distributions and their requirements (once per process)."""
    files = {}
    for dist in _closure(names):
        for rel in dist.files or []:
            if ".." in rel.parts or rel.suffix == ".pyc" and "__pycache__" not in rel.parts:
                continue
            src = Path(dist.locate_file(rel))
            if src.is_file():
                files[f"{SITE}/{rel.as_posix()}"] = src
    return files


def image_files() -> dict[str, Path]:
    """Path inside the image -> file on this machine, for every file of the root filesystem."""
    prefix = Path(sys.base_prefix)
    files: dict[str, Path] = {}
    python = Path(sys.executable).resolve() if Path(sys.executable).resolve().is_relative_to(prefix) else prefix / "bin" / "python3"
    files[str(python)] = python
    for lib in prefix.joinpath("lib").glob("libpython*.so*"):
        files[str(lib)] = lib
    for path in _stdlib(prefix):
        files[str(path)] = path
    distributions, packages = _imported()
    files.update(_site_files(ROOT_DISTRIBUTIONS + distributions))
    root = _project_root()
    for package in (root / name for name in packages):  # only what a server imports: other edits keep the image
        for path in package.rglob("*"):
            if "tests" in path.relative_to(package).parts:
                continue  # an app's own tests never run in its server
            if path.is_file() and ("__pycache__" not in path.parts or path.name.endswith(f".{sys.implementation.cache_tag}.pyc")):
                files[f"{PROJECT}/{path.relative_to(root).as_posix()}"] = path  # a stale .pyc is only ignored by Python
    objects = tuple(sorted({python, *(p for p in files.values() if p.suffix == ".so" or ".so." in p.name)}))
    for lib in _shared_libraries(objects):
        real = lib.resolve()
        files[str(lib)] = real
    return files


def _digest(files: dict[str, Path]) -> str:
    h = hashlib.sha256()
    for target in sorted(t for t in files if not t.endswith(".pyc")):  # compiled copies follow their sources
        st = files[target].stat()
        h.update(f"{target}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _env(files: dict[str, Path]) -> dict[str, str]:
    libdirs = sorted({str(Path(t).parent) for t in files if ".so" in Path(t).name and not t.startswith(("/opt/gym", sys.base_prefix))})
    return {"PYTHONPATH": f"{PROJECT}:{SITE}", "PYTHONHOME": sys.base_prefix, "LD_LIBRARY_PATH": ":".join(libdirs),
            "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", "HOME": "/tmp"}


def build_image(client, files: dict[str, Path] | None = None) -> AppImage:
    """The app-server image on the daemon of `client` (a `docker.DockerClient`): imported now unless already there.

    `files` (path in the image -> file here) defaults to `image_files()`, this machine's current ones.
    """
    import docker

    files = image_files() if files is None else files
    python = next(t for t in files if re.search(r"/bin/python3[.\d]*$", t))
    tag = f"{REPOSITORY}:{_digest(files)}"
    env = _env(files)
    try:
        client.images.get(tag)
        return AppImage(tag=tag, python=python, env=env, built=False)
    except docker.errors.ImageNotFound:
        pass
    with tempfile.NamedTemporaryFile(prefix="gym-rootfs-", suffix=".tar") as tarball:
        with tarfile.open(fileobj=tarball, mode="w") as tar:
            for name in ("tmp", "data"):
                info = tarfile.TarInfo(name)
                info.type, info.mode = tarfile.DIRTYPE, 0o1777
                tar.addfile(info)
            for target in sorted(files):  # links are resolved: the loader (/lib64/ld-linux-*) is a plain file
                try:
                    tar.add(str(files[target]), target.lstrip("/"), recursive=False)
                except OSError as err:
                    raise ImageBuildError(f"app image: cannot read {files[target]}: {err}") from err
        tarball.flush()
        size_mb = os.path.getsize(tarball.name) / 2**20
        changes = [f"ENV {k}={v}" for k, v in env.items()] + ["WORKDIR /tmp", "USER 65534:65534"]
        try:
            client.api.import_image_from_file(tarball.name, repository=REPOSITORY, tag=tag.split(":")[1], changes=changes)
        except docker.errors.APIError as err:
            raise ImageBuildError(f"app image: docker import failed: {err}") from err
    return AppImage(tag=tag, python=python, env=env, built=True, size_mb=round(size_mb, 1))
