"""Runtime speed: reset-to-task and step p50/p99 (screenshot + accessibility tree included), aggregate steps/s at several concurrencies, and re-prefilled prompt tokens of a 30-step episode, windowed vs last-k. Targets: bench/targets.py (the design's).

Reset is timed as attempts use it: after a short episode, in a session that prepares its next start (SessionSpec.prepare),
and also cold: back to back, in a session that does not, where every reset loads its page itself."""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from contracts.task import Task
from bench.cputree import cpu_by_kind
from bench.targets import PREFILL_RATIO, RESET_P50, STEP_P50
from runtime.backends.local import LocalBackend
from runtime.manager import EnvironmentManager, Lease, SessionSpec

NOTES_FIXTURE = str(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "apps" / "notes")
EPISODE = ("click(3)", "scroll(0, 100)", "back()")  # the untimed steps between two timed resets
_TOKEN = re.compile(r"\w+|[^\w\s]")


def bench_task(app: str, form_factor: str = "desktop") -> Task:
    """A task on `app` whose verifier only reads the dump (speed is what is measured here)."""
    return Task(
        id="bench.runtime", apps=(app,), form_factor=form_factor, instruction="Look around, then answer done.",
        criteria=[{"id": "answered", "description": "the agent answered done"}],
        verifier="def verify(final):\n    return {'answered': final.answer == 'done'}\n",
        golden="def solve(env):\n    env.answer('done')\n", meta={"family": "bench.runtime", "provenance": "hand"},
    )


