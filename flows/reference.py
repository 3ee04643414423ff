"""`gymfactory train-reference`: the project's own reference policy, trained on the factory's own demonstrations and
written as an adapter (rl.adapter) with its manifest.

    gymfactory train-reference --dataset RUN/dataset --out rl/adapters/smollm2-135m-sft

The dataset's held-out apps (its `heldout` split's apps, else `heldout_of` its apps: the rule every export and
`bench transfer` use) are left out; of the other tasks, `--demonstrations` are taken round-robin over apps and then
families, and the base model's top blocks learn their golden steps (SFT). The adapter is then measured greedily,
as `--agent reference` runs it, on the shipped fixture tasks (the apps' default worlds, never in the dataset) of the
trained families, and the result goes into the manifest.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Literal

import typer
from pydantic import BaseModel, ConfigDict, Field

from contracts.options import config_options
from rl.models import REFERENCE

COMMAND = "train-reference"


class ReferenceConfig(BaseModel):
    """Which demonstrations, which base, how long: everything that decides the adapter."""

    model_config = ConfigDict(frozen=True)

    dataset: Path = Field(description="A dataset folder (`gymfactory run`'s OUT/dataset) with a `demonstrations` config.")
    out: Path = Field(description="Folder the adapter (adapter.safetensors) and its manifest (adapter.json) are written to.")
    base: str = Field(default=REFERENCE, description="Base model: a registered name or a saved model's folder.")
    demonstrations: int = Field(default=120, ge=1, description="Tasks whose golden demonstrations are trained on, taken round-robin "
                                "over apps, then families (about 25 minutes of SFT per 100 on 2 idle cores).")
    exclude: tuple[str, ...] = Field(default=(), description="Apps left out of training (repeat the option); default: the "
                                     "dataset's held-out apps.")
    layers: int = Field(default=4, ge=1, description="Train the top N transformer blocks (and the final norm); only they ship.")
    epochs: int = Field(default=3, ge=1, description="Passes over the demonstrations' windowed samples.")
    lr: float = Field(default=3e-4, gt=0, description="AdamW learning rate.")
    batch: int = Field(default=4, ge=1, description="Windowed samples per optimizer step.")
    bf16: bool = Field(default=True, description="SFT under bfloat16 autocast, where the CPU has AVX512-BF16.")
    seed: int = Field(default=0, description="Seed of the choice of demonstrations and of the sample order.")
    evaluate: int = Field(default=6, ge=0, description="Fixture tasks of trained families the adapter is measured on, greedily "
                          "(0: none).")
    max_steps: int = Field(default=8, ge=1, description="Agent replies per measured attempt.")
    refs: Literal["id", "name"] = Field(default="id", description="How the demonstrations name elements: 'id' as recorded, or "
                                        "'name' (the element's label where it resolves back to the same element; runtime.refs).")

    def command(self) -> list[str]:
        """The argv that rebuilds this adapter: every field, spelled as its option."""
        argv = ["gymfactory", COMMAND]
        for name, value in self.model_dump().items():
            option = "--" + name.replace("_", "-")
            if isinstance(value, tuple):
                argv += [a for v in value for a in (option, str(v))]
            elif isinstance(value, bool):
                argv.append(option if value else "--no-" + option[2:])
            else:
                argv += [option, str(value)]
        return argv


def build_reference(config: ReferenceConfig, log=print):
    """Train, write the adapter and its manifest, measure it; returns the manifest."""
    from contracts.spread import round_robin
    from rl.adapter import AdapterData, AdapterManifest, save_adapter, write_manifest
    from rl.agent import HAS_BF16
    from rl.chat import ChatFormat
    from rl.demos import dataset_demos, dataset_tasks, named
    from rl.policy import disable_dropout, freeze_below, load_policy
    from rl.sft import sft, sft_samples, supervised_loss
    from rl.trunk import Trunk

    started, commit = time.monotonic(), _commit()  # the code that trains: HEAD when the run starts
    tasks = dataset_tasks(config.dataset)
    excluded = tuple(sorted(config.exclude)) or held_out_apps(config.dataset, tasks)
    kept = [t for t in tasks if not set(t.apps) & set(excluded)]
    demos = {d.task.id: d for d in dataset_demos(config.dataset, kept)}
    chosen = round_robin([t for t in sorted(kept, key=lambda t: t.id) if t.id in demos], lambda t: t.apps[0], lambda t: t.meta.family)
    chosen = chosen[: config.demonstrations]
    if not chosen:
        raise ValueError(f"{config.dataset}: no demonstrations outside the excluded apps {', '.join(excluded)}")
    log(f"{len(chosen)} demonstrations of {len({t.meta.family for t in chosen})} families from {config.dataset}; "
        f"excluded apps: {', '.join(excluded) or 'none'}")
    model, tokenizer = load_policy(config.base)
    disable_dropout(model)
    trainable = freeze_below(model, config.layers)
    context = int(getattr(model.config, "max_position_embeddings", None) or getattr(model.config, "n_positions", 2048))
    shown = [named(demos[t.id]) if config.refs == "name" else demos[t.id] for t in chosen]
    samples = [s for s in sft_samples(shown, ChatFormat(tokenizer), "compact") if len(s) <= context]
    bf16 = config.bf16 and HAS_BF16
    trunk = Trunk.of(model, bf16)
    before = supervised_loss(model, samples, tokenizer.pad_token_id, trunk=trunk)
    log(f"SFT of {trainable / 1e6:.1f}M parameters (top {config.layers} blocks) on {len(samples)} windowed samples; loss {before:.3f}")
    history = sft(model, samples, tokenizer.pad_token_id, epochs=config.epochs, lr=config.lr, batch_size=config.batch, seed=config.seed,
                  bf16=bf16, trunk=trunk, log=lambda row: log(f"  epoch {row['epoch']}: loss {row['loss']:.4f} ({row['seconds']:.0f} s)"))
    after = supervised_loss(model, samples, tokenizer.pad_token_id, trunk=trunk)
    manifest = AdapterManifest(
        base=config.base, base_config={}, layers=[], tensors={}, command=config.command(), commit=commit,
        data=AdapterData(dataset=str(config.dataset), excluded_apps=list(excluded), tasks=len(chosen),
                         families=sorted({t.meta.family for t in chosen}), apps=sorted({a for t in chosen for a in t.apps}),
                         samples=len(samples)),
        training={"epochs": config.epochs, "lr": config.lr, "batch": config.batch, "seed": config.seed, "bf16": str(bf16)},
        metrics={"sft_loss_before": round(before, 4), "sft_loss_after": round(after, 4),
                 "sft_seconds": round(sum(h["seconds"] for h in history), 1)})
    manifest = save_adapter(config.out, model, manifest)
    log(f"adapter: {config.out} ({manifest.size_bytes / 2**20:.1f} MiB, {len(manifest.tensors)} tensors); loss {before:.3f} -> {after:.3f}")
    del model, trunk
    if config.evaluate:
        measured = measure(config.out, families=set(manifest.data.families), excluded=excluded, n=config.evaluate,
                           max_steps=config.max_steps, log=log)
        manifest = manifest.model_copy(update={"metrics": {**manifest.metrics, **measured}})
    manifest = manifest.model_copy(update={"metrics": {**manifest.metrics, "seconds": round(time.monotonic() - started, 1)}})
    write_manifest(config.out, manifest)
    return manifest


def held_out_apps(dataset: Path, tasks) -> tuple[str, ...]:
    """The dataset's held-out apps: those of its `heldout` split's tasks when it has one, else `heldout_of` its apps."""
    import datasets

    from .dataset_columns import heldout_of

    from contracts.task import Task

    splits = datasets.load_dataset(str(dataset))
    if "heldout" in splits:
        return tuple(sorted({a for row in splits["heldout"].select_columns(["task"]) for a in Task.model_validate_json(row["task"]).apps}))
    return heldout_of({a for t in tasks for a in t.apps})


def fixture_tasks(families: set[str], excluded: tuple[str, ...]):
    """The shipped apps' fixture tasks (mocked_apps/APP/tasks, in each app's default world) of these families, outside `excluded`."""
    import mocked_apps
    from contracts.spread import round_robin
    from contracts.taskfiles import load_tasks

    root = Path(mocked_apps.__file__).parent
    found = [t for folder in sorted(root.glob("*/tasks")) for t in load_tasks(folder)]
    return round_robin([t for t in found if t.meta.family in families and not set(t.apps) & set(excluded)], lambda t: t.apps[0])


def measure(adapter: Path, *, families: set[str], excluded: tuple[str, ...], n: int, max_steps: int, log=print) -> dict:
    """Greedy success of `--agent reference --model ADAPTER` on `n` fixture tasks of the trained families."""
    import tempfile

    from runtime.agents.base import AgentOptions
    from runtime.manager import EnvironmentManager
    from runtime.rollout import rollout
    from runtime.store import TrajectoryStore

    tasks = fixture_tasks(families, excluded)[:n]
    if not tasks:
        return {"fixture_tasks": 0}
    log(f"measuring the adapter greedily on {len(tasks)} fixture tasks: {', '.join(t.id for t in tasks)}")
    with tempfile.TemporaryDirectory() as scratch, EnvironmentManager(screenshots=Path(scratch) / "objects") as manager:
        store = TrajectoryStore(Path(scratch) / "t.db")
        try:
            report = rollout(tasks, "reference", 1, 1, options=AgentOptions(model=str(adapter), temperature=0.0), max_steps=max_steps,
                             manager=manager, store=store, screenshots=False)
        finally:
            store.close()
    solved = sorted(s.task_id for s in report.by_task() if s.successes)
    overall = report.overall()
    log(f"greedy: {overall.successes}/{overall.scored} solved ({', '.join(solved) or 'none'})")
    return {"fixture_tasks": overall.scored, "fixture_solved": overall.successes, "fixture_env_errors": overall.env_errors,
            "fixture_solved_ids": " ".join(solved), "fixture_ids": " ".join(t.id for t in tasks), "fixture_max_steps": max_steps}


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def register(root: typer.Typer) -> None:
    root.command(COMMAND)(train_reference)


@config_options(ReferenceConfig)
def train_reference(config: ReferenceConfig) -> None:
    """Train the reference policy on a dataset's demonstrations (its held-out apps left out); write the adapter and its manifest."""
    from rl.adapter import MANIFEST

    manifest = build_reference(config)
    typer.echo(f"wrote {config.out / MANIFEST}: {manifest.size_bytes} bytes, blocks {manifest.layers}, metrics {manifest.metrics}")
