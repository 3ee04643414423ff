"""The trajectory store: every attempt and each of its steps, written as they happen (SQLite or any SQLAlchemy URL).

The embedded default is a SQLite file; several machines share one store through PostgreSQL with the
same models (`postgresql+psycopg://user:password@host:5432/db`, the `psycopg` driver is installed).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field as PField, NaiveDatetime
from sqlalchemy import JSON, Column, event, exc, func, make_url
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from contracts.errors import InputError
from mocked_apps.registry import home
from contracts.status import INTERRUPTED
from runtime.session import Outcome


class AttemptRow(SQLModel, table=True):
    """One attempt of one agent on one task."""

    __tablename__ = "gym_attempt"
    id: int | None = Field(default=None, primary_key=True)
    task_id: str = Field(index=True)
    agent: str = Field(index=True)
    model: str | None = None
    info: dict = Field(default_factory=dict, sa_column=Column(JSON))
    started_at: NaiveDatetime
    finished_at: NaiveDatetime | None = None
    status: str | None = Field(default=None, index=True)
    reward: float | None = None
    success: bool | None = None
    verdicts: dict = Field(default_factory=dict, sa_column=Column(JSON))
    error: str | None = None
    timings: dict = Field(default_factory=dict, sa_column=Column(JSON))


class StepRow(SQLModel, table=True):
    """One step of an attempt: what the agent saw, what it wrote, what happened."""

    __tablename__ = "gym_step"
    id: int | None = Field(default=None, primary_key=True)
    attempt_id: int = Field(foreign_key="gym_attempt.id", index=True)
    index: int
    url: str = ""
    axtree: str = ""
    screenshot: str | None = None
    raw_output: str | None = None
    action: str | None = None
    error: str | None = None
    shell_output: str | None = None
    latency_s: float | None = None
    created_at: NaiveDatetime


class StepRecord(BaseModel):
    """A step as R2's rollout records it: the observation the agent acted on, its output, the parsed action."""

    model_config = ConfigDict(frozen=True)

    index: int
    url: str = ""
    axtree: str = ""
    screenshot: str | None = PField(default=None, description="Object-store key of the observation's screenshot.")
    raw_output: str | None = PField(default=None, description="The model's raw text for this step.")
    action: str | None = PField(default=None, description="The parsed action, in its text form.")
    error: str | None = PField(default=None, description="Parse error or the action's last_action_error.")
    shell_output: str | None = None
    latency_s: float | None = PField(default=None, description="Seconds the agent took to answer.")


class AttemptRecord(BaseModel):
    """An attempt as read back: identity, outcome (None while running), timings."""

    model_config = ConfigDict(frozen=True)

    id: int
    task_id: str
    agent: str
    model: str | None
    info: dict[str, Any]
    started_at: datetime
    finished_at: datetime | None
    outcome: Outcome | None
    timings: dict[str, float]


class StoreCorrupt(InputError):
    """The trajectory store's SQLite file is not a readable database; the message names the file and the way out."""


class StoreUnavailable(InputError):
    """The trajectory store's database server cannot be reached or refuses the login; the message names it (no password)."""


