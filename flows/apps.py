"""Flow: synthesize mocked apps from specs with coding agents, several at once, and publish the outcomes."""

from __future__ import annotations

import time
from pathlib import Path

from prefect import flow, task
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import BaseModel, ConfigDict, Field

from .artifacts import table


class AppsConfig(BaseModel):
    """Which apps to build and with which coding agent; the Prefect UI shows this as a form."""

    model_config = ConfigDict(frozen=True)

    specs: tuple[Path, ...] = Field(default=(), description="App spec files (JSON or YAML).")
    category: str | None = Field(default=None, description="Generate specs for this category instead (needs an LLM provider).")
    n: int = Field(default=1, ge=1, description="Specs generated for `category`.")
    provider: str | None = Field(default=None, description="openai | anthropic | template | claude | codex; default: the key that is set.")
    model: str | None = Field(default=None, description="Model name; default from OPENAI_MODEL / ANTHROPIC_MODEL.")
    rounds: int = Field(default=3, ge=1, description="Checker verdicts before an app is rejected.")
    out: Path = Field(default=Path("runs/apps"), description="Workspaces and session logs.")
    concurrency: int = Field(default=2, ge=1, le=8, description="Apps built at once (each runs its own checker browser).")
    max_pages: int = Field(default=12, ge=1, description="Pages the checker crawls per verdict.")
    controls_budget_s: float = Field(default=15.0, gt=0, description="Seconds the checker clicks controls per verdict.")


@task(name="synthesize-app")
def synthesize_one(spec_json: str, provider: str, config: AppsConfig) -> dict:
    """One coding-agent session (coarse: minutes of work); its result as a dict."""
    from factory.apps.agent import SynthesisConfig
    from factory.apps.run import run_one
    from factory.apps.spec import AppSpec

    spec = AppSpec.model_validate_json(spec_json)
    cfg = SynthesisConfig(rounds=config.rounds, max_pages=config.max_pages, controls_budget_s=config.controls_budget_s)
    result = run_one(spec, provider, config.out, cfg, config.model)
    return result.model_dump(mode="json")


@flow(name="synthesize-apps", log_prints=True)
def apps_flow(config: AppsConfig) -> dict:
    """Specs -> coding-agent sessions, at most `concurrency` at a time -> registered apps and a results table."""
    from factory.apps.run import collect_specs, resolve_provider

    started = time.monotonic()
    provider = resolve_provider(config.provider)  # ProviderNotConfigured says what to set; never pretends
    specs = collect_specs(list(config.specs), config.category, config.n, provider, config.model)
    results: list[dict] = []
    for start in range(0, len(specs), config.concurrency):  # a window of `concurrency` sessions at a time
        futures = [synthesize_one.submit(s.model_dump_json(), provider, config) for s in specs[start:start + config.concurrency]]
        results += [f.result() for f in futures]
    rows = [{"app": r["name"], "status": r["status"], "rounds": r["rounds"], "turns": r["turns"],
             "input_tokens": r["usage"].get("input_tokens", 0), "output_tokens": r["usage"].get("output_tokens", 0),
             "seconds": r["seconds"], "reason": r["reason"], "log": r["log"]} for r in results]
    table("synthesized-apps", rows, "App synthesis sessions")
    accepted = [r["name"] for r in results if r["status"] == "accepted"]
    print(f"apps: {len(accepted)}/{len(results)} accepted in {time.monotonic() - started:.0f}s: {', '.join(accepted) or 'none'}")
    return {"accepted": accepted, "results": results}


def synthesize_apps(config: AppsConfig) -> dict:
    """Run the flow with a thread pool sized to `config.concurrency`."""
    return apps_flow.with_options(task_runner=ThreadPoolTaskRunner(max_workers=config.concurrency))(config)
