"""Ctrl-C for `gymfactory run`: stop at once, say what was kept and how to resume.

Left to itself, a SIGINT becomes a KeyboardInterrupt that Prefect reports to its server; the temporary
server got the same SIGINT (one process group) and is gone, so the report is retried for minutes and
ends in hundreds of lines of tracebacks. Instead the first Ctrl-C prints one line, silences this
process, stops every process it started (temporary Prefect server, app servers, browser, sandboxes)
and exits 130; a second Ctrl-C exits at once. Nothing half-written looks finished: a stage counts as
done only by its marker, which is written (atomically) after the stage's outputs, so the rerun redoes
the interrupted stage and skips the finished ones.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ORDER = ("worlds", "synthesize", "validate", "review", "rollouts", "train", "rollouts_trained", "dataset")


def kept(out: Path) -> str:
    """What a rerun will reuse from `out`: its finished stages and validation verdicts."""
    root = Path(out)
    stages = sorted((p.stem for p in (root / "stages").glob("*.json")), key=lambda s: ORDER.index(s) if s in ORDER else len(ORDER))
    parts = [f"finished stages: {', '.join(stages)}" if stages else "no finished stage"]
    verdicts = root / "tasks" / "validation.jsonl"
    count = sum(1 for line in verdicts.read_bytes().splitlines() if line.strip()) if verdicts.is_file() else 0
    if count and "validate" not in stages:
        parts.append(f"{count} validation verdicts")
    return "; ".join(parts)


def resume_command(argv: list[str]) -> str:
    """The command that resumes: the same one (same --out), less --fresh, which would start over."""
    return shlex.join(["gymfactory", *(a for a in argv if a != "--fresh")])


def _descendants(root: int) -> list[int]:
    """Every live process below `root` (from /proc), children before grandchildren."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended while we looked
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(0), []):
            found.append(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop_descendants(grace_s: float) -> None:
    """SIGTERM every process this one started, then SIGKILL whatever still runs after `grace_s`.

    Worker threads go on while we wait and may start more (an app server, a sandbox), so the tree is
    read again on every pass; a process seen once is killed even if its parent died and it moved to init.
    """
    seen: set[int] = set()
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        fresh = [p for p in _descendants(os.getpid()) if p not in seen]
        for pid in fresh:
            _signal(pid, signal.SIGTERM)
        seen.update(fresh)
        if not any(_alive(p) for p in seen):
            return
        time.sleep(0.05)
    for _ in range(3):  # a last sweep, for whatever the workers started meanwhile
        seen.update(_descendants(os.getpid()))
        for pid in seen:
            if _alive(pid):
                _signal(pid, signal.SIGKILL)
        time.sleep(0.05)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


class CtrlC:
    """Installs the SIGINT and SIGTERM handling of one `gymfactory run` or `loop` (call `install()` in the main thread).

    SIGTERM is what a service manager, a batch scheduler's preemption or a container's stop sends: it stops
    the run the way the first Ctrl-C does (children stopped, everything finished kept for the resume), with
    the shell's code for it, 143.
    """

    def __init__(self, message: Callable[[], str], grace_s: float = 2.0, scratch: Path | None = None):
        self.message, self.grace_s, self.scratch = message, grace_s, scratch

    def install(self) -> None:
        signal.signal(signal.SIGINT, self._first)
        signal.signal(signal.SIGTERM, self._first)

    def _first(self, signum, frame) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._again)
        said = "Interrupted" if signum == signal.SIGINT else f"Stopped by {signal.Signals(signum).name}"
        os.write(2, f"\n{said}. {self.message()}\n".encode())
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):  # the rest of this process's dying words (progress bars, Prefect's crash reports)
            os.dup2(devnull, fd)
        stop_descendants(self.grace_s)
        if self.scratch is not None:  # the run's temporary folders: nothing is left to close them
            shutil.rmtree(self.scratch, ignore_errors=True)
        os._exit(128 + signum)

    @staticmethod
    def _again(signum, frame) -> None:
        """A second Ctrl-C (or SIGTERM): no more waiting; SIGKILL what is left and go."""
        for pid in _descendants(os.getpid()):
            _signal(pid, signal.SIGKILL)
        os._exit(128 + signum)


def on_ctrl_c(out: Path, scratch: Path | None = None, argv: list[str] | None = None,
              describe: Callable[[Path], str] = kept) -> CtrlC:
    """The handler of `gymfactory run --out OUT ...` (and `loop`): its one line names what was kept (`describe(out)`)
    and the resume command; `scratch` (the run's temporary folder) is removed once every process is stopped."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return CtrlC(lambda: f"Kept in {out}: {describe(out)}. Resume with: {resume_command(argv)}", scratch=scratch)


def loop_kept(out: Path) -> str:
    """What a rerun of `gymfactory loop` reuses: the files of OUT/loop (its task pool, attempts, rounds, checkpoints)."""
    folder = Path(out) / "loop"
    names = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    return f"loop/{{{','.join(names)}}}" if names else "nothing yet"


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """One temporary folder for the whole run (TMPDIR of this process and of every process it starts), removed at
    the end, so app data, workspaces and browser profiles never outlive the run, even after a Ctrl-C."""
    folder = Path(tempfile.mkdtemp(prefix="gym-run-"))
    folder.chmod(0o711)  # confined code runs as another uid: it must reach the folders made for it here
    previous = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = str(folder), str(folder)
    try:
        yield folder
    finally:
        if previous[0] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = previous[0]
        tempfile.tempdir = previous[1]
        shutil.rmtree(folder, ignore_errors=True)
