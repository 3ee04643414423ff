"""The desktop `shell(...)` action: a confined command in the session's workspace folder.

A `Workspace` is one session's folder plus the unprivileged uid that owns it. Each command runs
through `runtime.confine` (bubblewrap): the workspace mounted at `/workspace` is the only thing of this
machine it can see or write; no network, no app state, no task file, no other workspace, and its
whole process tree is killed when the command ends or times out. The workspace has a size cap; a
command that grows it past the cap is stopped, and the attempt then fails on the system criterion
`workspace_within_limits` (the agent's failure, never an env_error). The verifier reads the
workspace through `read_files`, bounded in total, so no workspace can make it time out.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from runtime import confine

MAX_OUTPUT = 8000
MAX_FILE_BYTES = 1_000_000
MAX_WORKSPACE_BYTES = 64 << 20
MAX_WORKSPACE_FILES = 2000
MAX_READ_BYTES = 8 << 20
WORKSPACE_CRITERION = "workspace_within_limits"
INSIDE = "/workspace"
_POLL_S = 0.05  # how often a running command's workspace is measured: what it can write past the cap in one interval
_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy")


class WorkspaceError(ValueError):
    """A task file path that would land outside the workspace."""


class ShellResult(BaseModel):
    """What a shell command printed (stdout and stderr together) and how it ended."""

    model_config = ConfigDict(frozen=True)

    output: str
    returncode: int | None
    error: str | None = None


class Usage(BaseModel):
    """How much of its cap a workspace uses; counting stops once past the cap."""

    model_config = ConfigDict(frozen=True)

    bytes: int
    files: int

    @property
    def over(self) -> bool:
        return self.bytes > MAX_WORKSPACE_BYTES or self.files > MAX_WORKSPACE_FILES


def usage(root: Path) -> Usage:
    """Bytes and entries under `root` (symlinks not followed), stopping early once past the cap."""
    total = files = 0
    stack = [str(root)]
    while stack:
        try:
            entries = os.scandir(stack.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                files += 1
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    else:
                        total += entry.stat(follow_symlinks=False).st_size
                except OSError:
                    continue
                if total > MAX_WORKSPACE_BYTES or files > MAX_WORKSPACE_FILES:
                    return Usage(bytes=total, files=files)
    return Usage(bytes=total, files=files)


class Workspace:
    """One session's folder, the uid that owns it, and the confined commands run in it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.user = confine.RunUser.fresh()
        self.overflowed = False

    def fill(self, files: dict[str, str]) -> None:
        """Empty the workspace, write the task's files into it and hand it to the session's uid."""
        write_files(self.path, files)
        self.overflowed = False
        self.user.own(self.path)
        blocked = confine.unreachable_parent(self.path)
        if blocked is not None and confine.available():
            raise WorkspaceError(f"workspace {self.path} is unreachable for the confined shell: {blocked} is not "
                                 "searchable by other users (chmod o+x it, or put the workspace root elsewhere)")

    def run(self, command: str, timeout_s: float = 10.0) -> ShellResult:
        """Run `command` with bash in the workspace; stopped at `timeout_s` or when the workspace passes its cap."""
        if self.overflowed:
            return ShellResult(output="", returncode=None, error=self._overflow_message())
        confined = confine.require()
        with tempfile.TemporaryFile(prefix="gf-shell-") as out:
            streams = {"cwd": self.path, "stdin": subprocess.DEVNULL, "stdout": out, "stderr": subprocess.STDOUT,
                       "start_new_session": True}
            if confined:
                proc = confine.popen(["bash", "-c", command], writable=self.path, inside=INSIDE, user=self.user,
                                     env=confine.clean_env({"TMPDIR": f"{INSIDE}/.tmp"}), **streams)
            else:
                proc = subprocess.Popen([*_unshare(), "bash", "-c", command], env=_unconfined_env(self.path), **streams)
            timed_out = self._wait(proc, timeout_s)
            out.seek(0)
            text = _clip(out.read(4 * MAX_OUTPUT + 4))
        if self.overflowed:
            return ShellResult(output=text, returncode=None, error=f"{self._overflow_message()}\n{text}".strip())
        if timed_out:
            return ShellResult(output=text, returncode=None, error=f"command timed out after {timeout_s:g}s\n{text}".strip())
        error = f"command failed with exit code {proc.returncode}\n{text}".strip() if proc.returncode else None
        return ShellResult(output=text, returncode=proc.returncode, error=error)

    def files(self) -> dict[str, str] | None:
        """The workspace's text files for the verifier, or None when the workspace is past its cap."""
        if self.overflowed or usage(self.path).over:
            self.overflowed = True
            return None
        return read_files(self.path)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def _wait(self, proc: subprocess.Popen, timeout_s: float) -> bool:
        """Wait for the command, watching the workspace size; kill the whole tree on either limit. True if timed out."""
        waited = 0.0
        while True:
            step = min(_POLL_S, timeout_s - waited)
            try:
                proc.wait(timeout=max(step, 0.001))
                break
            except subprocess.TimeoutExpired:
                waited += step
            if usage(self.path).over:
                self.overflowed = True
                _kill(proc)
                self.user.kill_all()
                return False
            if waited >= timeout_s:
                _kill(proc)
                self.user.kill_all()  # what bwrap's --die-with-parent may not have armed yet (confine.RunUser.kill_all)
                return True
        if usage(self.path).over:
            self.overflowed = True
        return False

    @staticmethod
    def _overflow_message() -> str:
        return (f"the workspace is over its limit of {MAX_WORKSPACE_BYTES >> 20} MiB or {MAX_WORKSPACE_FILES} files; "
                "the command was stopped and this attempt fails")


