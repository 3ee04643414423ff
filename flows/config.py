"""One typed config for the pipeline; the CLI (`gymfactory run`) and the Prefect UI read the same model."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from factory.tasks.synthesize import SynthConfig
from runtime.replay import ReplaySample


def _run_synthesis() -> SynthConfig:
    """What `gymfactory run` synthesizes by default: 310 tasks over the 15 hand-made apps (about four per family; at
    least 300 accepted in under 10 minutes on 2 cores, issue 15), one world per persona x scenario."""
    return SynthConfig(n=310, worlds_per_pair=1)


class PipelineConfig(BaseModel):
    """The whole pipeline: worlds -> tasks -> validation -> review -> rollouts -> dataset -> report.

    What to synthesize is the synthesis config itself (`synth`), not a copy of its fields: the CLI
    flattens it into options (`--tasks`, `--seed`, `--family`, `--catalogue`, ...).
    """

    model_config = ConfigDict(frozen=True)

    out: Path = Field(default=Path("runs/latest"), description="Output folder; a rerun with the same folder resumes.")
    synth: SynthConfig = Field(default_factory=_run_synthesis, description="Worlds and tasks to synthesize before validation.")
    provider: str = Field(default="template", description="Who writes golden/verifier code and reviews: 'template' (offline) or an LLM provider.")
    validation_runs: int = Field(default=2, ge=1, description="Full validation runs per task; verdicts must repeat.")
    concurrency: int = Field(default=4, ge=1, le=16, description="Browser sessions at once (validation and rollouts); "
                             "with runner 'ray', on each worker node.")
    runner: Literal["local", "ray"] = Field(default="local", description="Where validation and rollouts run: 'local' (this "
                                            "machine) or 'ray' (an environment worker on each node of a Ray cluster).")
    ray_address: str | None = Field(default=None, description="With runner 'ray': the Ray cluster's address "
                                    "(`ray start --head` prints it), e.g. 10.0.0.5:6379. See docs/scale.md.")
    backend: Literal["local", "docker"] = Field(default="local", description="Where app servers run: 'local' (processes) or "
                                                "'docker' (containers on loopback ports; docs/engines.md).")
    store_url: str | None = Field(default=None, description="Trajectory store: a SQLite path or a postgresql:// URL shared by "
                                  "every Ray worker (docs/engines.md); default OUT/rollouts/trajectories.db.")
    objects_url: str | None = Field(default=None, description="Object store for screenshots: a folder or an s3:// URL "
                                    "(docs/engines.md); default OUT/objects, so the run folder holds everything it refers to.")
    batch: int = Field(default=6, ge=1, description="Tasks per Prefect task (keep Prefect tasks coarse).")
    agents: tuple[str, ...] = Field(default=("golden", "random", "reference"), description="Agents rolled out on the accepted "
                                    "tasks: the golden oracle, the random baseline, and models (the offline `reference` model, "
                                    "`openai`, `anthropic`, `policy`), whose pass@k measures each family's difficulty.")
    attempts: int = Field(default=1, ge=1, description="Attempts per task of the golden and random agents.")
    pass_k: int = Field(default=2, ge=1, description="Attempts per task of each model agent: the k of pass@k; a task a model "
                        "solves k/k (k >= 2) is dropped as too easy.")
    model_sample: int | None = Field(default=2, ge=1, description="Tasks each model agent attempts, taken round-robin over the "
                                     "families (the reference model takes seconds a step on a CPU: with 2, the default run's rollouts took 131 s, with 4, 183 s); None for all.")
    model_max_steps: int = Field(default=10, ge=1, description="Step limit of a model agent's attempt.")
    golden_sample: int | None = Field(default=16, ge=1, description="Roll the golden agent out on at most this many tasks "
                                      "(validation already ran it on every task); None for all.")
    baseline_sample: int | None = Field(default=24, ge=1, description="Roll the random baseline (the difficulty filter's "
                                        "reference) out on at most this many tasks; the others are kept unmeasured. None for all.")
    max_steps: int = Field(default=15, ge=1, description="Step limit of a rollout attempt.")
    screenshots: bool = Field(default=True, description="Keep rollout observations' screenshots in the object store (replay in "
                              "`gymfactory dashboard`): every golden step's, and a sample of the other agents' attempts "
                              "(--replay-sample, --replay-max-mb); off saves time and disk.")
    replay_sample: float = Field(default=0.5, ge=0, le=1, description="Share of the non-golden rollout attempts (random baseline, "
                                 "model agents) that keep their screenshots for replay, drawn by a hash of each attempt's name.")
    replay_max_mb: float = Field(default=200, ge=0, description="Bound on the total size of those kept screenshots in the run, "
                                 "in MB (a screenshot takes about 85 KB); attempts that start once it is reached keep none.")
    demo_screenshots: bool = Field(default=True, description="Screenshot the pages of each task's first golden run in validation: the "
                                   "image column of the dataset's `demonstrations` config (about 2% of validation's time, 85 KB a step); "
                                   "off, demonstrations carry the accessibility text only.")
    easy_above: float = Field(default=0.5, ge=0, le=1, description="Drop tasks the random agent solves more often than this.")
    model: str | None = Field(default=None, description="Model of the model agents: a name for an endpoint (openai, anthropic), "
                              "a saved or registered model for `policy` and `reference` (default for `reference`: the shipped "
                              "smollm2-135m-sft; smollm2-135m is the zero-shot base).")
    train: bool = Field(default=False, description="Run a short training stage (SFT, then GRPO) and roll out the trained policy.")
    train_policy: str | None = Field(default=None, description="Policy the training stage starts from: a registered model or a "
                                     "saved model's folder (default: --model, else the reference model smollm2-135m), or 'tiny' "
                                     "for the from-scratch 2-layer GPT-2 (toys and tests).")
    train_sft_epochs: int = Field(default=4, ge=0, description="SFT warm-up epochs of the training stage.")
    train_steps: int = Field(default=3, ge=0, description="GRPO steps of the training stage.")
    fresh: bool = Field(default=False, description="Ignore finished stages in `out` and start over.")

    @model_validator(mode="after")
    def _ray_needs_an_address(self) -> "PipelineConfig":
        if self.runner == "ray" and not self.ray_address:
            raise ValueError("--runner ray: needs --ray-address HOST:PORT (ray_address), the Ray cluster's address "
                             "(`ray start --head` prints it; see docs/scale.md)")
        return self

    def trajectory_store(self) -> str:
        """The URL the rollouts write to: `store_url`, or the run folder's SQLite file."""
        return self.store_url or str(Path(self.out) / "rollouts" / "trajectories.db")

    def object_store(self) -> str:
        """Where screenshots and final states go: `objects_url`, or the run folder's `objects/` (absolute, as Ray workers
        open it)."""
        return self.objects_url or str(Path(self.out).resolve() / "objects")

    def replay(self) -> ReplaySample:
        """Which non-golden attempts keep their screenshots (runtime.replay)."""
        return ReplaySample(rate=self.replay_sample, max_bytes=int(self.replay_max_mb * 1_000_000))


# the options of `gymfactory run`: field (or "synth.<field>") -> option, where it differs from --field-name
RUN_OPTIONS = {"synth.n": "--tasks", "synth.families": "--family", "synth.personas": "--persona", "synth.scenarios": "--scenario",
               "synth.apps": "--app", "agents": "--agent"}


StageName = Literal["worlds", "synthesize", "validate", "review", "rollouts", "dataset", "report"]
