"""Diagnosis: failed attempts -> a weakness profile (action, trajectory and knowledge levels) that regeneration targets."""

from factory.diagnosis.diagnose import DiagnoseConfig, diagnose
from factory.diagnosis.profile import AttemptFinding, CapabilityWeakness, WeaknessProfile

__all__ = ["AttemptFinding", "CapabilityWeakness", "DiagnoseConfig", "WeaknessProfile", "diagnose"]
