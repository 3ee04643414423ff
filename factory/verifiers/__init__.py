"""Verifier code: sandboxed execution, scoring, validation by execution, review."""

from .footprint import collateral, diff, record
from .plants import Plant, PlantReport, check_plants, plant_defects
from .probes import Probe, ProbeReport, check_probes, derive_probes
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
from .scoring import GUARD_CRITERION, Final, Score, VerdictError, score, score_final
from .validate import ValidationConfig, ValidationResult, accepted_task, validate_task, validate_tasks

__all__ = [
    "GUARD_CRITERION",
    "Final",
    "Plant",
    "PlantReport",
    "Probe",
    "ProbeReport",
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
    "accepted_task",
    "check_plants",
    "check_probes",
    "collateral",
    "derive_probes",
    "diff",
    "plant_defects",
    "record",
    "review",
    "rule_findings",
    "run_sandboxed",
    "run_verifier",
    "score",
    "score_final",
    "validate_task",
    "validate_tasks",
]
