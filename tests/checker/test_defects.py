"""Each planted defect, derived from the notes app by the kit, is caught first by its own law on the real
browser: the seven classic ones and the classes issue 12 found the checker missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mocked_apps.checker import CheckReport, check_app
from tests.conftest import FIXTURE_APPS

from .defects import BY_NAME, DEFECTS

_REPORTS: dict[str, CheckReport] = {}


def _report(browser, defect_app, name: str) -> CheckReport:
    """The check of one defect app, run once per session (several tests read the same report)."""
    if name not in _REPORTS:
        _REPORTS[name] = check_app(str(defect_app(name)), browser=browser, controls_budget_s=20)
    return _REPORTS[name]


@pytest.mark.parametrize("name", [d.name for d, _ in DEFECTS])
def test_each_defect_is_caught_first_by_its_law(browser, defect_app, name):
    defect, word = BY_NAME[name]
    report = _report(browser, defect_app, name)
    first = report.first_failure
    assert first is not None and not report.ok, f"{name}: no law failed"
    assert first.law == defect.law, f"{name}: first failure is {first.law}: {first.evidence}"
    assert word in first.evidence + first.cause, first
    assert "Traceback" not in report.fail_line()
    if defect.law != "starts":
        assert report.result("starts").verdict == "pass"


def test_a_page_that_answers_500_leaves_the_replay_laws_not_run_with_the_server_traceback(browser, defect_app):
    report = _report(browser, defect_app, "broken_500")
    for law in ("determinism", "isolation", "reset", "dead_controls"):
        assert report.result(law).verdict == "not run", report.result(law)
    console = report.result("console")
    assert "page answered 500" in console.evidence
    assert "server traceback:" in console.evidence and 'layout.html", line' in console.evidence  # the app's own frame
    assert console.cause == "jinja2.exceptions.UndefinedError: 'no_such_value' is undefined"
    assert report.fail_line().endswith("(jinja2.exceptions.UndefinedError: 'no_such_value' is undefined)")
    assert not report.ok and {r.law for r in report.failures} >= {"console", "determinism", "isolation", "reset"}


def test_a_phone_only_control_is_judged_at_the_phone_size_only(browser, defect_app):
    report = _report(browser, defect_app, "broken_phone_dead")
    evidence = report.result("dead_controls").evidence
    assert "phone: button 'Menu'" in evidence and "desktop: button 'Menu'" not in evidence


def test_cli_fail_lines_name_the_law_and_the_exception_and_never_crash(tmp_path, defect_app):
    # a child process: the module's browser fixture holds this thread's Playwright loop
    out = tmp_path / "reports.json"
    apps = [str(defect_app(n)) for n in ("broken_dead", "broken_seed", "broken_500", "broken_literal")]
    cmd = [sys.executable, "-m", "gymfactory.cli", "apps", "check", *apps, "--budget", "20", "--json", str(out), "--jobs", "2"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=400, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    fails = {line.split()[1].rstrip(":"): line for line in result.stdout.splitlines() if line.startswith("FAIL ")}
    assert "law dead_controls" in fails["broken_dead"] and "Archive" in fails["broken_dead"]
    assert "law default_seed" in fails["broken_seed"] and "seed.note[0].title" in fails["broken_seed"]
    assert "UndefinedError: 'no_such_value' is undefined" in fails["broken_500"]
    assert "AppPackageError" in fails[apps[3]] and "Note.kind" in fails[apps[3]] and "sa_type" in fails[apps[3]]
    assert "4 of 4 check(s) fail" in result.stdout and "[4/4]" in result.stdout  # two worker processes, every report back
    assert [r["ref"] for r in json.loads(out.read_text())] == apps  # in the order asked, whichever finished first
    reports = {r["ref"]: r for r in json.loads(out.read_text())}
    assert reports[apps[0]]["app"] == "broken_dead" and [r["verdict"] for r in reports[apps[0]]["laws"]].count("fail") == 1
    assert "coverage desktop 1280x800" in result.stdout and "coverage phone 390x844" in result.stdout


def test_cli_interrupted_mid_batch_keeps_the_reports_done_and_leaves_no_worker(tmp_path):
    out = tmp_path / "reports.json"
    notes = str(FIXTURE_APPS / "notes")
    cmd = [sys.executable, "-m", "gymfactory.cli", "apps", "check", notes, *(f"--variant={s}" for s in (0, 1, 2, 3, 4, 5)),
           "--jobs", "2", "--brief", "--json", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env={**os.environ, "COLUMNS": "200"})
    lines = []
    for line in proc.stdout:  # stopped once the first report is in, the others still to do (as a scheduler stops it)
        lines.append(line)
        if line.startswith("[1/6]"):
            proc.send_signal(signal.SIGTERM)
            break
    rest, _ = proc.communicate(timeout=60)
    output = "".join(lines) + rest
    assert proc.returncode == 130, output
    assert "interrupted after" in output and "Traceback" not in output, output
    done = json.loads(out.read_text())
    assert 1 <= len(done) < 6 and all(r["ref"] == notes for r in done)
    deadline, left = time.monotonic() + 30, ["?"]  # its workers, their Chromiums and its app host go too (its session)
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert left == [], subprocess.run(["ps", "-o", "pid,etime,cmd", "-s", str(proc.pid)], capture_output=True, text=True).stdout


@pytest.mark.parametrize(("args", "named"), [(["--variant", "-1"], "--variant"), (["--jobs", "0"], "--jobs"),
                                             (["--variants", "0"], "--variants")])
def test_cli_refuses_a_bad_variant_or_job_count_naming_the_option(args, named):
    cmd = [sys.executable, "-m", "gymfactory.cli", "apps", "check", str(FIXTURE_APPS / "notes"), *args]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 2 and named in result.stdout + result.stderr, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "pass every law" not in result.stdout  # refused before any check
