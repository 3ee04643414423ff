"""Confinement cost: verifier-run p50 and shell-step p50, unconfined and confined (bubblewrap), side by side in one run. Targets: bench/targets.py (the verifier run's: the design's)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bench.runtime import NOTES_FIXTURE, _ms, _timed, bench_task
from bench.targets import SHELL_STEP_P50, VERIFIER_P50
from runtime.sandbox import run_verifier
from contracts.scoring import Final
from runtime import confine
from runtime.manager import EnvironmentManager, Lease, SessionSpec

_VERIFIER = (
    "def verify(final):\n"
    "    notes = final.state['notes']['note']\n"
    "    return {'answered': final.answer == 'done', 'kept': len(notes) == len(final.initial_state['notes']['note'])}\n"
)


def _final(rows: int) -> Final:
    dump = {"note": [{"id": i, "title": f"Note {i}", "body": "x" * 200, "pinned": i % 7 == 0} for i in range(rows)]}
    return Final(state={"notes": dump}, initial_state={"notes": dump}, answer="done", files={"a.txt": "hello\n"})


def _measure(runs: int, rows: int, session, command: str) -> dict[str, float]:
    final = _final(rows)
    run_verifier(_VERIFIER, final)  # warm caches: not timed
    verifier = _timed(lambda: run_verifier(_VERIFIER, final), runs)
    alone = _timed(lambda: session._workspace.run(command), runs)
    step = _timed(lambda: session.step(f"shell({command!r})"), runs)
    return {"verifier_p50_ms": _ms(verifier, 0.5), "verifier_p99_ms": _ms(verifier, 0.99),
            "shell_command_p50_ms": _ms(alone, 0.5), "shell_step_p50_ms": _ms(step, 0.5),
            "shell_step_p99_ms": _ms(step, 0.99)}


def main(
    runs: Annotated[int, typer.Option(help="Timed runs of each kind, per mode.")] = 40,
    rows: Annotated[int, typer.Option(help="Rows in the verifier's state dump.")] = 200,
    command: Annotated[str, typer.Option(help="The shell command each step runs.")] = "ls -la; cat a.txt 2>/dev/null; echo ok",
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
) -> None:
    confine.require()
    console = Console()
    task = bench_task(NOTES_FIXTURE).model_copy(update={"files": {"a.txt": "hello\n"}})
    shots = tempfile.TemporaryDirectory(prefix="gym-bench-shots-")
    with shots, EnvironmentManager(screenshots=shots.name) as manager:
        session = manager.request(SessionSpec.for_task(task, screenshots=False), Lease(seconds=900))
        session.reset(task)
        with confine.unconfined_for_benchmark():
            before = _measure(runs, rows, session, command)
        after = _measure(runs, rows, session, command)
        session.close()
    result = {"runs": runs, "rows": rows, "unconfined": before, "confined": after}
    table = Table(title="gymfactory sandbox: what confinement costs")
    for col in ("measure", "unconfined", "confined (bwrap)", "target"):
        table.add_column(col)
    targets = {"verifier_p50_ms": VERIFIER_P50, "shell_step_p50_ms": SHELL_STEP_P50}
    for key in before:
        table.add_row(key.replace("_ms", " (ms)").replace("_", " "), f"{before[key]}", f"{after[key]}", targets[key].marked(after[key]) if key in targets else "")
    console.print(table)
    if out:
        out.write_text(json.dumps(result, indent=2))
