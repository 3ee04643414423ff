"""Flow: review accepted tasks (rule checks offline; three LLM votes with a provider)."""

from __future__ import annotations

import json
import time
from collections import Counter

from prefect import flow

from factory.providers import get_provider
from contracts.taskfiles import load_tasks, save_tasks
from factory.verifiers.review import review

from .artifacts import table
from .config import PipelineConfig
from .workdir import Workdir


@flow(name="review-tasks", log_prints=True)
def review_flow(config: PipelineConfig) -> dict:
    """tasks/accepted.jsonl -> tasks/reviewed.jsonl (and review.jsonl with every reason)."""
    wd, started = Workdir(config.out), time.monotonic()
    accepted_file = wd.path("tasks", "accepted.jsonl")
    inputs = [Workdir.fingerprint(accepted_file.read_text()), config.provider]
    if (done := wd.done("review", inputs)) is not None:
        print(f"review: already done ({done['kept']} kept), skipping")
        return done
    provider = None if config.provider == "template" else get_provider(config.provider)
    tasks = load_tasks(accepted_file) if accepted_file.stat().st_size else []
    verdicts = [(t, review(t, provider)) for t in tasks]
    wd.path("tasks", "review.jsonl").write_text("".join(
        json.dumps({"task_id": t.id, "review": r.model_dump(mode="json")}) + "\n" for t, r in verdicts))
    kept = [t for t, r in verdicts if r.accepted]
    save_tasks(kept, wd.path("tasks", "reviewed.jsonl"))
    findings = Counter(reason.split(":")[0] for _, r in verdicts for reason in r.reasons if not r.accepted)
    table("review-findings", [{"finding": k, "tasks": v} for k, v in findings.most_common()], "Why reviewed tasks were dropped")
    summary = {"reviewed": len(tasks), "kept": len(kept), "dropped": len(tasks) - len(kept), "findings": dict(findings)}
    return wd.finish("review", inputs, summary, time.monotonic() - started)
