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


@flow(name="pipeline", log_prints=True)
def pipeline(config: PipelineConfig = PipelineConfig()) -> dict:
    """worlds -> synthesize -> validate -> review -> rollouts (+ difficulty filter) -> [train] -> dataset -> report."""
    if config.fresh:
        Workdir(config.out).reset()
    worlds_flow(config)
    synthesis_flow(config)
    validated = validation_flow(config)
    if validated.get("env_errors"):
        raise RuntimeError(f"validation hit {validated['env_errors']} environment errors; rerun to retry them")
    review_flow(config)
    rollouts_flow(config)
    if config.train:
        from .train import train_stage

        train_stage(config)
    dataset_flow(config)
    return report_flow(config)
