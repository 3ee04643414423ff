"""`gymfactory flows serve` registers deployments; a run started by name completes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from prefect.client.orchestration import get_client
from prefect.deployments import run_deployment


def test_deployment_runs_by_name(prefect_server, tmp_path):
    env = {**os.environ, "PREFECT_API_URL": prefect_server, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    proc = subprocess.Popen([sys.executable, "-m", "gymfactory.cli", "flows", "serve", "--name", "test"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        with get_client(sync_client=True) as client:
            while time.monotonic() < deadline:
                flows = {f.id: f.name for f in client.read_flows()}
                served = {f"{flows.get(d.flow_id)}/{d.name}" for d in client.read_deployments()}
                if {"worlds/test", "pipeline/test", "validate-tasks/test"} <= served:
                    break
                assert proc.poll() is None, proc.stdout.read().decode()
                time.sleep(1)
            assert {"worlds/test", "pipeline/test", "validate-tasks/test"} <= served
        run = run_deployment("worlds/test", parameters={"config": {"out": str(tmp_path / "w"), "personas": ["rosa"],
                                                                    "scenarios": ["offsite"]}}, timeout=180)
        assert run.state.is_completed(), run.state
        assert len(list((tmp_path / "w" / "worlds").glob("rosa-offsite-*.json"))) == 1
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
