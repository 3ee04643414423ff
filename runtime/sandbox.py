"""Run untrusted Python (verifier and golden code) in a confined child process (DESIGN.md Contract 3).

The boundary is the operating system: the child (`_sandbox_child.py`, run as `python3 -s -S -B -P -c
...` in an environment of ours alone) starts inside bubblewrap (`runtime.confine`) as an unprivileged uid
with its own user, pid, network and mount namespaces, no capabilities, a process-count limit, and only a
fresh scratch folder writable (`/scratch`, a tmpfs of `scratch_mb`: a total quota, so one verifier cannot
fill the host's disk); it sees the system's `/usr` and nothing else of this machine, and its whole
process tree dies with it at the deadline. Its hash seed is fixed (PYTHONHASHSEED) and, given the task's
clock, every wall-clock reading in it returns that virtual time: a verdict cannot depend on the process
or the day it runs in. Inside, the child adds rlimits and an audit hook
that ends it on network use, subprocesses, ctypes or writes outside the scratch folder: a second
layer that turns naive misuse into a clear `forbidden` error, not the boundary. The verifier gets
its `final` data as input on a pipe, never by reading files. Parent and child speak JSON lines over
pipes; the child may call back into the parent (`handler`), which is how golden code's
`env.click(...)` reaches the real browser.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from contracts.scoring import Final
from runtime import confine

ErrorKind = Literal["timeout", "crash", "forbidden", "memory", "bad_output"]
Handler = Callable[[str, list, dict], Any]

_CHILD_SOURCE = (Path(__file__).with_name("_sandbox_child.py")).read_text()
_CHILD_ENV_KEEP = ("LANG", "LC_ALL")
_CHILD_FLAGS = ("-s", "-S", "-B", "-P")  # not -I/-E: those would ignore PYTHONHASHSEED; the environment is ours alone
HASH_SEED = "0"


class SandboxLimits(BaseModel):
    """Resource limits of one sandboxed run."""

    model_config = ConfigDict(frozen=True)

    timeout_s: float = Field(default=10.0, gt=0, description="Wall-clock deadline, handler calls included.")
    cpu_s: float | None = Field(default=None, gt=0, description="CPU seconds (RLIMIT_CPU); default: timeout_s.")
    memory_mb: int = Field(default=1024, ge=64, description="Address-space limit (RLIMIT_AS) in MiB.")
    file_mb: int = Field(default=64, ge=1, description="Largest file the child may write (RLIMIT_FSIZE), MiB.")
    scratch_mb: int = Field(default=256, ge=1, description="All the child may write in its scratch folder together (a tmpfs when confined), MiB.")
    max_message_mb: int = Field(default=64, ge=1, description="Largest protocol message from the child, MiB.")
    netns: bool = Field(default=True, description="Unconfined as root, also unshare the network namespace.")
    processes: int = Field(default=16, ge=2, description="Processes the run's uid may have at once (RLIMIT_NPROC).")
    audit: bool = Field(default=True, description="The in-process audit hook (second layer); off only to test the OS boundary alone.")


class SandboxResult(BaseModel):
    """What the sandboxed entry function returned, or why it did not."""

    model_config = ConfigDict(frozen=True)

    value: Any = Field(default=None, description="The entry function's return value (JSON data).")
    error_kind: ErrorKind | None = Field(default=None, description="None when the run succeeded.")
    error: str | None = Field(default=None, description="What went wrong, e.g. a traceback tail.")
    seconds: float = Field(description="Wall-clock time of the whole run.")

    @property
    def ok(self) -> bool:
        return self.error_kind is None


class SandboxError(RuntimeError):
    """The sandbox itself could not run (not the untrusted code's fault)."""


class SandboxCallError(Exception):
    """Raised by a handler to send an error back to the sandboxed code (as `RemoteError`), not to abort."""


class _Failed(Exception):
    def __init__(self, kind: ErrorKind, error: str):
        super().__init__(error)
        self.kind, self.error = kind, error


def run_sandboxed(
    source: str,
    entry: str,
    arg: dict[str, Any] | None = None,
    *,
    limits: SandboxLimits = SandboxLimits(),
    handler: Handler | None = None,
    filename: str = "<sandboxed>",
    repeat: int = 1,
    clock: str | None = None,
) -> SandboxResult:
    """Exec `source` in a confined child and return `entry(obj)`.

    `obj` exposes the keys of `arg` as attributes (and items). With a `handler`, any other method
    call `obj.name(*args, **kwargs)` becomes `handler(name, args, kwargs)` in this process; its
    JSON return value is returned in the child, a `SandboxCallError` is raised there as
    `RemoteError`, and any other exception kills the child and propagates here. With `repeat` > 1
    the entry is called that many times in the same child, each on a fresh copy of `arg`, and the
    value is the list of results (a cheap determinism check: one process start, not several). With a
    `clock` (ISO-8601, the task's virtual time; naive means UTC), `datetime.now()`, `date.today()`,
    `time.time()` and the like return that instant in the child.
    """
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    started = time.monotonic()
    deadline = started + limits.timeout_s
    stderr = tempfile.TemporaryFile(prefix="gf-sandbox-err-")
    job = {
        "scratch": "/scratch",
        "source": source,
        "entry": entry,
        "filename": filename,
        "arg": arg,
        "remote": handler is not None,
        "repeat": repeat,
        "clock": clock,
        "limits": {"memory_mb": limits.memory_mb, "cpu_s": limits.cpu_s or limits.timeout_s,
                   "file_mb": limits.file_mb, "netns": limits.netns, "audit": limits.audit},
    }
    try:
        proc, user, scratch = _start_child(job, limits, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                           start_new_session=True, close_fds=True)
    except OSError as exc:
        stderr.close()
        raise SandboxError(f"cannot start the sandbox child: {exc}") from exc
    channel = _Channel(proc, deadline, limits.max_message_mb * 1024 * 1024)
    try:
        try:
            channel.send(job)
            value, kind, error = channel.serve(handler), None, None
        except _Failed as failed:
            value, kind, error = None, failed.kind, failed.error
        except _ChildGone:
            value = None
            kind, error = _classify_exit(proc, stderr)
    finally:
        channel.close()
        _kill_group(proc)
        if user is not None:
            user.kill_all()  # whatever a kill in bwrap's first milliseconds left of the run
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        stderr.close()
    if kind == "timeout" and error is None:
        error = f"deadline of {limits.timeout_s:g} s passed; process group killed"
    return SandboxResult(value=value, error_kind=kind, error=error, seconds=time.monotonic() - started)


def _start_child(job: dict, limits: SandboxLimits, **streams) -> tuple[subprocess.Popen, "confine.RunUser | None", str | None]:
    """Start the child: confined by bubblewrap unless the user opted out.

    Confined, the child's scratch folder is a fresh tmpfs of `limits.scratch_mb` at `/scratch` (the only
    writable path), the system's `/usr` read-only and nothing else; it runs as an unprivileged uid with a
    process-count limit. Unconfined (the user's opt-out), it gets a host folder (returned, for removal)
    and no quota but RLIMIT_FSIZE.
    """
    if confine.require():
        user = confine.RunUser.fresh()
        job["limits"]["netns"] = False  # bwrap already gave the child a network namespace of its own
        proc = confine.popen(
            [confine.CONFINED_PYTHON, *_CHILD_FLAGS, "-c", _CHILD_SOURCE], writable=None, inside="/scratch",
            user=user, limits=confine.Limits(processes=limits.processes, memory_mb=limits.memory_mb + 256, file_mb=limits.file_mb),
            scratch_mb=limits.scratch_mb, env=confine.clean_env({"TMPDIR": "/scratch", "PYTHONHASHSEED": HASH_SEED}),
            cwd="/", **streams,
        )
        return proc, user, None
    scratch = job["scratch"] = tempfile.mkdtemp(prefix="gf-sandbox-")
    env = {k: os.environ[k] for k in _CHILD_ENV_KEEP if k in os.environ}
    env.update(PATH="/usr/bin:/bin", HOME=scratch, TMPDIR=scratch, PYTHONIOENCODING="utf-8", TZ="UTC", PYTHONHASHSEED=HASH_SEED)
    try:
        return subprocess.Popen([sys.executable, *_CHILD_FLAGS, "-c", _CHILD_SOURCE], env=env, cwd=scratch, **streams), None, scratch
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


class _ChildGone(Exception):
    """The child closed its pipes without a final message."""


class _Channel:
    """JSON lines to and from the child, every read bounded by the deadline."""

    def __init__(self, proc: subprocess.Popen, deadline: float, max_bytes: int):
        self._proc, self._deadline, self._max = proc, deadline, max_bytes
        self._buffer = bytearray()
        self._selector = selectors.DefaultSelector()
        self._selector.register(proc.stdout, selectors.EVENT_READ)

    def close(self) -> None:
        self._selector.close()

    def send(self, message: dict) -> None:
        try:
            self._proc.stdin.write((json.dumps(message) + "\n").encode())
            self._proc.stdin.flush()
        except BrokenPipeError as exc:
            raise _ChildGone() from exc

    def serve(self, handler: Handler | None) -> Any:
        """Answer the child's calls until it sends its result; raise _Failed/_ChildGone otherwise."""
        while True:
            message = self._receive()
            kind = message.get("t")
            if kind == "result":
                return message.get("value")
            if kind == "error":
                raise _Failed(message.get("kind", "crash"), str(message.get("error")))
            if kind == "call" and handler is not None:
                self.send(self._answer(handler, message))
                continue
            raise _Failed("bad_output", f"unexpected message from the sandbox: {str(message)[:200]}")

    @staticmethod
    def _answer(handler: Handler, message: dict) -> dict:
        try:
            value = handler(str(message.get("name")), list(message.get("args") or []), dict(message.get("kwargs") or {}))
        except SandboxCallError as exc:
            return {"ok": False, "error": str(exc)}
        return {"ok": True, "value": value}

    def _receive(self) -> dict:
        while b"\n" not in self._buffer:
            remaining = self._deadline - time.monotonic()
            if remaining <= 0 or not self._selector.select(remaining):
                raise _Failed("timeout", None)  # type: ignore[arg-type]
            chunk = os.read(self._proc.stdout.fileno(), 1 << 20)
            if not chunk:
                raise _ChildGone()
            self._buffer += chunk
            if len(self._buffer) > self._max:
                raise _Failed("bad_output", f"the sandbox sent more than {self._max} bytes in one message")
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer = bytearray(rest)
        try:
            message = json.loads(line)
        except ValueError as exc:
            raise _Failed("bad_output", f"unreadable message from the sandbox: {exc}") from exc
        if not isinstance(message, dict):
            raise _Failed("bad_output", "unreadable message from the sandbox")
        return message


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole process group (before reaping, so the group id cannot be reused)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for pipe in (proc.stdin, proc.stdout):
        try:
            pipe.close()
        except BrokenPipeError:
            pass
    proc.wait()


def _classify_exit(proc: subprocess.Popen, stderr) -> tuple[ErrorKind, str]:
    """Why a child ended without a final message, from its exit status and stderr tail."""
    try:
        code = proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        code = None
    stderr.seek(0, os.SEEK_END)
    stderr.seek(max(0, stderr.tell() - 2000))
    tail = stderr.read().decode("utf-8", "replace").strip()
    if code is not None and code > 128:  # bwrap reports a child killed by signal N as 128 + N
        code = 128 - code
    if code is not None and code < 0:
        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        if -code == signal.SIGXCPU or -code == signal.SIGKILL and "CPU" in tail:
            return "timeout", f"CPU limit reached ({sig})"
        if "MemoryError" in tail:
            return "memory", f"memory limit reached ({sig}): {tail[-500:]}"
        return "crash", f"killed by {sig}" + (f": {tail}" if tail else "")
    if "MemoryError" in tail:
        return "memory", f"memory limit reached: {tail[-500:]}"
    return "crash", f"exited with status {code} without a result" + (f": {tail}" if tail else "")


class VerifierRun(BaseModel):
    """The verdicts of one verifier run, or why there are none."""

    model_config = ConfigDict(frozen=True)

    verdicts: dict[str, bool] | None = Field(default=None, description="Criterion id -> met; None on error.")
    error: str | None = Field(default=None, description="Why the verifier gave no verdicts.")
    error_kind: ErrorKind | None = Field(default=None, description="timeout | crash | forbidden | memory | bad_output.")
    seconds: float = Field(description="Wall-clock time of the run.")
    repeats: tuple[dict[str, bool], ...] = Field(default=(), description="Every call's verdicts when run with repeats > 1.")

    @property
    def consistent(self) -> bool:
        """Whether every repeated call gave the same verdicts."""
        return all(r == self.verdicts for r in self.repeats)


def run_verifier(
    source: str, final: Final, *, timeout_s: float = 10.0, memory_mb: int = 1024, repeats: int = 1, clock: str | None = None,
) -> VerifierRun:
    """Run a task's `verify(final)` sandboxed; the verdicts must be a dict of str -> bool.

    With `repeats` > 1, verify() is called that many times (fresh data each time, one child, a
    deadline of `timeout_s` per call); `verdicts` is the first call's and `repeats` holds them all.
    `clock` is the task's virtual time (`task.clock`): the verifier's wall clock reads it.
    """
    result = run_sandboxed(
        source, "verify", final.model_dump(mode="json"), repeat=repeats,
        limits=SandboxLimits(timeout_s=timeout_s * repeats, memory_mb=memory_mb), filename="<verifier>", clock=clock,
    )
    if not result.ok:
        return VerifierRun(error=f"{result.error_kind}: {result.error}", error_kind=result.error_kind, seconds=result.seconds)
    calls = result.value if repeats > 1 else [result.value]
    for verdicts in calls:
        if not isinstance(verdicts, dict) or not all(isinstance(v, bool) for v in verdicts.values()):
            shown = repr(verdicts)[:200]
            return VerifierRun(error=f"bad_output: verify() must return a dict of criterion id -> bool, got {shown}",
                               error_kind="bad_output", seconds=result.seconds)
    return VerifierRun(verdicts=calls[0], seconds=result.seconds, repeats=tuple(calls) if repeats > 1 else ())


_VERIFY_MANY = '''

def _gf_verify_many(job, _verify=verify):  # verify as defined: a verifier that rebinds it while running changes nothing
    import json
    import traceback

    class _Final:
        """One final, read-only, as attributes and items (like the sandbox's own argument)."""

        __slots__ = ("_d",)

        def __init__(self, data):
            object.__setattr__(self, "_d", data)

        def __getattr__(self, name):
            try:
                return object.__getattribute__(self, "_d")[name]
            except KeyError:
                raise AttributeError(name) from None

        def __getitem__(self, key):
            return object.__getattribute__(self, "_d")[key]

        def __setattr__(self, name, value):
            raise AttributeError("read-only")

    out = []
    for raw in job.finals:
        try:
            out.append({"verdicts": _verify(_Final(json.loads(json.dumps(raw))))})
        except Exception as exc:
            out.append({"error": "".join(traceback.format_exception_only(type(exc), exc)).strip()[-500:]})
    return out
'''


def verify_many(source: str, finals: list[Final], *, timeout_s: float, clock: str | None = None) -> SandboxResult:
    """A task's `verify` on many finals in ONE confined child (one process start for the batch).

    The value is a list, one entry per final in order: `{"verdicts": ...}` as verify() returned them
    (unchecked), or `{"error": ...}` when it raised on that final; the others still run. `timeout_s`
    bounds the whole batch. Probes and recall variants run this way.
    """
    return run_sandboxed(source + _VERIFY_MANY, "_gf_verify_many", {"finals": [f.model_dump(mode="json") for f in finals]},
                         limits=SandboxLimits(timeout_s=timeout_s), filename="<verifier>", clock=clock)