def _kill(proc: subprocess.Popen) -> None:
    """SIGKILL the command's process group; bwrap's death takes the confined tree with it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


@functools.cache
def _unshare() -> list[str]:
    """Unconfined (the user's explicit opt-out): `unshare -n` when we may, else nothing."""
    path = shutil.which("unshare")
    if path is None or os.geteuid() != 0:
        return []
    probe = subprocess.run([path, "-n", "true"], capture_output=True, timeout=10)
    return [path, "-n"] if probe.returncode == 0 else []


def _unconfined_env(workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in _PROXY_VARS and not k.startswith(("GYMFACTORY", "OPENAI", "ANTHROPIC"))}
    env.update(HOME=str(workspace), PWD=str(workspace), TMPDIR=str(workspace / ".tmp"))
    return env


def _clip(raw: bytes) -> str:
    text = raw.decode(errors="replace")
    return text if len(text) <= MAX_OUTPUT else text[: MAX_OUTPUT // 2] + "\n…\n" + text[-MAX_OUTPUT // 2 :]


def write_files(workspace: Path, files: dict[str, str]) -> None:
    """Empty the workspace and write the task's files into it."""
    workspace = Path(workspace)
    if workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True)
    (workspace / ".tmp").mkdir()
    root = workspace.resolve()
    for rel, text in files.items():
        path = (root / rel).resolve()
        if not path.is_relative_to(root) or path == root:
            raise WorkspaceError(f"task file {rel!r} is outside the workspace")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def read_files(workspace: Path, max_total: int = MAX_READ_BYTES) -> dict[str, str]:
    """Text files in the workspace (relative path -> text), at most `max_total` bytes in all; binary and huge files skipped."""
    root = Path(workspace)
    out: dict[str, str] = {}
    if not root.is_dir():
        return out
    total = 0
    for path in _walk(root):
        rel = path.relative_to(root)
        if rel.parts[0] == ".tmp":
            continue
        size = path.stat(follow_symlinks=False).st_size
        if size > MAX_FILE_BYTES or total + size > max_total:
            continue
        try:
            out[rel.as_posix()] = path.read_text()
        except UnicodeDecodeError:
            continue  # binary files are not text the verifier can read
        total += size
    return out


def _walk(root: Path) -> list[Path]:
    """Regular files under `root` in sorted order; symlinks are never followed or read."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in names:
            path = Path(folder, name)
            if not path.is_symlink() and path.is_file():
                found.append(path)
    return sorted(found)
