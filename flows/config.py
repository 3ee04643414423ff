"""One typed config for the pipeline; the CLI (`gymfactory run`) and the Prefect UI read the same model."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from factory.tasks.synthesize import SynthConfig
from factory.worlds.catalog import PERSONAS, SCENARIOS


class PipelineConfig(BaseModel):
    """The whole pipeline: worlds -> tasks -> validation -> review -> rollouts -> dataset -> report."""

    model_config = ConfigDict(frozen=True)

    out: Path = Field(default=Path("runs/latest"), description="Output folder; a rerun with the same folder resumes.")
    personas: tuple[str, ...] = Field(default=(), description=f"Fixture personas ({', '.join(PERSONAS)}) to build worlds from; "
                                      "empty: generated personas, a new one per world.")
    scenarios: tuple[str, ...] = Field(default=(), description=f"Catalogue scenarios ({len(SCENARIOS)}) to build worlds from; empty: all.")
    worlds_per_pair: int = Field(default=1, ge=1, description="With fixture personas: worlds per persona x scenario.")
    tasks: int = Field(default=64, ge=1, description="Tasks to synthesize before validation (about 98% pass).")
    families: tuple[str, ...] | None = Field(default=None, description="Only these task families (default: all).")
    provider: str = Field(default="template", description="Who writes golden/verifier code and reviews: 'template' (offline) or an LLM provider.")
    seed: int = Field(default=0, description="Seed of worlds and synthesis; same seed, same tasks.")
    validation_runs: int = Field(default=2, ge=1, description="Full validation runs per task; verdicts must repeat.")
    concurrency: int = Field(default=4, ge=1, le=16, description="Browser sessions at once (validation and rollouts); "
                             "with runner 'ray', on each worker node.")
    runner: Literal["local", "ray"] = Field(default="local", description="Where validation and rollouts run: 'local' (this "
                                            "machine) or 'ray' (an environment worker on each node of a Ray cluster).")
    ray_address: str | None = Field(default=None, description="With runner 'ray': the Ray cluster's address "
                                    "(`ray start --head` prints it), e.g. 10.0.0.5:6379. See docs/scale.md.")
    batch: int = Field(default=6, ge=1, description="Tasks per Prefect task (keep Prefect tasks coarse).")
    agents: tuple[str, ...] = Field(default=("golden", "random"), description="Agents rolled out on the accepted tasks.")
    attempts: int = Field(default=1, ge=1, description="Attempts per task and agent.")
    golden_sample: int | None = Field(default=16, ge=1, description="Roll the golden agent out on at most this many tasks "
                                      "(validation already ran it on every task); None for all.")
    max_steps: int = Field(default=15, ge=1, description="Step limit of a rollout attempt.")
    screenshots: bool = Field(default=True, description="Keep every rollout observation's screenshot in the object store (replay in "
                              "`gymfactory dashboard`); off saves time and disk.")
    easy_above: float = Field(default=0.5, ge=0, le=1, description="Drop tasks the random agent solves more often than this.")
    train: bool = Field(default=False, description="Run a short GRPO training stage and roll out the trained policy.")
    train_sft_epochs: int = Field(default=10, ge=0, description="SFT warm-up epochs of the training stage.")
    train_steps: int = Field(default=3, ge=0, description="GRPO steps of the training stage.")
    fresh: bool = Field(default=False, description="Ignore finished stages in `out` and start over.")

    def synth_config(self) -> SynthConfig:
        """The synthesis config of this pipeline: the one place its synthesis fields become a SynthConfig."""
        return SynthConfig(n=self.tasks, personas=self.personas, scenarios=self.scenarios, worlds_per_pair=self.worlds_per_pair,
                           families=self.families, seed=self.seed)

    @model_validator(mode="after")
    def _ray_needs_an_address(self) -> "PipelineConfig":
        if self.runner == "ray" and not self.ray_address:
            raise ValueError("runner 'ray' needs ray_address: the address of a Ray cluster (`ray start --head` prints it)")
        return self


StageName = Literal["worlds", "synthesize", "validate", "review", "rollouts", "dataset", "report"]
