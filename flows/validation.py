"""Flow: validate every synthesized task by execution; resumable task by task."""

from __future__ import annotations

import time
from collections import Counter, defaultdict

from prefect import flow, task
from prefect.cache_policies import NONE
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner

from contracts.taskfiles import load_tasks, save_tasks
from contracts.task import Task
from factory.verifiers.validate import ValidationConfig, ValidationResult, accepted_task, validate_task

from .environment import browser_slot, current
from .runners import ValidateJob, fanout, pool_summary, ray_pool
from .artifacts import ProgressArtifact, table
from .config import PipelineConfig
from .workdir import Workdir


@task(name="validate-batch", cache_policy=NONE)
def validate_batch(tasks: list[Task], runs: int, screenshots: bool = False) -> list[ValidationResult]:
    """Validate a batch of tasks, one browser slot per task (under the Ray runner: spread over its workers);
    `screenshots`: the demonstrations (each task's first golden run) keep their pages' screenshots."""
    if (pool := ray_pool()) is not None:
        return pool.map(ValidateJob(runs=runs, screenshots=screenshots), tasks)
    config, out = ValidationConfig(runs=runs, screenshots=screenshots), []
    for t in tasks:
        with browser_slot():
            out.append(validate_task(t, current(), config))
    return out


@flow(name="validate-tasks", log_prints=True, task_runner=ThreadPoolTaskRunner(max_workers=16))
def validation_flow(config: PipelineConfig) -> dict:
    """tasks/synthesized.jsonl -> tasks/validation.jsonl (every verdict, with each accepted task's demonstration) and
    tasks/accepted.jsonl."""
    wd, started = Workdir(config.out), time.monotonic()
    synthesized = wd.path("tasks", "synthesized.jsonl")
    inputs = [Workdir.fingerprint(synthesized.read_text()), config.validation_runs, config.demo_screenshots]
    if (done := wd.done("validate", inputs)) is not None:
        print(f"validate: already done ({done['accepted']} accepted), skipping")
        return done
    tasks = load_tasks(synthesized)
    results_file = wd.path("tasks", "validation.jsonl")
    results: dict[str, ValidationResult] = {}
    if results_file.is_file():  # resume: keep verdicts, re-run environment errors
        for line in results_file.read_text().splitlines():
            r = ValidationResult.model_validate_json(line)
            if r.reason != "env_error":
                results[r.task_id] = r
    todo = [t for t in tasks if t.id not in results]
    print(f"validate: {len(results)} verdicts kept, {len(todo)} tasks to validate")
    progress = ProgressArtifact("validation-progress", len(todo), "Tasks validated")
    with fanout(config) as pool, open(results_file, "a") as sink:
        def run(todo: list[Task], on_result) -> None:
            batches = [todo[i : i + config.batch] for i in range(0, len(todo), config.batch)]
            # as each batch ends, not in submission order: a batch that waits long for a browser slot must not
            # hold back the verdicts of those that finished after it (they are on disk for a resume at once)
            for future in as_completed([validate_batch.submit(b, config.validation_runs, config.demo_screenshots) for b in batches]):
                for r in future.result():
                    sink.write(r.model_dump_json() + "\n")  # a retry's line comes later and wins on resume
                    sink.flush()
                    results[r.task_id] = r
                    on_result()

        run(todo, progress.advance)
        faulted = [t for t in todo if results[t.id].reason == "env_error"]
        if faulted:  # an environment fault is not a verdict: each such task gets one more try before the stage ends
            print(f"validate: {len(faulted)} environment errors; validating those tasks once more")
            run(faulted, lambda: None)
    ordered = [results[t.id] for t in tasks if t.id in results]
    accepted = [accepted_task(t, results[t.id]) for t in tasks if t.id in results and results[t.id].accepted]
    save_tasks(accepted, wd.path("tasks", "accepted.jsonl"))
    family = {t.id: t.meta.family for t in tasks}
    by_family: dict[str, Counter] = defaultdict(Counter)
    for r in ordered:
        by_family[family[r.task_id]]["accepted" if r.accepted else "rejected"] += 1
    table("validation-by-family", [{"family": f, "accepted": c["accepted"], "rejected": c["rejected"]} for f, c in sorted(by_family.items())],
          "Validation by execution, per family")
    reasons = Counter(r.reason for r in ordered if not r.accepted)
    table("validation-rejections", [{"reason": k, "tasks": v} for k, v in reasons.most_common()], "Rejected tasks by reason")
    env_errors = reasons.get("env_error", 0)
    summary = {"validated": len(ordered), "accepted": len(accepted), "rejected": len(ordered) - len(accepted),
               "reasons": dict(reasons), "env_errors": env_errors,
               "mean_seconds": round(sum(r.seconds for r in ordered) / max(1, len(ordered)), 2), **pool_summary(pool)}
    if env_errors:  # infrastructure faults are not verdicts: leave the stage open so a rerun retries them
        print(f"validate: {env_errors} environment errors; rerun to retry them")
        return summary
    return wd.finish("validate", inputs, summary, time.monotonic() - started)
