"""Verifier and golden code as an attacker writes it: the OS boundary holds even with the audit hook off.

`audit=False` turns off the in-process second layer, so each test shows what bubblewrap alone
refuses; the same code with the hook on (the default) is stopped earlier, as `forbidden`, which
validation turns into a rejected task.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from runtime.sandbox import SandboxLimits, run_sandboxed

OS_ONLY = SandboxLimits(timeout_s=20, audit=False)


def _run(body: str, arg: dict | None = None, limits: SandboxLimits = OS_ONLY):
    return run_sandboxed(body, "f", arg or {}, limits=limits)


def test_runs_as_an_unprivileged_uid_without_capabilities():
    result = _run("import os\ndef f(x):\n    caps = [l for l in open('/proc/self/status') if l.startswith('CapEff')]\n"
                  "    return [os.getuid(), os.getgid(), caps[0].split()[1], sorted(os.listdir('/'))]\n")
    uid, gid, caps, root = result.value
    assert (uid, gid, caps) == (65534, 65534, "0000000000000000")
    assert "root" not in root and "work" not in root and "home" not in root


def test_host_files_cannot_be_written_by_any_route(tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("untouched")
    body = (
        "import os, posixpath, builtins\n"
        "def f(x):\n"
        "    errors = []\n"
        "    posixpath.realpath = lambda p, *a, **k: '/scratch/ok'  # what used to fool the hook\n"
        "    for attempt in (lambda: open(x['path'], 'w').write('owned'),\n"
        "                    lambda: os.open(os.path.basename(x['path']), os.O_WRONLY | os.O_CREAT,\n"
        "                                    dir_fd=os.open(os.path.dirname(x['path']), os.O_RDONLY)),\n"
        "                    lambda: os.remove(x['path'])):\n"
        "        try:\n"
        "            attempt()\n"
        "            errors.append(None)\n"
        "        except OSError as exc:\n"
        "            errors.append(type(exc).__name__)\n"
        "    return errors\n"
    )
    result = _run(body, {"path": str(target)})
    assert result.ok and None not in result.value, result
    assert target.read_text() == "untouched"


def test_secrets_task_files_and_instances_are_not_visible(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-SECRET-KEY")
    task = tmp_path / "task.json"
    task.write_text('{"verifier": "SECRET-VERIFIER"}')
    body = (
        "import os\n"
        "def f(x):\n"
        "    seen = {}\n"
        "    for path in x['paths']:\n"
        "        try:\n"
        "            seen[path] = open(path, errors='replace').read()[:2000]\n"
        "        except OSError as exc:\n"
        "            seen[path] = type(exc).__name__\n"
        "    seen['env'] = dict(os.environ)\n"
        "    return seen\n"
    )
    paths = [str(task), f"/proc/{os.getpid()}/environ", "/etc/shadow", str(Path.home() / ".bashrc"), "/etc/passwd"]
    seen = _run(body, {"paths": paths}).value
    assert "SECRET" not in repr(seen)
    assert seen[str(task)] == seen[f"/proc/{os.getpid()}/environ"] == seen["/etc/shadow"] == "FileNotFoundError"
    assert seen["/etc/passwd"].count(":x:") == 2 and "OPENAI_API_KEY" not in seen["env"]


def test_loopback_servers_are_unreachable():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        body = ("import socket\ndef f(x):\n    try:\n        socket.create_connection(('127.0.0.1', x['port']), timeout=2)\n"
                "        return 'connected'\n    except OSError as exc:\n        return type(exc).__name__\n")
        assert _run(body, {"port": port}).value in ("ConnectionRefusedError", "OSError")


def test_the_parent_cannot_be_signalled():
    body = ("import os, signal\ndef f(x):\n    out = []\n    for call in (lambda: os.kill(x['pid'], signal.SIGKILL),\n"
            "                 lambda: signal.pidfd_send_signal(os.pidfd_open(x['pid']), signal.SIGKILL)):\n"
            "        try:\n            call()\n            out.append('sent')\n"
            "        except OSError as exc:\n            out.append(type(exc).__name__)\n    return out\n")
    result = _run(body, {"pid": os.getpid()})
    assert result.value == ["ProcessLookupError", "ProcessLookupError"]


def test_fork_bomb_is_bounded_by_the_process_limit():
    body = ("import os\ndef f(x):\n    n = 0\n    try:\n        while n < 10000:\n            if os.fork() == 0:\n"
            "                import time; time.sleep(30); os._exit(0)\n            n += 1\n"
            "    except OSError:\n        pass\n    return n\n")
    started = time.monotonic()
    result = _run(body)
    assert result.ok and result.value < SandboxLimits().processes
    assert time.monotonic() - started < 15


def test_setsid_children_die_with_the_run():
    marker = "301.25"
    body = ("import subprocess\ndef f(x):\n    subprocess.Popen(['setsid', 'sleep', x['m']])\n"
            "    subprocess.Popen(['nohup', 'sleep', x['m']], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n    return 1\n")
    assert _run(body, {"m": marker}).value == 1
    deadline = time.monotonic() + 5
    while _sleepers(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _sleepers(marker) == []


def _sleepers(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize(
    "body",
    [
        "def f(x):\n    return open('/etc/passwd').read()\n",
        "import os\ndef f(x):\n    return open('/proc/%d/environ' % os.getppid()).read()\n",
        "import os\ndef f(x):\n    return os.listdir('/proc')\n",
        "import importlib.machinery as m, importlib.util as u, glob\ndef f(x):\n"  # a C module under a dotted alias
        "    path = glob.glob('/usr/lib/python3*/lib-dynload/_posixshmem*.so')[0]\n"
        "    loader = m.ExtensionFileLoader('x._posixshmem', path)\n"
        "    return str(u.module_from_spec(u.spec_from_file_location('x._posixshmem', path, loader=loader)))\n",
        "import os\ndef f(x):\n    fd = os.open('/', os.O_RDONLY)\n    return os.open('evil', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n",
        "import socket\ndef f(x):\n    return socket.socket().connect(('127.0.0.1', 9))\n",
    ],
    ids=["etc-passwd", "parent-environ", "list-proc", "dotted-alias", "dir-fd-write", "network"],
)
def test_the_audit_hook_turns_attempts_into_forbidden(body: str):
    result = _run(body, limits=SandboxLimits(timeout_s=20))
    assert result.error_kind == "forbidden", result
