"""Instances: one SQLite file each, created from seed records, reset from a golden copy.

Creating an instance validates and inserts the seed once per distinct (seed, clock)
into a golden template; every instance is then a file copy (sub-millisecond), and a
reset is SQLite's backup API from the template into the live file, in place.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import shutil
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Boolean, JSON, create_engine, event, insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, StatementError

from .identity import split_seed
from .variant import split_variant
from .package import AppPackage

META_TABLE = "_gym_meta"


class SeedError(ValueError):
    """Seed records that do not fit the app's models; the message names the place."""


class UnknownInstance(KeyError):
    """No instance with that id on this server."""


@dataclass
class _Instance:
    live: Path
    template: Path
    engine: Engine | None = None


def _unicode_lower(value):
    return value.lower() if isinstance(value, str) else value


def _on_connect(dbapi_conn, _record) -> None:
    """Foreign keys on; and `lower` (which `ilike` compiles to) folds every letter, not only ASCII: a search typed as
    a title reads ("1:1 Åke / Mahdi") must find it, and SQLite's own lower leaves "Å" as it is."""
    dbapi_conn.execute("PRAGMA foreign_keys=ON")
    dbapi_conn.create_function("lower", 1, _unicode_lower, deterministic=True)


def _engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _on_connect)
    return engine


