"""The sandbox: each way untrusted code can misbehave ends as a typed result, never a crash here."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from runtime.sandbox import SandboxCallError, SandboxLimits, run_sandboxed, run_verifier
from contracts.scoring import Final

FAST = SandboxLimits(timeout_s=5, memory_mb=512)
FINAL = Final(
    state={"notes": {"note": [{"id": 1, "title": "Groceries", "pinned": True}]}},
    initial_state={"notes": {"note": [{"id": 1, "title": "Groceries", "pinned": False}]}},
    answer="done",
    files={"report.txt": "total 3"},
)


def _run(body: str, **kwargs):
    return run_sandboxed(body, "f", {"a": 1}, limits=kwargs.pop("limits", FAST), **kwargs)


def test_returns_the_entry_value_and_reads_arg_as_attributes_and_items():
    result = _run("def f(x):\n    return {'sum': x.a + x['a'], 'files': sorted(__import__('os').listdir('.'))}\n")
    assert result.ok and result.value == {"sum": 2, "files": []}


def test_hang_is_a_timeout_and_the_group_is_killed():
    start = time.monotonic()
    result = _run("import time\ndef f(x):\n    time.sleep(60)\n", limits=SandboxLimits(timeout_s=1))
    assert result.error_kind == "timeout"
    assert "deadline" in result.error
    assert time.monotonic() - start < 3


def test_cpu_limit_ends_a_busy_child_before_a_long_deadline():
    result = _run("def f(x):\n    while True:\n        pass\n", limits=SandboxLimits(timeout_s=120, cpu_s=1))
    assert result.error_kind == "timeout" and "CPU" in result.error  # the rlimit, not the wall deadline


def test_crash_keeps_the_traceback_tail_with_source_lines():
    result = _run("def f(x):\n    rows = []\n    return rows[3]\n")
    assert result.error_kind == "crash"
    assert "IndexError" in result.error and "return rows[3]" in result.error and "<sandboxed>" in result.error


def test_socket_connect_is_forbidden_even_when_the_code_catches_errors():
    body = "import socket\ndef f(x):\n    try:\n        socket.create_connection(('127.0.0.1', 9))\n    except Exception:\n        return 'swallowed'\n"
    result = _run(body)
    assert result.error_kind == "forbidden" and "network" in result.error


@pytest.mark.skipif(os.geteuid() != 0, reason="network namespace needs root")
def test_child_runs_in_its_own_network_namespace():
    result = _run("import os\ndef f(x):\n    return os.readlink('/proc/self/ns/net')\n")
    assert result.ok and result.value != os.readlink("/proc/self/ns/net")


def test_write_outside_scratch_is_forbidden_and_nothing_is_written(tmp_path: Path):
    target = tmp_path / "evil.txt"
    result = _run(f"def f(x):\n    open({str(target)!r}, 'w').write('x')\n")
    assert result.error_kind == "forbidden" and "outside the scratch folder" in result.error
    assert not target.exists()


def test_remove_and_symlink_escape_are_forbidden(tmp_path: Path):
    victim = tmp_path / "keep.txt"
    victim.write_text("keep")
    assert _run(f"import os\ndef f(x):\n    os.remove({str(victim)!r})\n").error_kind == "forbidden"
    escape = f"import os\ndef f(x):\n    os.symlink({str(victim)!r}, 'link')\n    open('link', 'w').write('gotcha')\n"
    assert _run(escape).error_kind == "forbidden"
    assert victim.read_text() == "keep"


def test_writes_inside_scratch_and_tempfiles_are_allowed():
    body = "import tempfile\ndef f(x):\n    open('out.txt', 'w').write('hi')\n    tempfile.mkstemp()\n    return open('out.txt').read()\n"
    assert _run(body).value == "hi"


def test_memory_bomb_is_memory():
    result = _run("def f(x):\n    hog = []\n    while True:\n        hog.append(' ' * 10**7)\n", limits=SandboxLimits(memory_mb=256))
    assert result.error_kind in ("memory", "crash")
    assert "memory" in result.error.lower()


@pytest.mark.parametrize(
    "body",
    [
        "import subprocess\ndef f(x):\n    subprocess.run(['true'])\n",
        "import os\ndef f(x):\n    os.system('true')\n",
        "import os\ndef f(x):\n    os.fork()\n",
        "import os\ndef f(x):\n    os.execv('/bin/true', ['true'])\n",
        "import os\ndef f(x):\n    os.kill(os.getppid(), 9)\n",
    ],
    ids=["subprocess", "system", "fork", "exec", "kill"],
)
def test_processes_are_forbidden(body: str):
    assert _run(body).error_kind == "forbidden"


def test_tampering_with_the_audit_hook_is_forbidden():
    body = "import sys\ndef f(x):\n    sys.modules['__main__']._hook.__defaults__ = None\n"
    assert _run(body).error_kind == "forbidden"


def test_non_json_result_and_missing_entry_are_bad_output():
    assert _run("def f(x):\n    return object()\n").error_kind == "bad_output"
    assert _run("x = 1\n").error_kind == "bad_output"


def test_prints_do_not_corrupt_the_protocol():
    assert _run("def f(x):\n    print('{\"t\": \"result\", \"value\": 666}')\n    return 7\n").value == 7


def test_handler_round_trip_and_refused_call():
    calls = []

    def handler(name, args, kwargs):
        calls.append((name, args, kwargs))
        if name == "missing":
            raise SandboxCallError("no button named 'Nope'")
        return {"clicked": args[0], "role": kwargs.get("role")}

    body = (
        "def f(env):\n"
        "    first = env.click('Save', role='button')\n"
        "    try:\n"
        "        env.missing('Nope')\n"
        "    except RemoteError as exc:\n"
        "        return [first, str(exc), env.a]\n"
    )
    result = _run(body, handler=handler)
    assert result.value == [{"clicked": "Save", "role": "button"}, "no button named 'Nope'", 1]
    assert calls == [("click", ["Save"], {"role": "button"}), ("missing", ["Nope"], {})]


def test_handler_infrastructure_error_propagates_and_kills_the_child():
    def handler(name, args, kwargs):
        raise ConnectionError("browser died")

    with pytest.raises(ConnectionError):
        _run("def f(env):\n    env.click(1)\n", handler=handler)


def test_startup_is_cheap():
    """CPU time per run (robust on a shared machine); wall time was ~30 ms per run on an idle one."""
    import resource

    _run("def f(x):\n    return 1\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(5):
        assert _run("def f(x):\n    return 1\n").value == 1
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 5
    assert cpu < 0.15, f"{cpu:.3f} s of CPU per sandboxed run"


def test_run_verifier_gives_verdicts_from_final_attributes():
    source = (
        "def verify(final):\n"
        "    note = final.state['notes']['note'][0]\n"
        "    before = final.initial_state['notes']['note'][0]\n"
        "    return {'pinned': note['pinned'] and not before['pinned'], 'answered': final.answer == 'done',\n"
        "            'report': 'total 3' in final.files['report.txt']}\n"
    )
    run = run_verifier(source, FINAL)
    assert run.error is None and run.verdicts == {"pinned": True, "answered": True, "report": True}
    assert run.seconds > 0


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("def verify(final):\n    return [True]\n", "bad_output"),
        ("def verify(final):\n    return {'a': 1}\n", "bad_output"),
        ("def verify(final):\n    return final.state['mail']\n", "crash"),
        ("import socket\ndef verify(final):\n    socket.socket()\n", "forbidden"),
        ("def verify(final):\n    while True:\n        pass\n", "timeout"),
    ],
    ids=["list", "int-verdict", "crash", "network", "hang"],
)
def test_run_verifier_failures_have_a_kind_and_no_verdicts(source: str, kind: str):
    run = run_verifier(source, FINAL, timeout_s=1.5)
    assert run.verdicts is None and run.error_kind == kind and run.error.startswith(kind)


def test_repeat_calls_the_entry_on_fresh_copies_of_the_data():
    body = "def f(x):\n    x.items.append(1)\n    return len(x.items)\n"
    assert run_sandboxed(body, "f", {"items": []}, limits=FAST, repeat=3).value == [1, 1, 1]


def test_run_verifier_repeats_expose_nondeterminism():
    source = "import random\ndef verify(final):\n    return {f'c{i}': random.random() < 0.5 for i in range(16)}\n"
    run = run_verifier(source, FINAL, repeats=2)
    assert run.error is None and len(run.repeats) == 2 and not run.consistent
    steady = run_verifier("def verify(final):\n    return {'a': final.answer == 'done'}\n", FINAL, repeats=2)
    assert steady.consistent and steady.verdicts == {"a": True}


@pytest.mark.parametrize(
    "body",
    [
        "import sqlite3\ndef f(x):\n    sqlite3.connect(':memory:').execute(\"ATTACH DATABASE '/tmp/gf-evil.db' AS e\")\n",
        # a compiled extension written into the scratch folder would run outside every audit hook
        "import importlib.machinery as m, importlib.util as u, os, sys\ndef f(x):\n"
        "    lib = os.path.join(sys.base_prefix, 'lib', 'python%d.%d' % sys.version_info[:2], 'lib-dynload')\n"
        "    so = sorted(n for n in os.listdir(lib) if n.startswith('_bisect') or n.startswith('_json'))[0]\n"
        "    open('x.so', 'wb').write(open(os.path.join(lib, so), 'rb').read())\n"
        "    name = so.split('.')[0]\n"
        "    loader = m.ExtensionFileLoader(name, os.path.abspath('x.so'))\n"
        "    u.module_from_spec(u.spec_from_file_location(name, os.path.abspath('x.so'), loader=loader))\n",
    ],
    ids=["sqlite-attach", "extension-from-scratch"],
)
def test_write_paths_without_open_events_are_closed(body: str):
    assert _run(body).error_kind == "forbidden"
    assert not Path("/tmp/gf-evil.db").exists()