def _ms(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def _timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        began = time.perf_counter()
        fn()
        out.append(time.perf_counter() - began)
    return out


def _reset_after_episodes(session, task: Task, n: int) -> list[float]:
    """`n` resets, each after the same short episode (untimed), in a session that prepares its next start."""
    out = []
    for _ in range(n):
        for action in EPISODE:
            session.step(action)
        out += _timed(lambda: session.reset(task), 1)
    return out


def _cpu_ms(fn, n: int) -> tuple[list[float], float]:
    """What `fn` returns, and the CPU ms per call of this process and everything it started (browser, app servers)."""
    before = cpu_by_kind()
    out = fn()
    after = cpu_by_kind()
    return out, round(1000 * sum(after[k] - before[k] for k in after) / n, 1)


def _throughput(manager: EnvironmentManager, task: Task, sessions: int, steps: int, screenshots: bool) -> float:
    """Aggregate steps per second of `sessions` concurrent sessions, each taking `steps` navigating clicks."""
    total, began, ended = drive_sessions(manager, task, sessions, steps, screenshots)
    return total / (ended - began)


def drive_sessions(manager: EnvironmentManager, task: Task, sessions: int, steps: int, screenshots: bool) -> tuple[int, float, float]:
    """`sessions` concurrent sessions, reset (untimed), then `steps` navigating steps each: (steps, start, end), wall-clock time."""
    opened = [manager.request(SessionSpec.for_task(task, screenshots=screenshots), Lease(seconds=600)) for _ in range(sessions)]
    ready = threading.Barrier(sessions + 1)
    errors: list[BaseException] = []

    def drive(session):
        try:
            session.reset(task)
            ready.wait()
            for i in range(steps):
                session.step("click(1)" if i % 2 else "scroll(0, 200)")
        except threading.BrokenBarrierError:
            return  # another session failed to start; its error is reported
        except BaseException as err:  # reported after the run
            errors.append(err)
            ready.abort()  # never leave the others (or the timer) waiting on a session that will not come

    threads = [threading.Thread(target=drive, args=(s,)) for s in opened]
    [t.start() for t in threads]
    try:
        ready.wait()
    except threading.BrokenBarrierError:
        pass
    began = time.time()  # wall clock: windows of workers in other processes are compared
    [t.join() for t in threads]
    ended = time.time()
    for session in opened:
        session.close()
    if errors:
        raise errors[0]
    return sessions * steps, began, ended


def _prefill(manager: EnvironmentManager, task: Task, episode_steps: int) -> dict | None:
    """Re-prefilled prompt tokens over a real `episode_steps`-step episode, windowed vs last-k (R2's harness)."""
    try:
        from runtime.harness import Harness, prefill_tokens
    except ImportError:
        return None
    count = lambda text: len(_TOKEN.findall(text))  # noqa: E731 - a tokenizer-free word/punctuation count
    session = manager.request(SessionSpec.for_task(task), Lease(seconds=600))
    harness = Harness(task.instruction, task.form_factor, vision=True, images=manager.screenshots)
    obs = session.reset(task)
    script = ["click(3)", 'fill(4, "Draft")', "click(2)", "scroll(0, 300)", "click(5)", "back()"]
    for i in range(episode_steps):
        action = script[i % len(script)]
        harness.record(obs, f"Step {i}: the page shows what I need next, so I act.\n{action}")
        obs = session.step(action)
    session.close()
    out = {}
    for label, image_tokens in (("text", 0), ("vision", None)):
        kw = {} if image_tokens is None else {"image_tokens": image_tokens}
        window = prefill_tokens(harness, "window", count, **kw)
        last_k = prefill_tokens(harness, "last_k", count, **kw)
        out[label] = {"window": window, "last_k": last_k, "ratio": round(last_k / max(window, 1), 2)}
    return out


def main(
    resets: Annotated[int, typer.Option(help="Resets to time (one session, warm pool).")] = 40,
    steps: Annotated[int, typer.Option(help="Steps to time for each step kind.")] = 40,
    concurrency: Annotated[str, typer.Option(help="Comma-separated session counts for the throughput runs.")] = "1,4,8,16",
    steps_per_session: Annotated[int, typer.Option(help="Steps each session takes in a throughput run.")] = 20,
    episode_steps: Annotated[int, typer.Option(help="Length of the episode for prefill accounting.")] = 30,
    app: Annotated[str, typer.Option(help="App name or package folder; default: the notes fixture app.")] = NOTES_FIXTURE,
    form_factor: Annotated[str, typer.Option(help="desktop or mobile.")] = "desktop",
    out: Annotated[Path | None, typer.Option(help="Write the numbers as JSON here.")] = None,
    runner: Annotated[str, typer.Option(help="'local', or 'ray': also steps/s of Ray environment workers side by side.")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="With --runner ray: a cluster's HOST:PORT; default: a loopback cluster of its own.")] = None,
    ray_workers: Annotated[str, typer.Option(help="With --runner ray: comma-separated worker counts (one per node).")] = "1,2",
    ray_sessions: Annotated[str, typer.Option(help="With --runner ray: comma-separated sessions per worker.")] = "1,4",
) -> None:
    if runner not in ("local", "ray"):
        raise typer.BadParameter(f"--runner {runner}: 'local' or 'ray'")
    console = Console()
    task = bench_task(app, form_factor)
    levels = [int(c) for c in concurrency.split(",") if c.strip()]
    backend = LocalBackend(pool_size=max(levels + [4]))
    shots = tempfile.TemporaryDirectory(prefix="gym-bench-shots-")
    with shots, EnvironmentManager(backend=backend, screenshots=shots.name) as manager:
        backend.warm(app, None, None)
        session = manager.request(SessionSpec.for_task(task), Lease(seconds=600))
        session.reset(task)  # starts the server and the browser: not timed
        cold_s, cold_cpu = _cpu_ms(lambda: _timed(lambda: session.reset(task), resets), resets)
        session.close()
        session = manager.request(SessionSpec.for_task(task, prepare=True), Lease(seconds=600))
        session.reset(task)
        reset_s, episode_cpu = _cpu_ms(lambda: _reset_after_episodes(session, task, resets), resets)
        noop_s = _timed(lambda: session.step("wait(0)"), steps)
        click_s = _timed(lambda: session.step("click(1)"), steps)  # the app bar's brand link: a full page load
        fill_s = _timed(lambda: session.step("scroll(0, 100)"), steps)
        session.close()
        throughput = {c: round(_throughput(manager, task, c, steps_per_session, True), 1) for c in levels}
        prefill = _prefill(manager, task, episode_steps)
    on_ray = None
    if runner == "ray":  # after the local manager closed: its browser and servers no longer share the cores
        from bench.runtime_ray import ray_throughput

        on_ray = ray_throughput(task, ray_address, [int(w) for w in ray_workers.split(",")],
                                [int(s) for s in ray_sessions.split(",")], steps_per_session)
    result = {
        "app": app.rsplit("/", 1)[-1],
        "form_factor": form_factor,
        "reset_p50_ms": _ms(reset_s, 0.5), "reset_p99_ms": _ms(reset_s, 0.99),
        "reset_cold_p50_ms": _ms(cold_s, 0.5), "reset_cold_p99_ms": _ms(cold_s, 0.99),
        "reset_cold_cpu_ms": cold_cpu, "episode_cpu_ms": episode_cpu,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "step_noop_p50_ms": _ms(noop_s, 0.5), "step_noop_p99_ms": _ms(noop_s, 0.99),
        "step_click_p50_ms": _ms(click_s, 0.5), "step_click_p99_ms": _ms(click_s, 0.99),
        "step_scroll_p50_ms": _ms(fill_s, 0.5), "step_scroll_p99_ms": _ms(fill_s, 0.99),
        "steps_per_s": throughput,
        "prefill": prefill,
        "ray": on_ray,
    }
    table = Table(title=f"gymfactory runtime (load average {result['load_average_1m']} on {os.cpu_count()} cores)")
    for col in ("measure", "value", "target"):
        table.add_column(col)
    table.add_row(f"reset p50 / p99 (after a {len(EPISODE)}-step episode, next start prepared)",
                  f"{result['reset_p50_ms']} / {result['reset_p99_ms']} ms", RESET_P50.marked(result["reset_p50_ms"], "p50 "))
    table.add_row("reset p50 / p99 (cold: back to back, page loaded by the reset)",
                  f"{result['reset_cold_p50_ms']} / {result['reset_cold_p99_ms']} ms", RESET_P50.marked(result["reset_cold_p50_ms"], "p50 "))
    table.add_row("CPU per cold reset / per episode + prepared reset (all processes)",
                  f"{cold_cpu} / {episode_cpu} ms", "load-independent")
    for kind in ("noop", "click", "scroll"):
        table.add_row(f"step ({kind}) p50 / p99", f"{result[f'step_{kind}_p50_ms']} / {result[f'step_{kind}_p99_ms']} ms",
                      STEP_P50.marked(result[f"step_{kind}_p50_ms"], "p50 "))
    for c, rate in throughput.items():
        table.add_row(f"steps/s at concurrency {c}", f"{rate}", "")
    if prefill:
        for label, row in prefill.items():
            table.add_row(f"prefill {label} ({episode_steps} steps) window / last-k", f"{row['window']} / {row['last_k']} ({row['ratio']}x)", PREFILL_RATIO.marked(row["ratio"]))
    else:
        table.add_row("prefill window vs last-k", "runtime.harness not available", "")
    if on_ray:
        for key, rate in on_ray["steps_per_s"].items():
            n, per = key.split("x")
            table.add_row(f"Ray steps/s, {n} worker{'s' if n != '1' else ''} x {per} sessions", f"{rate}  (per worker {on_ray['per_worker'][key]})", "")
    console.print(table)
    if on_ray:
        console.print(ray_note(on_ray))
    if out:
        out.write_text(json.dumps(result, indent=2))


