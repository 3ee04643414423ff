"""Prefect's own database on PostgreSQL: a flow with mapped tasks runs against a temporary Prefect server whose
database is the session's PostgreSQL server (PREFECT_API_DATABASE_CONNECTION_URL), and its runs are rows there."""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg

FLOW = '''
from prefect import flow, task

@task
def double(x: int) -> int:
    return 2 * x

@flow(name="gym-postgres-probe")
def probe(n: int = 3) -> int:
    return sum(double.map(range(n)).result())

print("RESULT", probe())
'''


def test_a_flow_runs_on_a_prefect_server_backed_by_postgresql(postgres_server, tmp_path):
    url = postgres_server.create_database("prefect").replace("+psycopg", "+asyncpg")  # Prefect's server talks asyncpg
    (tmp_path / "probe.py").write_text(FLOW)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}  # no API URL: a temporary server
    env.update(PREFECT_HOME=str(tmp_path / "prefect"), PREFECT_API_DATABASE_CONNECTION_URL=url,
               PREFECT_SERVER_ANALYTICS_ENABLED="false",
               PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="300")  # the first start migrates an empty database
    done = subprocess.run([sys.executable, str(tmp_path / "probe.py")], env=env, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0 and "RESULT 6" in done.stdout, done.stderr[-3000:]
    with psycopg.connect(host="127.0.0.1", port=postgres_server.port, user=postgres_server.user, dbname="prefect") as db:
        runs = db.execute("SELECT f.name, r.state_type FROM flow_run r JOIN flow f ON f.id = r.flow_id").fetchall()
        tasks = db.execute("SELECT count(*) FROM task_run WHERE state_type = 'COMPLETED'").fetchone()[0]
    assert runs == [("gym-postgres-probe", "COMPLETED")] and tasks == 3
