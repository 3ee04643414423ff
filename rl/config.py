"""The one typed config of a training run; `gymfactory train` and the Prefect flow both fill it."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from runtime.harness import View

from .models import REFERENCE


class TrainConfig(BaseModel):
    """SFT warm-up on golden demonstrations, then GRPO over the shared rollout path, then held-out evaluation."""

    model_config = ConfigDict(frozen=True)

    tasks: Path = Field(description="Task file (.json / .jsonl) or folder; split into training and held-out instances.")
    out: Path = Field(description="Run folder: checkpoints/, metrics.jsonl, trajectories.db, report.json.")
    policy: str | None = Field(default=None, description="Starting policy: a saved Hugging Face causal LM (folder) or a registered "
                               "model name; default the offline reference model, smollm2-135m (SmolLM2-135M-Instruct).")
    demonstrations: Path | None = Field(default=None, description="A dataset folder (`gymfactory run`'s OUT/dataset): SFT on the "
                                        "golden steps its `demonstrations` config holds for the training tasks, instead of running "
                                        "the golden code again.")
    init_tiny: bool = Field(default=False, description="Instead: build the tiny BPE + 2-layer GPT-2 from the tasks' texts (tests, toys).")
    trainable_layers: int | None = Field(default=None, ge=0, description="Train only the top N transformer blocks (0: all weights). "
                                         "Default: all for the tiny policy, the top 4 of a pretrained one (2.3 s instead of 6.9 s "
                                         "forward+backward at 512 tokens on the reference model).")
    bf16: bool = Field(default=True, description="SFT of a pretrained policy under bfloat16 autocast, where the CPU has AVX512-BF16 "
                       "(the tiny policy keeps float32).")
    zero_shot: bool = Field(default=True, description="Evaluate the starting policy on the held-out tasks before any training.")
    tiny_vocab: int = Field(default=1024, ge=300, description="Vocabulary of the tiny policy's tokenizer.")
    tiny_context: int = Field(default=3072, ge=256, description="Context length (positions) of the tiny policy.")
    tiny_width: int = Field(default=128, ge=16, description="Embedding width of the tiny policy.")
    sft_epochs: int = Field(default=20, ge=0, description="Passes over the golden demonstrations' windowed samples.")
    sft_batch: int = Field(default=4, ge=1, description="Windowed samples per SFT optimizer step.")
    sft_lr: float | None = Field(default=None, gt=0, description="AdamW learning rate of the supervised warm-up; default 2e-3 for "
                                 "the tiny policy (trained from scratch), 1e-4 for a pretrained one.")
    grpo_steps: int = Field(default=10, ge=0, description="GRPO optimisation steps (one batch of groups each).")
    group_size: int = Field(default=8, ge=2, description="Attempts per task for an unseen or sometimes-solved task (G).")
    tasks_per_step: int = Field(default=4, ge=1, description="Tasks (groups) sampled per GRPO step.")
    redraws: int = Field(default=2, ge=0, description="Dynamic sampling: while fewer than tasks_per_step groups of a GRPO step have both "
                         "higher and lower rewards (a group scored all alike has zero advantages and teaches nothing), draw that many "
                         "other tasks again, at most this many times.")
    lr: float = Field(default=1e-4, gt=0, description="AdamW learning rate of GRPO (5e-4 drifted a memorised tiny policy; 1e-4 did not).")
    clip_eps: float = Field(default=0.2, gt=0, description="PPO clip range of the policy ratio.")
    kl_coef: float = Field(default=0.0, ge=0, description="Weight of KL to the reference (the SFT policy); 0 keeps no reference model.")
    temperature: float = Field(default=1.0, gt=0, description="Sampling temperature of training rollouts (1 keeps k3 meaningful).")
    eval_temperature: float = Field(default=0.0, ge=0, description="Temperature of held-out evaluation (0: greedy).")
    eval_attempts: int = Field(default=1, ge=1, description="Attempts per held-out task in each evaluation.")
    max_steps: int = Field(default=8, ge=1, description="Agent replies per attempt.")
    view: View = Field(default="compact", description="How pages are shown to the policy in training and "
                                             "evaluation (runtime.harness: 'compact' trees and page changes, or 'full' trees).")
    refs: Literal["id", "name"] = Field(default="id", description="How SFT demonstrations name elements: 'id' as recorded "
                                        "(click(7)), or 'name': the element's label where it resolves back to the same element on "
                                        "that page (click('Members'); runtime.refs).")
    max_new_tokens: int = Field(default=32, ge=4, le=256, description="Longest reply the policy may sample per step.")
    micro_batch: int = Field(default=8, ge=1, description="Sequences per forward/backward pass (gradients accumulate).")
    concurrency: int = Field(default=2, ge=1, description="Attempts run at once (threads sharing the model).")
    held_out: float = Field(default=0.25, ge=0, lt=1, description="Fraction of task instances kept out of training, for evaluation.")
    seed: int = Field(default=0, description="Seed of the split, the sampler, model init and sampling.")
    resume: bool = Field(default=False, description="Continue from the last checkpoint in --out instead of starting over.")
    checkpoint_every: int = Field(default=1, ge=1, description="Save a checkpoint every this many GRPO steps (and at the end).")

    @model_validator(mode="after")
    def _policy_source(self) -> "TrainConfig":
        if self.policy is not None and self.init_tiny:
            raise ValueError("give --policy NAME_OR_PATH or --init-tiny, not both")
        if self.demonstrations is not None and not (Path(self.demonstrations) / "demonstrations").is_dir():
            raise ValueError(f"--demonstrations {self.demonstrations}: not a dataset folder with a demonstrations config "
                             "(give `gymfactory run`'s OUT/dataset)")
        return self

    def start(self) -> str | None:
        """The starting policy's name or folder; None: build the tiny one."""
        if self.init_tiny:
            return None
        return self.policy or REFERENCE

    def warm_up_lr(self) -> float:
        """The SFT learning rate: the given one, or the default for the kind of policy."""
        return self.sft_lr if self.sft_lr is not None else 2e-3 if self.init_tiny else 1e-4

    def layers(self) -> int:
        """Transformer blocks to train (0: every weight)."""
        if self.trainable_layers is not None:
            return self.trainable_layers
        return 0 if self.init_tiny else 4