class InstanceStore:
    """All instances of one app type on one server: create, reset, dump, delete."""

    def __init__(self, package: AppPackage, root: Path):
        self.package = package
        self.root = Path(root)
        (self.root / "templates").mkdir(parents=True, exist_ok=True)
        (self.root / "live").mkdir(parents=True, exist_ok=True)
        self._instances: dict[str, _Instance] = {}
        self._templates: dict[str, Path] = {}
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()
        own = {m.__table__ for m in package.tables}
        metadatas = {id(t.metadata): t.metadata for t in own}  # an app may keep its tables in a namespace of its own
        self._tables = [t for md in metadatas.values() for t in md.sorted_tables if t in own]

    # ---- lifecycle -------------------------------------------------------------------
    def create(self, seed: dict | None = None, clock: str | None = None) -> str:
        """New instance from seed records (default: the app's seed); returns its id."""
        seed = self.package.default_seed if seed is None else seed
        if isinstance(seed, dict) and seed and all(k.startswith("_") for k in seed):
            seed = {**self.package.default_seed, **seed}  # only reserved entries (a variant): the default records
        clock = _check_clock(clock or self.package.default_clock)
        template = self._template(seed, clock)
        instance_id = secrets.token_hex(16)
        live = self.root / "live" / f"{instance_id}.db"
        shutil.copyfile(template, live)
        with self._lock:
            self._instances[instance_id] = _Instance(live=live, template=template)
        return instance_id

    def reset(self, instance_id: str) -> None:
        """Restore the instance's initial state exactly (state and clock)."""
        inst = self._get(instance_id)
        src = sqlite3.connect(inst.template)
        dst = sqlite3.connect(inst.live)
        try:
            src.backup(dst)
        finally:
            src.close()
            dst.close()

    def delete(self, instance_id: str) -> None:
        with self._lock:
            inst = self._instances.pop(instance_id, None)
        if inst is None:
            raise UnknownInstance(instance_id)
        if inst.engine is not None:
            inst.engine.dispose()
        inst.live.unlink(missing_ok=True)

    def ids(self) -> list[str]:
        return list(self._instances)

    def __contains__(self, instance_id: str) -> bool:
        return instance_id in self._instances

    def close(self) -> None:
        for instance_id in list(self._instances):
            self.delete(instance_id)

    # ---- access ----------------------------------------------------------------------
    def engine(self, instance_id: str) -> Engine:
        inst = self._get(instance_id)
        if inst.engine is None:
            inst.engine = _engine(inst.live)
        return inst.engine

    def dump(self, instance_id: str) -> dict[str, list[dict[str, Any]]]:
        """Canonical state: {table: [rows sorted by primary key]}, kit tables excluded."""
        inst = self._get(instance_id)
        conn = sqlite3.connect(inst.live)
        try:
            return {table.name: _dump_table(conn, table) for table in sorted(self._tables, key=lambda t: t.name)}
        finally:
            conn.close()

    def _get(self, instance_id: str) -> _Instance:
        try:
            return self._instances[instance_id]
        except KeyError:
            raise UnknownInstance(instance_id) from None

    # ---- golden templates ------------------------------------------------------------
    def _template(self, seed: dict, clock: str) -> Path:
        key = hashlib.sha256(json.dumps([seed, clock], sort_keys=True, default=str).encode()).hexdigest()[:32]
        with self._lock:
            path = self._templates.get(key)
        if path is not None:
            return path
        with self._build_lock:  # one build at a time: concurrent creates of a new seed build it once
            if key in self._templates:
                return self._templates[key]
            path = self.root / "templates" / f"{key}.db"
            tmp = path.with_suffix(".tmp")
            tmp.unlink(missing_ok=True)
            try:
                self._build(tmp, seed, clock)
            except BaseException:
                tmp.unlink(missing_ok=True)
                raise
            tmp.replace(path)
            with self._lock:
                self._templates[key] = path
        return path

    def _build(self, path: Path, seed: dict, clock: str) -> None:
        if not isinstance(seed, dict):
            raise SeedError("seed must be an object {table: [rows]}")
        try:
            seed, variant = split_variant(seed)
            seed, identity = split_seed(seed)
        except ValidationError as err:
            first = err.errors()[0]
            raise SeedError(f"seed._identity[0].{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
        except ValueError as err:
            raise SeedError(str(err)) from None
        rows_by_table = self._validate(seed)
        engine = _engine(path)
        try:
            for metadata in {id(t.metadata): t.metadata for t in self._tables}.values():
                metadata.create_all(engine, tables=[t for t in self._tables if t.metadata is metadata])
            with engine.begin() as conn:
                conn.exec_driver_sql(f"CREATE TABLE {META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                conn.exec_driver_sql(f"INSERT INTO {META_TABLE} VALUES ('clock', ?)", (clock,))
                if identity is not None:
                    conn.exec_driver_sql(f"INSERT INTO {META_TABLE} VALUES ('identity', ?)", (identity.model_dump_json(),))
                if variant:
                    conn.exec_driver_sql(f"INSERT INTO {META_TABLE} VALUES ('variant', ?)", (str(variant),))
                for table in self._tables:
                    rows = rows_by_table.get(table.name)
                    if rows:
                        try:
                            conn.execute(insert(table), rows)
                        except (IntegrityError, StatementError) as err:
                            raise SeedError(f"seed.{table.name}: {err.orig if hasattr(err, 'orig') else err}") from None
        finally:
            engine.dispose()

    def _validate(self, seed: Any) -> dict[str, list[dict]]:
        if not isinstance(seed, dict):
            raise SeedError("seed must be an object {table: [rows]}")
        known = {t.__tablename__: t for t in self.package.tables}
        out: dict[str, list[dict]] = {}
        for name, rows in seed.items():
            model = known.get(name)
            if model is None:
                raise SeedError(f"seed.{name}: unknown table; this app has {sorted(known)}")
            if not isinstance(rows, list):
                raise SeedError(f"seed.{name}: must be a list of rows")
            clean = []
            for i, row in enumerate(rows):
                if not isinstance(row, dict):
                    raise SeedError(f"seed.{name}[{i}]: must be an object")
                extra = set(row) - set(model.model_fields)
                if extra:
                    raise SeedError(f"seed.{name}[{i}].{sorted(extra)[0]}: no such field")
                try:
                    obj = model.model_validate(row)
                except ValidationError as err:
                    first = err.errors()[0]
                    loc = ".".join(str(p) for p in first["loc"])
                    raise SeedError(f"seed.{name}[{i}].{loc}: {first['msg']}") from None
                clean.append(obj.model_dump())  # every row has every column: one executemany per table
            out[name] = clean
        return out


def _check_clock(clock: str) -> str:
    try:
        return datetime.fromisoformat(clock).isoformat()
    except (TypeError, ValueError):
        raise SeedError(f"clock: {clock!r} is not an ISO-8601 date-time") from None


def _dump_table(conn: sqlite3.Connection, table) -> list[dict[str, Any]]:
    cols = [c.name for c in table.columns]
    pk = [c.name for c in table.primary_key.columns] or cols
    converters = {}
    for c in table.columns:
        if isinstance(c.type, Boolean):
            converters[c.name] = lambda v: None if v is None else bool(v)
        elif isinstance(c.type, JSON):
            converters[c.name] = lambda v: None if v is None else json.loads(v)
    quoted = ", ".join(f'"{c}"' for c in cols)
    order = ", ".join(f'"{c}"' for c in pk)
    rows = []
    for values in conn.execute(f'SELECT {quoted} FROM "{table.name}" ORDER BY {order}'):
        row = dict(zip(cols, values))
        for name, conv in converters.items():
            row[name] = conv(row[name])
        rows.append(row)
    return rows
