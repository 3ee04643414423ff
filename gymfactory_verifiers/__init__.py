"""The `verifiers` 0.4 plug-in package for gymfactory datasets: taskset id `gymfactory_verifiers`.

verifiers loads an environment by importing a top-level package named by the taskset id and taking the Taskset,
Env and Harness classes its `__all__` exports; they live in `runtime.interop.verifiers_env` (docs/interop.md).
"""

from runtime.interop.verifiers_env import GymfactoryEnv, GymfactoryHarness, GymfactoryTask, GymfactoryTaskset

__all__ = ["GymfactoryEnv", "GymfactoryHarness", "GymfactoryTask", "GymfactoryTaskset"]