def ray_note(on_ray: dict) -> str:
    """The closing note: what 2 workers add over 1, and what limits them (the CPU split of the widest run)."""
    rates = on_ray["steps_per_s"]
    widest = max(rates, key=lambda k: tuple(map(int, k.split("x"))))
    n, per = widest.split("x")
    one = rates.get(f"1x{per}")
    lines = [f"Ray: {n} workers x {per} sessions give {rates[widest]} steps/s"
             + (f", 1 worker {one} ({rates[widest] / one:.2f}x)" if one and n != "1" else "") + "."]
    share = on_ray.get("cpu_share_widest")
    if share:
        cores, ours, machine = os.cpu_count() or 1, on_ray["cpu_busy_widest"], on_ray["machine_busy_widest"]
        split = ", ".join(f"{k} {100 * v:.0f}%" for k, v in share.items() if v >= 0.01)
        mem = ", ".join(f"{k} {v}" for k, v in on_ray["rss_mib_widest"].items() if v >= 10)
        before, after = on_ray["load_average_1m"]
        lines.append(f"While they ran, the {cores} cores were {100 * machine:.0f}% busy: {100 * ours:.0f}% with this bench's "
                     f"processes ({split}), the rest other work (load average {before} -> {after}); resident MiB: {mem}.")
        if machine >= 0.85:
            lines.append(f"The cores are the limit, not Ray: every node here shares the same {cores} cores, so a second worker "
                         "adds a second browser and set of app servers competing for them, and Ray's own processes take "
                         f"{100 * share.get('ray system (gcs, raylets, agents)', 0):.0f}%; on separate machines (docs/scale.md) "
                         "each worker brings its own cores.")
        else:
            lines.append("The cores were not saturated: the limit is the latency of each step (page loads, screenshots) "
                         "times the sessions per worker; more sessions per worker raise the rate until the cores are busy.")
    return " ".join(lines)
