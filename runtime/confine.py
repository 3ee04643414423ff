"""OS-level confinement of untrusted processes with bubblewrap (DESIGN.md Contract 3).

Agent shell commands, golden code and verifier code all run through `confined_argv`: a fresh
user, pid, network, ipc, uts, mount and cgroup namespace, no capabilities, uid 65534 inside, the
system's `/usr` read-only, a private `/proc`, `/dev` and `/tmp`, and exactly one writable folder
(the session's workspace or a run's scratch folder). Nothing else of this machine is visible:
no home folder, no task files, no instance databases, no project source, no other workspace.

`bwrap` itself is started as an unprivileged uid drawn at random for each run (`RunUser`), not as
root, for two reasons: root's processes are exempt from RLIMIT_NPROC, so only a non-root uid makes
the process-count limit hold, and a non-root uid cannot re-enter the host's namespaces (`nsenter`
is refused). The child is killed with its whole tree when `bwrap` dies (`--die-with-parent`, and
the pid namespace's init takes every process down with it), so `setsid`/`nohup` cannot outlive it.

Where bubblewrap cannot run, `require()` raises `ConfinementUnavailable` naming the fix, unless
the user opted out with `--unsafe-no-confinement` (`GYMFACTORY_UNSAFE_NO_CONFINEMENT=1`), which is
printed in reports and dataset cards.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

UNSAFE_ENV = "GYMFACTORY_UNSAFE_NO_CONFINEMENT"
INSIDE_UID = 65534
_UID_RANGE = (1_000_000, 1_999_999)  # never a real account's uid; a fresh one per run
_SYSTEM_LINKS = ("/bin", "/lib", "/lib64", "/sbin")
_PASSWD = "root:x:0:0::/nonexistent:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
_GROUP = "root:x:0:\nnogroup:x:65534:\n"
CONFINED_PYTHON = "/usr/bin/python3"


class ConfinementUnavailable(RuntimeError):
    """Untrusted code would run unconfined; the message names the fix."""


@dataclass(frozen=True)
class Limits:
    """Per-process limits inside the confinement (RLIMIT_NPROC holds for the whole run's uid)."""

    processes: int = 64
    memory_mb: int = 2048
    file_mb: int = 64
    cpu_s: int | None = None


@dataclass(frozen=True)
class RunUser:
    """An unprivileged uid/gid that owns one run's writable folder and starts its bwrap."""

    uid: int

    @classmethod
    def fresh(cls) -> "RunUser":
        low, high = _UID_RANGE
        return cls(uid=low + secrets.randbelow(high - low))

    def own(self, folder: Path) -> None:
        """Give `folder` and everything in it to this uid (the only place the run may write)."""
        os.chown(folder, self.uid, self.uid)
        for root, dirs, files in os.walk(folder):
            for name in dirs + files:
                os.chown(os.path.join(root, name), self.uid, self.uid, follow_symlinks=False)

    def kill_all(self) -> int:
        """SIGKILL every process of this uid, which only this run's (or session's) processes have; how many.

        bwrap's `--die-with-parent` is armed by its inner process a moment after it starts: a run killed within
        those first milliseconds (a shutdown, a Ctrl-C) would leave that process running. Without root nothing
        runs as this uid (it is our own), so nothing is swept.
        """
        if os.geteuid() != 0:
            return 0
        killed = 0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                if entry.stat().st_uid == self.uid:
                    os.kill(int(entry.name), signal.SIGKILL)
                    killed += 1
            except (FileNotFoundError, ProcessLookupError):
                pass
        return killed

    def argv(self) -> list[str]:
        """The command prefix that runs the rest as this uid with no groups (`setpriv`, util-linux).

        Not `subprocess.Popen(user=..., group=..., extra_groups=...)`: with those CPython cannot use vfork and
        forks the whole parent instead, page tables and all, holding the GIL; from a process of several hundred
        MB that was a tenth of validation's wall time, every thread stalled at each confined start.
        """
        if os.geteuid() != 0:
            return []
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--"]


def unreachable_parent(folder: Path) -> Path | None:
    """The first parent of `folder` that an unprivileged uid cannot pass through (bwrap must), or None."""
    for parent in Path(folder).resolve().parents:
        if not parent.stat().st_mode & 0o001:
            return parent
    return None


def unsafe() -> bool:
    """Whether the user explicitly allowed untrusted code to run without confinement."""
    return os.environ.get(UNSAFE_ENV, "") not in ("", "0", "false", "no")


@functools.cache
def _probe() -> str | None:
    """None when a confined command runs here; else why not."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap is not installed"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "setpriv (util-linux), which drops root before bwrap starts, is not installed"
    if not Path(CONFINED_PYTHON).exists():
        return f"{CONFINED_PYTHON} (the interpreter for confined code) is missing"
    scratch = Path(tempfile.mkdtemp(prefix="gf-probe-"))
    user = RunUser.fresh()
    try:
        user.own(scratch)
        proc = popen(["/bin/true"], writable=scratch, inside="/work", user=user,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, stderr = proc.communicate(timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start: {exc}"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if proc.returncode != 0:
        return f"bwrap failed (exit {proc.returncode}): {stderr.decode(errors='replace').strip()[:300]}"
    return None


def mode() -> str:
    """How untrusted code runs in this process, for reports and dataset cards."""
    if _probe() is None:
        return "confined (bubblewrap)"
    return "UNCONFINED (--unsafe-no-confinement: rewards may be hackable)" if unsafe() else "unavailable"


def available() -> bool:
    """Whether confined commands can run on this machine."""
    return _probe() is None


_measuring_unconfined = threading.Event()


@contextlib.contextmanager
def unconfined_for_benchmark() -> Iterator[None]:
    """Run untrusted code the old, unconfined way while inside: only `gymfactory bench sandbox` uses it,
    to measure what confinement costs side by side in one run."""
    _measuring_unconfined.set()
    try:
        yield
    finally:
        _measuring_unconfined.clear()


def require() -> bool:
    """True when untrusted code runs confined, False when the user opted out; else raise with the fix."""
    if _measuring_unconfined.is_set():
        return False
    problem = _probe()
    if problem is None:
        return True
    if unsafe():
        return False
    raise ConfinementUnavailable(
        f"untrusted code (verifiers, golden code, agent shell) must run confined, but {problem}. "
        "Fix: `apt-get install -y bubblewrap python3` (scripts/install.sh does it) on a kernel that allows user "
        "namespaces; or, knowingly, pass --unsafe-no-confinement (recorded in reports and dataset cards)."
    )


@functools.cache
def _etc() -> Path:
    """A tiny read-only /etc (passwd and group for uid 65534), shared by every confined run."""
    folder = Path(tempfile.mkdtemp(prefix="gf-etc-"))
    (folder / "passwd").write_text(_PASSWD)
    (folder / "group").write_text(_GROUP)
    (folder / "hostname").write_text("sandbox\n")
    folder.chmod(0o755)
    for child in folder.iterdir():
        child.chmod(0o644)
    return folder


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment of a confined process: no tokens, keys or proxies from ours."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "TZ": "UTC"}
    env.update(extra or {})
    return env


def confined_argv(
    command: list[str], *, writable: Path, inside: str = "/work", limits: Limits = Limits(),
) -> list[str]:
    """`prlimit ... bwrap ... -- command`: run `command` with `writable` mounted at `inside` as its cwd."""
    prlimit = [
        "prlimit", f"--nproc={limits.processes}", f"--as={limits.memory_mb << 20}",
        f"--fsize={limits.file_mb << 20}", "--core=0",
    ]
    if limits.cpu_s:
        prlimit.append(f"--cpu={limits.cpu_s}")
    return [*prlimit, "--", "bwrap", *_bwrap_options(writable, inside), "--", *command]


def popen(
    command: list[str], *, writable: Path, inside: str, user: RunUser, limits: Limits = Limits(), **kwargs,
) -> subprocess.Popen:
    """Start `command` confined, as `user`; bwrap reads its options from a pipe (`--args`), so not even the
    sandbox's own `/proc/1/cmdline` shows a host path. `kwargs` go to `subprocess.Popen` (env defaults to
    `clean_env()`)."""
    argv = confined_argv(command, writable=writable, inside=inside, limits=limits)
    start, end = argv.index("bwrap") + 1, len(argv) - len(command) - 1
    read, write = os.pipe()
    try:
        os.write(write, b"".join(arg.encode() + b"\0" for arg in argv[start:end]))  # far below a pipe's 64 KiB
        os.close(write)
        kwargs.setdefault("env", clean_env())
        return subprocess.Popen([*user.argv(), *argv[:start], "--args", str(read), *argv[end:]], pass_fds=(read,), **kwargs)
    finally:
        os.close(read)


def _bwrap_options(writable: Path, inside: str) -> list[str]:
    argv = ["--unshare-all", "--die-with-parent", "--new-session",
            "--uid", str(INSIDE_UID), "--gid", str(INSIDE_UID), "--cap-drop", "ALL",
            "--hostname", "sandbox", "--ro-bind", "/usr", "/usr"]
    for link in _SYSTEM_LINKS:
        path = Path(link)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), link]
        elif path.is_dir():
            argv += ["--ro-bind", link, link]
    etc = _etc()
    argv += ["--dir", "/etc", "--ro-bind", str(etc / "passwd"), "/etc/passwd", "--ro-bind", str(etc / "group"),
             "/etc/group", "--ro-bind", str(etc / "hostname"), "/etc/hostname",
             "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
             "--bind", str(writable), inside, "--chdir", inside, "--setenv", "HOME", inside]
    return argv
