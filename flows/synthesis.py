"""Flow: synthesize tasks (requirements first; golden and verifier code apart)."""

from __future__ import annotations

import time
from collections import Counter

from prefect import flow

from factory.providers import get_provider
from contracts.taskfiles import save_tasks
from factory.tasks.diversity import diversity_report
from factory.tasks.llm_author import LLMAuthor
from factory.tasks.synthesize import Author, synthesize

from .artifacts import table
from .config import PipelineConfig
from .workdir import Workdir


class SynthesisFailed(RuntimeError):
    """No task could be written (e.g. the provider is unreachable); the message has its reason."""


@flow(name="synthesize-tasks", log_prints=True)
def synthesis_flow(config: PipelineConfig) -> dict:
    """worlds -> tasks/synthesized.jsonl."""
    wd, started = Workdir(config.out), time.monotonic()
    synth = config.synth
    inputs = [synth.n, synth.families, config.provider, synth.seed, synth.personas, synth.scenarios, synth.worlds_per_pair]
    if synth.catalogue or synth.apps is not None:  # a run without them fingerprints as before, so it still resumes
        inputs += [synth.catalogue, synth.apps]
    if synth.variants > 1:
        inputs += [synth.variants]
    if (done := wd.done("synthesize", inputs)) is not None:
        print(f"synthesize: already done ({done['tasks']} tasks), skipping")
        return done
    author = Author() if config.provider == "template" else LLMAuthor(get_provider(config.provider))
    failures: list[str] = []
    dropped: list[str] = []
    tasks = synthesize(synth, author, failures=failures, dropped=dropped)
    if failures:
        wd.path("tasks", "synthesis_failures.txt").write_text("\n".join(failures) + "\n")
    if not tasks:
        raise SynthesisFailed(f"task synthesis produced no task; first failure: {failures[0] if failures else 'none'}")
    save_tasks(tasks, wd.path("tasks", "synthesized.jsonl"))
    diversity = diversity_report(tasks, synth.near_duplicate_threshold, dropped=len(dropped))
    wd.path("tasks", "diversity.json").write_text(diversity.model_dump_json(indent=1))
    table("synthesized-by-scenario", [{"scenario": s, "tasks": n} for s, n in diversity.by_scenario.items()], "Synthesized tasks per scenario")
    families = Counter(t.meta.family for t in tasks)
    table("synthesized-by-family", [{"family": f, "tasks": n} for f, n in sorted(families.items())], "Synthesized tasks per family")
    summary = {"tasks": len(tasks), "failures": len(failures), "cross_app": sum(t.meta.cross_app for t in tasks), "families": len(families),
               "worlds": diversity.worlds, "scenarios": len(diversity.by_scenario), "near_duplicates_dropped": len(dropped),
               "near_duplicate_rate": diversity.near_duplicate_rate}
    return wd.finish("synthesize", inputs, summary, time.monotonic() - started)
