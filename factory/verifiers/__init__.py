"""Verifier code: validation by execution (planted defects, adversarial probes, footprints), review.

Sandboxed execution lives in `runtime.sandbox`, scoring in `contracts.scoring`.
"""

from .footprint import record
from .plants import Plant, PlantReport, check_plants, plant_defects
from .probes import Probe, ProbeReport, check_probes, derive_probes
from .review import ReviewResult, Vote, review, rule_findings
from .validate import ValidationConfig, ValidationResult, accepted_task, validate_task, validate_tasks

__all__ = [
    "Plant",
    "PlantReport",
    "Probe",
    "ProbeReport",
    "ReviewResult",
    "ValidationConfig",
    "ValidationResult",
    "Vote",
    "accepted_task",
    "check_plants",
    "check_probes",
    "derive_probes",
    "plant_defects",
    "record",
    "review",
    "rule_findings",
    "validate_task",
    "validate_tasks",
]