def default_url() -> str:
    """`$GYMFACTORY_HOME/trajectories.db` as a SQLite URL."""
    return f"sqlite:///{home() / 'trajectories.db'}"


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class TrajectoryStore:
    """Attempts and steps in SQL; one row per step, committed at once, so a crash loses nothing written."""

    TABLES = (AttemptRow.__table__, StepRow.__table__)

    def __init__(self, url: str | Path | None = None):
        url = str(url or default_url())
        if "://" not in url:
            url = f"sqlite:///{Path(url).resolve()}"
        self.url = url
        # the SQLite file's folder: relative paths in its rows (an attempt's `objects`) are relative to it; None for a server
        self.folder: Path | None = None
        if url.startswith("sqlite:///"):
            path = Path(url.removeprefix("sqlite:///"))
            self.folder = path.parent
            path.parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
            try:
                SQLModel.metadata.create_all(self.engine, tables=list(self.TABLES))
                with self.engine.connect() as conn:  # reads every page of the tables: a truncated file fails here
                    conn.exec_driver_sql("SELECT count(*) FROM gym_attempt").one()
                    conn.exec_driver_sql("SELECT count(*) FROM gym_step").one()
            except exc.DatabaseError as err:
                self.engine.dispose()
                if isinstance(err.orig, sqlite3.DatabaseError) and not isinstance(err.orig, sqlite3.OperationalError):
                    raise StoreCorrupt(f"{path} is not a readable trajectory store ({err.orig}); move or delete it "
                                       "(its attempts are lost), or pass --store with another file") from None
                raise
        else:
            self.engine = create_engine(url, pool_pre_ping=True)
            try:
                SQLModel.metadata.create_all(self.engine, tables=list(self.TABLES))
            except exc.OperationalError as err:
                self.engine.dispose()
                shown = make_url(url).render_as_string(hide_password=True)
                raise StoreUnavailable(f"cannot open the trajectory store {shown}: {str(err.orig).strip().splitlines()[-1]}") from None

    def start_attempt(self, task_id: str, agent: str, model: str | None = None, info: dict | None = None) -> int:
        """A new attempt row; returns its id."""
        with Session(self.engine) as db:
            row = AttemptRow(task_id=task_id, agent=agent, model=model, info=info or {}, started_at=_now())
            db.add(row)
            db.commit()
            return row.id

    def add_step(self, attempt_id: int, step: StepRecord) -> None:
        with Session(self.engine) as db:
            db.add(StepRow(attempt_id=attempt_id, created_at=_now(), **step.model_dump()))
            db.commit()

    def finish_attempt(self, attempt_id: int, outcome: Outcome, timings: dict[str, float] | None = None,
                       info: dict | None = None) -> None:
        """Record how the attempt ended; `info` adds what is known only at the end (e.g. the bytes of its screenshots)."""
        with Session(self.engine) as db:
            row = db.get(AttemptRow, attempt_id)
            if row is None:
                raise KeyError(f"no attempt {attempt_id}")
            if info:
                row.info = {**(row.info or {}), **info}
            row.finished_at = _now()
            row.status, row.reward, row.success = outcome.status, outcome.reward, outcome.success
            row.verdicts, row.error, row.timings = dict(outcome.verdicts), outcome.error, dict(timings or {})
            db.add(row)
            db.commit()

    def resume(self, run: str, agent: str, task_ids: set[str]) -> dict[tuple[str, int], AttemptRecord]:
        """Attempts of `run` by `agent` on these tasks that finished, by (task id, attempt index).

        Rows of that run left unfinished (the process stopped or was killed mid-attempt) are closed
        as `interrupted` here, so a rerun redoes exactly those attempts and orphans none. Call it
        only for tasks that no other live rollout of the run is attempting.
        """
        with Session(self.engine) as db:
            query = select(AttemptRow).where(AttemptRow.agent == agent, AttemptRow.info["run"].as_string() == run)
            rows = [r for r in db.exec(query.order_by(AttemptRow.id)).all() if r.task_id in task_ids]
            finished: dict[tuple[str, int], AttemptRecord] = {}
            for row in rows:
                if row.status is None:
                    row.status, row.finished_at, row.error = INTERRUPTED, _now(), "interrupted: the run stopped before this attempt finished"
                    db.add(row)
                elif row.status != INTERRUPTED:
                    finished.setdefault((row.task_id, int((row.info or {}).get("attempt", 0))), _record(row))
            db.commit()
            return finished

    def set_aside(self, run: str, agent: str, task_id: str, reason: str) -> int:
        """Close the attempts of `run` on `task_id` left unfinished by a worker that died, as env_error, outside the run.

        Each keeps its steps and its error (`reason`) but moves to run `<run>/lost` (with `lost_from`), so
        the retry on another worker redoes the attempt under `run` and a resume never counts the lost one.
        Returns how many were set aside.
        """
        with Session(self.engine) as db:
            query = select(AttemptRow).where(AttemptRow.agent == agent, AttemptRow.task_id == task_id,
                                             AttemptRow.info["run"].as_string() == run, col(AttemptRow.status).is_(None))
            rows = db.exec(query).all()
            for row in rows:
                row.status, row.finished_at, row.error = "env_error", _now(), f"environment: {reason}"
                row.info = {**(row.info or {}), "run": f"{run}/lost", "lost_from": run}
                db.add(row)
            db.commit()
            return len(rows)

    def step_count(self, attempt_id: int) -> int:
        with Session(self.engine) as db:
            return db.exec(select(func.count(col(StepRow.id))).where(StepRow.attempt_id == attempt_id)).one()

    def attempts(
        self, task_id: str | None = None, agent: str | None = None, status: str | None = None, limit: int | None = None
    ) -> list[AttemptRecord]:
        """Attempts in the order they started, optionally filtered; unfinished ones have outcome None."""
        query = select(AttemptRow).order_by(AttemptRow.id)
        if task_id is not None:
            query = query.where(AttemptRow.task_id == task_id)
        if agent is not None:
            query = query.where(AttemptRow.agent == agent)
        if status is not None:
            query = query.where(AttemptRow.status == status)
        if limit is not None:
            query = query.limit(limit)
        with Session(self.engine) as db:
            return [_record(row) for row in db.exec(query).all()]

    def steps(self, attempt_id: int) -> list[StepRecord]:
        with Session(self.engine) as db:
            rows = db.exec(select(StepRow).where(StepRow.attempt_id == attempt_id).order_by(StepRow.index, StepRow.id)).all()
            return [StepRecord.model_validate(row.model_dump(exclude={"id", "attempt_id", "created_at"})) for row in rows]

    def close(self) -> None:
        self.engine.dispose()


def _record(row: AttemptRow) -> AttemptRecord:
    outcome = None
    if row.status is not None:
        outcome = Outcome(
            status=row.status, reward=row.reward or 0.0, success=bool(row.success), verdicts=row.verdicts or {}, error=row.error
        )
    return AttemptRecord(
        id=row.id, task_id=row.task_id, agent=row.agent, model=row.model, info=row.info or {},
        started_at=row.started_at, finished_at=row.finished_at, outcome=outcome, timings=row.timings or {},
    )


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    dbapi_conn.execute("PRAGMA journal_mode=WAL")
    dbapi_conn.execute("PRAGMA synchronous=NORMAL")
