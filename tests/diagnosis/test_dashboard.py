"""The dashboard in a real browser (Debian's Chromium) against a real uvicorn server over a real rollout store:
open a run, a task, replay an attempt, compare a failed and a successful attempt; and the JSON diagnosis endpoints."""

from __future__ import annotations

import re
import socket
import threading
import time

import httpx
import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from mocked_apps.kit.browser import launch_chromium
from runtime.dashboard.app import create_app


@pytest.fixture(scope="module")
def dashboard(planted):
    path, _ = planted
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(create_app(str(path)), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield base
    server.should_exit = True
    thread.join(timeout=10)


def test_open_a_run_a_task_replay_and_compare(dashboard):
    with sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_page()
        page.goto(dashboard + "/")
        page.click("a.run:text-is('planted-flawed-confirm')")
        assert page.locator("#agents").inner_text().count("flawed-confirm") == 1
        breakdown = page.locator("#breakdown").inner_text()
        assert "confirm" in breakdown and "0%" in breakdown  # never confirms: no success on confirm tasks
        page.select_option("select[name=status]", "failure")
        page.click("button[type=submit]")
        assert "status=failure" in page.url  # the filter is in the link
        shared = page.url
        page.goto(shared)
        tasks = page.locator("a.task")
        assert tasks.count() == 2 and "bank.transfer_to_savings" in page.locator("#tasks").inner_text()  # the two confirm tasks it failed
        page.click("a.task:has-text('bank.transfer_to_savings')")
        failed = [a for a in page.request.get(dashboard + "/api/attempts?run=planted-flawed-confirm&status=failure").json()["attempts"]
                  if a["family"] == "bank.transfer_to_savings"]
        shown = page.request.get(dashboard + f"/api/attempts/{failed[0]['id']}").json()["instruction"]
        assert shown and page.locator("#instruction").inner_text() == shown
        assert "failure" in page.locator("#attempts").inner_text()
        page.click("a.attempt")
        assert page.locator("#outcome").inner_text() == "failure"
        assert "fail" in page.locator("#criteria").inner_text()
        assert page.locator("tr.step").count() >= 5
        shot = page.locator("img.shot").first
        shot.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=shot.element_handle())
        assert "Confirm transfer" in page.locator("#events").inner_text() or "stopped" in page.locator("#events").inner_text()
        assert "missing" in page.locator("#diff").inner_text()  # the golden confirmed, this attempt did not
        page.locator("#last-page summary").click()
        assert "Confirm transfer" in page.locator("#last-page").inner_text()  # it stopped on the review page
        prompt = page.locator("details.prompt").nth(2)
        prompt.locator("summary").click()
        page.wait_for_function("d => d.querySelector('pre').textContent.includes('Task:')", arg=prompt.element_handle())
        page.go_back()
        page.click("#compare")
        sides = page.locator(".attempt-side")
        assert sides.count() == 2
        assert "failure" in sides.nth(0).inner_text() and "success" in sides.nth(1).inner_text()
        assert "Confirm" in page.locator("#compare").inner_text() or page.locator("#compare tr").count() > 5
        browser.close()


def test_diagnosis_endpoints(dashboard):
    with httpx.Client(base_url=dashboard) as client:
        runs = {r["run"]: r for r in client.get("/api/runs").json()}
        assert runs["planted-golden"]["successes"] == runs["planted-golden"]["attempts"] == 8
        by = client.get("/api/attempts", params={"run": "planted-flawed-confirm"}).json()
        assert by["counts"]["failure"] >= 2 and by["counts"]["success"] >= 4
        failed = next(a for a in by["attempts"] if a["status"] == "failure")
        criteria = client.get("/api/criteria", params={"run": "planted-flawed-confirm"}).json()
        assert criteria[0]["failure_rate"] == 1.0 and criteria[0]["description"]
        caps = {r["key"]: r for r in client.get("/api/breakdown", params={"run": "planted-flawed-confirm", "by": "capability"}).json()}
        assert caps["confirm"]["success_rate"] == 0.0 and caps["disambiguate"]["success_rate"] == 1.0
        events = client.get(f"/api/attempts/{failed['id']}/events").json()
        assert any(e["kind"] in ("stopped_early", "agent_gave_up") for e in events)
        diff = client.get(f"/api/attempts/{failed['id']}/diff").json()
        assert diff["reference_agent"] == "golden" and (diff["diff"]["missing"] or diff["diff"]["different"])
        prompt = client.get(f"/api/attempts/{failed['id']}/steps/1/prompt").json()["prompt"]
        assert "## Step 1" in prompt and "Task:" in prompt
        assert re.search(r"^\[\d+\] \w+ ", prompt, re.M) and not re.search(r'^\s*\[\d+\] \w+ "', prompt, re.M)  # the attempt's compact view
        assert client.get("/api/attempts/999999").status_code == 404


def test_the_dashboard_command_serves_a_store(planted, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    path, _ = planted
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen([sys.executable, "-m", "gymfactory.cli", "dashboard", "--store", str(path), "--port", str(port)],
                            env={**os.environ, "GYMFACTORY_HOME": str(tmp_path / "home")}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline, runs = time.monotonic() + 60, None
        while time.monotonic() < deadline and runs is None:
            assert proc.poll() is None, proc.stdout.read().decode()
            try:
                runs = httpx.get(f"http://127.0.0.1:{port}/api/runs", timeout=2).json()
            except httpx.TransportError:
                time.sleep(0.3)
        assert runs and {r["run"] for r in runs} >= {"planted-golden", "planted-flawed-search"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        out = proc.communicate(timeout=20)[0].decode()
    assert f"dashboard over sqlite:///{path}" in out and f"http://127.0.0.1:{port}/" in out


def test_each_actions_error_is_on_the_row_of_the_action_that_caused_it(tmp_path):
    """Step 0's fill(7, ...) fails; the store keeps that error with step 1's observation. The page and the API show it
    on step 0's row, and step 1's row (whose click worked) shows none; an unparsed output keeps its own parse error."""
    from fastapi.testclient import TestClient

    from runtime.manager import Outcome
    from runtime.store import StepRecord, TrajectoryStore

    store = TrajectoryStore(tmp_path / "trajectories.db")
    aid = store.start_attempt("mail.star", agent="test")
    rows = [("fill(7, 'invoice')", None), ("click(3)", "there is no element [7]"), (None, "no action parsed"),
            ('answer("done")', None)]
    for k, (action, error) in enumerate(rows):
        store.add_step(aid, StepRecord(index=k, url="mail:/", axtree="[3] link 'Inbox'", raw_output=action or "hmm",
                                       action=action, error=error, latency_s=0.1))
    store.finish_attempt(aid, Outcome(status="failure"), {"total_s": 1.0})
    store.close()
    with TestClient(create_app(str(tmp_path / "trajectories.db"))) as client:
        steps = client.get(f"/api/attempts/{aid}/steps").json()
        assert [s["error"] for s in steps] == ["there is no element [7]", None, "no action parsed", None]
        page = client.get(f"/attempt/{aid}").text
    first, second = page.split("fill(7, &#39;invoice&#39;)")[1].split("</tr>")[0], page.split("click(3)")[1].split("</tr>")[0]
    assert "there is no element [7]" in first and "failure" not in second
