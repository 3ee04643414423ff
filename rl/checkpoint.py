"""Checkpoints: the policy (save_pretrained), the optimizer, and the trainer's state (step, sampler, evaluations).

A checkpoint folder counts only once its `trainer_state.json` is written, last, so a run killed
mid-save resumes from the previous one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch
from transformers.utils import logging as hf_logging

STATE = "trainer_state.json"


def checkpoint_dir(out: Path, step: int | None) -> Path:
    """`out/checkpoints/sft` for the warm-up, `out/checkpoints/step-000N` for GRPO step N."""
    return out / "checkpoints" / ("sft" if step is None else f"step-{step:06d}")


def save_model(path: Path, model, tokenizer, optimizer: torch.optim.Optimizer | None = None) -> Path:
    """Weights, tokenizer and (optionally) optimizer state; the folder is not a checkpoint until `write_state`."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    hf_logging.disable_progress_bar()  # a bar per checkpoint in the training log
    try:
        model.save_pretrained(path)
    finally:
        hf_logging.enable_progress_bar()
    tokenizer.save_pretrained(path)
    if optimizer is not None:
        torch.save(optimizer.state_dict(), path / "optimizer.pt")
    return path


def write_state(path: Path, state: dict[str, Any]) -> None:
    tmp = path / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, default=str))
    tmp.replace(path / STATE)


def read_state(path: Path) -> dict[str, Any]:
    return json.loads((path / STATE).read_text())


def checkpoints(out: Path) -> list[Path]:
    """Complete checkpoints, oldest first (the SFT one, then GRPO steps in order)."""
    root = out / "checkpoints"
    if not root.is_dir():
        return []
    done = [p for p in root.iterdir() if (p / STATE).is_file()]
    return sorted(done, key=lambda p: -1 if p.name == "sft" else int(p.name.split("-")[1]))


def latest(out: Path) -> Path | None:
    found = checkpoints(out)
    return found[-1] if found else None


def prune(out: Path, keep: int = 2) -> None:
    """Delete all but the newest `keep` GRPO checkpoints; the SFT checkpoint always stays."""
    steps = [p for p in checkpoints(out) if p.name != "sft"]
    for old in steps[:-keep] if keep > 0 else steps:
        shutil.rmtree(old)
