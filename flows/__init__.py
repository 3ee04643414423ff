"""Prefect flows for each stage and the whole pipeline."""

from __future__ import annotations


def deployable() -> list:
    """Every flow a user can start from the Prefect UI."""
    from .dataset import dataset_flow
    from .loop import loop_flow
    from .regenerate import regenerate_flow
    from .pipeline import pipeline
    from .publish import publish_flow
    from .report import report_flow
    from .review import review_flow
    from .rollouts import rollouts_flow
    from .synthesis import synthesis_flow
    from .train import train_stage
    from .validation import validation_flow
    from .worlds import worlds_flow

    return [pipeline, worlds_flow, synthesis_flow, validation_flow, review_flow, rollouts_flow, train_stage, dataset_flow, report_flow,
            regenerate_flow, loop_flow, publish_flow]


__all__ = ["deployable"]
