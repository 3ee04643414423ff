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

Every host path bwrap itself must reach (the tiny `/etc` it binds, session workspaces) lies under one
scratch root of the project's (`scratch_root()`): a 0711 folder that any uid may pass through, in
/tmp (else /var/tmp or /dev/shm, or where `GYMFACTORY_SCRATCH` says), never in TMPDIR. A private 0700
TMPDIR (`mktemp -d`, systemd's PrivateTmp) is then no obstacle. A run that needs no host folder
writes into a size-bounded tmpfs (`scratch_mb`).

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
import stat
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

UNSAFE_ENV = "GYMFACTORY_UNSAFE_NO_CONFINEMENT"
SCRATCH_ENV = "GYMFACTORY_SCRATCH"
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


@functools.cache
def scratch_root() -> Path:
    """The project's folder for what confined runs need on the host: this user's, 0711, reachable by any uid.

    Not in TMPDIR, which may be private (0700) and which a run should find as it left it: `/tmp`, else
    `/var/tmp` or `/dev/shm`, or `GYMFACTORY_SCRATCH`. Raises `ConfinementUnavailable` naming the folders
    tried when none can be passed through.
    """
    configured = os.environ.get(SCRATCH_ENV, "").strip()
    bases = [Path(configured)] if configured else [Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]
    refused = []
    for base in bases:
        blocked = _blocked(base)
        if blocked is not None:
            refused.append(f"{base} ({blocked})")
            continue
        root = base / f"gymfactory-{os.geteuid()}"
        try:
            root.mkdir(mode=0o711, exist_ok=True)
            info = root.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
                refused.append(f"{root} (not a folder of this user's)")
                continue
            root.chmod(0o711)  # mkdir's mode passed through the umask; others may pass, not list
        except OSError as exc:
            refused.append(f"{root} ({exc.strerror or exc})")
            continue
        return root
    where = f"{SCRATCH_ENV}={configured}" if configured else "/tmp, /var/tmp and /dev/shm"
    raise ConfinementUnavailable(
        f"confined runs need a folder whose path every user may pass through, and none of {where} will do: "
        f"{'; '.join(refused)}. Fix: set {SCRATCH_ENV} to a folder whose parents are all searchable by others "
        "(chmod o+x), e.g. /var/tmp"
    )


def scratch_folder(prefix: str) -> Path:
    """A fresh 0711 folder for host files of confined runs (session workspaces): under the scratch root where
    confinement runs, so the run's uid can reach into it whatever TMPDIR is; else (unconfined) in TMPDIR."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=scratch_root() if available() else None))
    folder.chmod(0o711)  # the confined uid passes through to its own folder, lists nothing
    return folder


def _blocked(folder: Path) -> str | None:
    """Why an unprivileged uid cannot pass through `folder` (a folder on its path lacks o+x), or None."""
    try:
        folder = folder.resolve(strict=True)
    except OSError as exc:
        return exc.strerror or str(exc)
    if not folder.is_dir():
        return "not a folder"
    for part in (folder, *folder.parents):
        mode = part.stat().st_mode
        if not mode & 0o001:
            return f"{part} is {stat.filemode(mode)}, not searchable by other users"
    return None


def unsafe() -> bool:
    """Whether the user explicitly allowed untrusted code to run without confinement."""
    return os.environ.get(UNSAFE_ENV, "") not in ("", "0", "false", "no")


@functools.cache
def _probe() -> tuple[str, str] | None:
    """None when a confined command runs here; else why not, and the fix."""
    install = "`apt-get install -y bubblewrap python3` (scripts/install.sh does it)"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap is not installed", install
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "setpriv (util-linux), which drops root before bwrap starts, is not installed", "`apt-get install -y util-linux`"
    if not Path(CONFINED_PYTHON).exists():
        return f"{CONFINED_PYTHON} (the interpreter for confined code) is missing", install
    try:
        scratch_root()
    except ConfinementUnavailable as exc:
        problem, _, fix = str(exc).partition(". Fix: ")
        return problem, fix
    user = RunUser.fresh()
    try:
        proc = popen(["/bin/true"], writable=None, inside="/work", user=user, scratch_mb=1,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, stderr = proc.communicate(timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start: {exc}", "run on a kernel that allows unprivileged user namespaces"
    if proc.returncode != 0:
        return (f"bwrap failed (exit {proc.returncode}): {stderr.decode(errors='replace').strip()[:300]}",
                "run on a kernel that allows unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
                "kernel.apparmor_restrict_unprivileged_userns=0)")
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
    cause, fix = problem
    raise ConfinementUnavailable(
        f"untrusted code (verifiers, golden code, agent shell) must run confined, but {cause}. "
        f"Fix: {fix}; or, knowingly, pass --unsafe-no-confinement (recorded in reports and dataset cards)."
    )


@functools.cache
def _etc() -> Path:
    """A tiny read-only /etc (passwd and group for uid 65534), shared by every confined run: one folder under
    the scratch root, written once and kept (its content never changes), so no run leaves one behind."""
    folder = scratch_root() / "etc"
    folder.mkdir(mode=0o755, exist_ok=True)
    folder.chmod(0o755)
    for name, text in (("passwd", _PASSWD), ("group", _GROUP), ("hostname", "sandbox\n")):
        path = folder / name
        if not path.is_file() or path.read_text() != text:
            fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}-")
            with os.fdopen(fd, "w") as out:
                out.write(text)
            os.chmod(temp, 0o644)
            os.replace(temp, path)  # atomic: a run starting meanwhile reads the old file or the new one
    return folder


def clean_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment of a confined process: no tokens, keys or proxies from ours."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "TZ": "UTC"}
    env.update(extra or {})
    return env


def confined_argv(
    command: list[str], *, writable: Path | None, inside: str = "/work", limits: Limits = Limits(), scratch_mb: int = 64,
) -> list[str]:
    """`prlimit ... bwrap ... -- command`: run `command` with `writable` mounted at `inside` as its cwd; without
    `writable`, a fresh tmpfs of `scratch_mb` MiB there (a total quota: writing past it fails with ENOSPC)."""
    prlimit = [
        "prlimit", f"--nproc={limits.processes}", f"--as={limits.memory_mb << 20}",
        f"--fsize={limits.file_mb << 20}", "--core=0",
    ]
    if limits.cpu_s:
        prlimit.append(f"--cpu={limits.cpu_s}")
    return [*prlimit, "--", "bwrap", *_bwrap_options(writable, inside, scratch_mb), "--", *command]


def popen(
    command: list[str], *, writable: Path | None, inside: str, user: RunUser, limits: Limits = Limits(), scratch_mb: int = 64,
    **kwargs,
) -> subprocess.Popen:
    """Start `command` confined, as `user`; bwrap reads its options from a pipe (`--args`), so not even the
    sandbox's own `/proc/1/cmdline` shows a host path. `kwargs` go to `subprocess.Popen` (env defaults to
    `clean_env()`)."""
    argv = confined_argv(command, writable=writable, inside=inside, limits=limits, scratch_mb=scratch_mb)
    start, end = argv.index("bwrap") + 1, len(argv) - len(command) - 1
    read, write = os.pipe()
    try:
        os.write(write, b"".join(arg.encode() + b"\0" for arg in argv[start:end]))  # far below a pipe's 64 KiB
        os.close(write)
        kwargs.setdefault("env", clean_env())
        return subprocess.Popen([*user.argv(), *argv[:start], "--args", str(read), *argv[end:]], pass_fds=(read,), **kwargs)
    finally:
        os.close(read)


def _bwrap_options(writable: Path | None, inside: str, scratch_mb: int) -> list[str]:
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
             *(["--bind", str(writable), inside] if writable is not None else
               ["--size", str(scratch_mb << 20), "--perms", "0700", "--tmpfs", inside]),
             "--chdir", inside, "--setenv", "HOME", inside]
    return argv
