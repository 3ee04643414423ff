"""The desktop `shell(...)` action: a command in the session's workspace folder, with a timeout and no network."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
from pathlib import Path

from pydantic import BaseModel, ConfigDict

MAX_OUTPUT = 8000
MAX_FILE_BYTES = 1_000_000
_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy")


class WorkspaceError(ValueError):
    """A task file path that would land outside the workspace."""


class ShellResult(BaseModel):
    """What a shell command printed (stdout and stderr together) and how it ended."""

    model_config = ConfigDict(frozen=True)

    output: str
    returncode: int | None
    error: str | None = None


@functools.cache
def _unshare() -> list[str]:
    """`unshare -n` (a network namespace with only a down loopback) when we may, else nothing."""
    path = shutil.which("unshare")
    if path is None or os.geteuid() != 0:
        return []
    probe = subprocess.run([path, "-n", "true"], capture_output=True, timeout=10)
    return [path, "-n"] if probe.returncode == 0 else []


def _env(workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in _PROXY_VARS and not k.startswith(("GYMFACTORY", "OPENAI", "ANTHROPIC"))}
    env.update(HOME=str(workspace), PWD=str(workspace), TMPDIR=str(workspace / ".tmp"))
    return env


def run_shell(command: str, workspace: Path, timeout_s: float = 10.0) -> ShellResult:
    """Run `command` with bash in `workspace` (cwd and HOME), cut off after `timeout_s`."""
    workspace = Path(workspace)
    (workspace / ".tmp").mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [*_unshare(), "bash", "-c", command],
        cwd=workspace,
        env=_env(workspace),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        text = _clip(out)
        return ShellResult(output=text, returncode=None, error=f"command timed out after {timeout_s:g}s\n{text}".strip())
    text = _clip(out)
    error = f"command failed with exit code {proc.returncode}\n{text}".strip() if proc.returncode else None
    return ShellResult(output=text, returncode=proc.returncode, error=error)


def _clip(raw: bytes) -> str:
    text = raw.decode(errors="replace")
    return text if len(text) <= MAX_OUTPUT else text[: MAX_OUTPUT // 2] + "\n…\n" + text[-MAX_OUTPUT // 2 :]


def write_files(workspace: Path, files: dict[str, str]) -> None:
    """Empty the workspace and write the task's files into it."""
    workspace = Path(workspace)
    if workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True)
    root = workspace.resolve()
    for rel, text in files.items():
        path = (root / rel).resolve()
        if not path.is_relative_to(root) or path == root:
            raise WorkspaceError(f"task file {rel!r} is outside the workspace")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def read_files(workspace: Path) -> dict[str, str]:
    """Every text file in the workspace (relative path -> text), for the verifier; binary and huge files skipped."""
    root = Path(workspace)
    out: dict[str, str] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".tmp" or not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            out[rel.as_posix()] = path.read_text()
        except UnicodeDecodeError:
            continue  # binary files are not text the verifier can read
    return out
