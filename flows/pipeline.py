"""The pipeline flow: every stage in order; a finished stage is skipped on a rerun (resume)."""

from __future__ import annotations

from prefect import flow

from .config import PipelineConfig
from .dataset import dataset_flow
from .report import report_flow
from .review import review_flow
from .rollouts import rollouts_flow
from .synthesis import synthesis_flow
from .validation import validation_flow
from .workdir import Workdir
from .worlds import worlds_flow


class StageIncomplete(RuntimeError):
    """A stage could not finish (environment errors left after its retry); a rerun with the same `out` resumes it."""


@flow(name="pipeline", log_prints=True)
def pipeline(config: PipelineConfig = PipelineConfig()) -> dict:
    """worlds -> synthesize -> validate -> review -> rollouts (+ difficulty filter) -> [train] -> dataset -> report."""
    if config.fresh:
        Workdir(config.out).reset()
    worlds_flow(config)
    synthesis_flow(config)
    validated = validation_flow(config)
    if validated.get("env_errors"):
        raise StageIncomplete(f"validation hit {validated['env_errors']} environment errors (after one retry each; the reasons "
                              f"are in {config.out}/tasks/validation.jsonl); rerun with the same --out to retry them")
    review_flow(config)
    rollouts_flow(config)
    if config.train:
        from .train import train_stage

        train_stage(config)
    dataset_flow(config)
    return report_flow(config)
