"""A throwaway PostgreSQL cluster on a loopback port, for tests of the scale-out trajectory store.

Debian's `postgresql` package (installed by `scripts/install.sh`) puts its server programs under
`/usr/lib/postgresql/<major>/bin`. The cluster lives in a fresh temp folder owned by the unprivileged
`postgres` user (the server refuses to run as root), listens on 127.0.0.1 only, trusts local logins,
and runs without fsync: it is data for one test session, removed by `stop`.

    with PostgresServer() as pg:
        url = pg.create_database()   # postgresql+psycopg://gym@127.0.0.1:PORT/t_<hex>, empty
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["PostgresServer", "PostgresUnavailable"]


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs are missing or the cluster did not start; the message says which."""


def _bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if not found:
        raise PostgresUnavailable("no /usr/lib/postgresql/*/bin/initdb: run scripts/install.sh (it installs Debian's postgresql)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """initdb + pg_ctl in a temp folder; `create_database` hands each test an empty database."""

    user = "gym"

    def __init__(self):
        self.bindir = _bindir()
        self.port: int | None = None
        self.root: Path | None = None
        self.started_s: float | None = None
        self._as: list[str] = []

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres", driver: str = "psycopg") -> str:
        """SQLAlchemy URL of `database` (driver `psycopg` for the store, `asyncpg` for Prefect)."""
        return f"postgresql+{driver}://{self.user}@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 60.0) -> "PostgresServer":
        """Start it; whatever a failed start left running or on disk is removed before the error propagates."""
        try:
            return self._start(timeout)
        except BaseException:
            self.stop()
            raise

    def _start(self, timeout: float) -> "PostgresServer":
        began = time.monotonic()
        as_root = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="gym-pg-", dir="/tmp" if as_root else None))  # /tmp: postgres can reach it
        if as_root:  # the server refuses root: run it as Debian's postgres user
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.port = _free_port()
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -F -c max_connections=200 -c shared_buffers=32MB"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "-t", str(int(timeout)), "start")
        self.started_s = time.monotonic() - began
        return self

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        import psycopg

        name = name or f"t_{secrets.token_hex(6)}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user=self.user, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once (its data is throwaway) and remove the folder."""
        if self.root is None:
            return
        if (self.data / "postmaster.pid").exists():
            subprocess.run([*self._as, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def log(self) -> str:
        path = self.root / "log" if self.root else None
        return path.read_text(errors="replace")[-4000:] if path and path.is_file() else ""

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([*self._as, str(self.bindir / program), *args], capture_output=True, text=True, timeout=120, cwd="/")
        if done.returncode != 0:
            raise PostgresUnavailable(f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}\n{self.log()}")

    def __enter__(self) -> "PostgresServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
