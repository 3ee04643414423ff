"""`gymfactory serve openenv|verifiers` as a user starts them, driven by each library's own client."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "mocked_apps" / "mail" / "tasks" / "answer-he-48622.json"  # "How much is due on invoice HE-48622?" 172.00


def _serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gymfactory.cli", "serve", *args], cwd=ROOT, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, start_new_session=True,
                            preexec_fn=_ignore_sigint)


def _ignore_sigint() -> None:
    """Start the server as a shell's background job does (`cmd &`: SIGINT ignored); Ctrl-C must still stop it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(proc: subprocess.Popen) -> int:
    """SIGINT, as Ctrl-C: the command closes its servers and exits 0."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise


def test_serve_openenv_answers_the_openenv_client_and_scores_with_the_verifier():
    from openenv import GenericEnvClient

    proc = _serve("openenv", "--tasks", str(FIXTURE), "--port", "0", "--sessions", "2")
    try:
        line = proc.stderr.readline()
        url = re.search(r"OpenEnv server on (http://\S+) serving 1 tasks, up to 2 session\(s\) at once", line)
        assert url, line + proc.stderr.read() if proc.poll() is not None else line
        with GenericEnvClient(base_url=url.group(1), message_timeout_s=120).sync() as client:
            first = client.reset()
            assert first.observation["task_id"] == "mail-answer-he-48622" and "[" in first.observation["axtree"]
            with GenericEnvClient(base_url=url.group(1), message_timeout_s=120).sync() as other:  # a second episode, the first still open
                other.reset()
                assert other.step({"action": 'answer("17")'}).reward == 0.0
            end = client.step({"action": 'answer("172.00")'})
            assert end.done and end.reward == 1.0 and end.observation["outcome"]["status"] == "success"
            client.reset()
            wrong = client.step({"action": 'answer("99")'})
            assert wrong.done and wrong.reward == 0.0
    finally:
        assert _stop(proc) == 0


def test_serve_verifiers_runs_rollouts_for_the_verifiers_env_client(dataset_folder, validated, monkeypatch):
    import asyncio

    import verifiers.v1 as vf
    from verifiers.v1.serve import EnvClient

    from runtime.interop.verifiers_env import env_config
    from tests.support.scripted_llm import ScriptedLLM

    async def run(address: str, task: vf.Task, llm: ScriptedLLM) -> vf.WireEpisode:
        client = EnvClient(address)  # what prime-rl's orchestrator holds: it owns the taskset, the server runs each task
        try:
            await client.wait_for_server_startup(timeout=120)
            model = vf.EvalClientConfig(base_url=llm.openai_base_url, api_key_var="OPENAI_API_KEY")
            return await client.run(model, "scripted", vf.SamplingConfig(), task.data.model_dump(mode="json"))
        finally:
            await client.close()

    _, results = validated
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    proc = _serve("verifiers", "--dataset", str(dataset_folder), "--address", address)
    try:
        (task,) = vf.load_taskset(env_config(str(dataset_folder)).taskset)  # the train split: the mail task
        golden = next(r for r in results if r.task_id.startswith("mail."))
        with ScriptedLLM([*golden.golden_actions, 'answer("done")']) as llm:
            started = time.monotonic()
            episode = asyncio.run(run(address, task, llm))
            assert llm.pending() == 0, f"the server did not drive the model ({time.monotonic() - started:.0f} s)"
        assert episode.ok and not episode.errors, episode.errors
        (trace,) = episode.traces
        assert trace.ok and trace.reward == 1.0 and trace.info["gymfactory_outcome"]["status"] == "success"
    finally:
        assert _stop(proc) == 0
