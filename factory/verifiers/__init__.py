"""Verifier code: sandboxed execution, scoring, validation by execution, review."""

from .plants import Plant, PlantReport, check_plants, plant_defects
from .review import ReviewResult, Vote, review, rule_findings
from .sandbox import (
    SandboxCallError,
    SandboxError,
    SandboxLimits,
    SandboxResult,
    VerifierRun,
    run_sandboxed,
    run_verifier,
)
from .scoring import Final, Score, VerdictError, score
from .validate import ValidationConfig, ValidationResult, validate_task, validate_tasks

__all__ = [
    "Final",
    "Plant",
    "PlantReport",
    "ReviewResult",
    "SandboxCallError",
    "SandboxError",
    "SandboxLimits",
    "SandboxResult",
    "Score",
    "ValidationConfig",
    "ValidationResult",
    "VerdictError",
    "VerifierRun",
    "Vote",
    "check_plants",
    "plant_defects",
    "review",
    "rule_findings",
    "run_sandboxed",
    "run_verifier",
    "score",
    "validate_task",
    "validate_tasks",
]
