"""Flow: the run's report — report.json (numbers) and report.md (for people), and artifacts."""

from __future__ import annotations

import json
import time

from prefect import flow
from prefect.artifacts import create_markdown_artifact

from runtime import confine

from .config import PipelineConfig
from .run_evidence import replay_line
from .workdir import Workdir

STAGES = ("worlds", "synthesize", "validate", "review", "rollouts", "train", "rollouts_trained", "dataset")


def collect(wd: Workdir) -> dict:
    out = {}
    for stage in STAGES:
        marker = wd.root / "stages" / f"{stage}.json"
        if marker.is_file():
            record = json.loads(marker.read_text())
            out[stage] = {**record["summary"], "seconds": record["seconds"]}
    return out


def markdown(config: PipelineConfig, stages: dict) -> str:
    lines = ["# gymfactory run", "", f"Output folder: `{config.out}`", "",
             f"Untrusted code (verifiers, golden code, agent shell): {confine.mode()}", "",
             "| stage | result | seconds |", "|---|---|---|"]
    for stage, summary in stages.items():
        shown = ", ".join(f"{k}={v}" for k, v in summary.items()
                          if k not in ("seconds", "agents", "reasons", "findings", "difficulty", "replay"))
        lines.append(f"| {stage} | {shown} | {summary['seconds']:.1f} |")
    if "validate" in stages and stages["validate"].get("reasons"):
        lines += ["", "## Rejected in validation", "", "| reason | tasks |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in stages["validate"]["reasons"].items()]
    for stage in ("rollouts", "rollouts_trained"):
        if stage in stages:
            lines += ["", f"## {stage.replace('_', ' ').capitalize()} (env errors apart)", "",
                      "| agent | attempts | success rate | mean reward | env errors |", "|---|---|---|---|---|"]
            lines += [f"| {a['agent']} | {a['attempts']} | {a['success_rate']:.2f} | {a['mean_reward']:.2f} | {a['env_errors']} |"
                      for a in stages[stage]["agents"]]
    replay = stages.get("rollouts", {}).get("replay")
    if replay and replay.get("attempts"):
        lines += ["", replay_line(replay)]
    difficulty = stages.get("rollouts", {}).get("difficulty") or {}
    if difficulty:
        lines += ["", "## Measured difficulty", "",
                  f"{difficulty.get('measured', 0)} kept tasks carry a difficulty measured by model agents (the others keep their "
                  f"family's declared one); dropped as too easy: {difficulty.get('too_easy', 0)}; attempted but never solved "
                  f"except by the oracle: {difficulty.get('unsolved', 0)} (tasks/unsolved.json)."]
        sample = config.model_sample
        if sample is not None:
            lines += ["", f"Model agents attempted a sample of {sample} tasks, {config.pass_k} times each (`--model-sample`, "
                      "`--pass-k`; the reference model takes seconds a step on a CPU)."]
        if difficulty.get("families"):
            lines += ["", "| agent | family | tasks | k | pass@1 | pass@k | difficulty |", "|---|---|---|---|---|---|---|"]
            lines += [f"| {r['agent']} | {r['family']} | {r['tasks']} | {r['k']} | {r['pass@1']:.2f} | {r['pass@k']:.2f} | "
                      f"{r['difficulty']} |" for r in difficulty["families"]]
    if "dataset" in stages:
        apps = f" over {stages['dataset']['apps']} apps" if "apps" in stages["dataset"] else ""
        lines += ["", f"Dataset: `{stages['dataset']['path']}` ({stages['dataset']['rows']} tasks{apps}), "
                  "load it with `datasets.load_dataset(path)`."]
    lines += ["", f"Stages took {sum(s['seconds'] for s in stages.values()):.0f} s in all."]
    return "\n".join(lines) + "\n"


@flow(name="report", log_prints=True)
def report_flow(config: PipelineConfig) -> dict:
    """Write report.json and report.md from every finished stage."""
    wd, started = Workdir(config.out), time.monotonic()
    stages = collect(wd)
    report = {"config": config.model_dump(mode="json"), "stages": stages, "confinement": confine.mode(),
              "accepted_tasks": stages.get("dataset", {}).get("rows", stages.get("review", {}).get("kept", 0))}
    (wd.root / "report.json").write_text(json.dumps(report, indent=2, default=str))
    text = markdown(config, stages)
    (wd.root / "report.md").write_text(text)
    create_markdown_artifact(key="run-report", markdown=text, description="The run's report")
    print(f"report: {wd.root / 'report.md'} ({time.monotonic() - started:.1f}s)")
    return report
