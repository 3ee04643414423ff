"""An adapter: only the parameters a training run changed (its trained top blocks and final norm, bfloat16 safetensors)
plus a manifest saying how it was made, so a trained policy ships in tens of MB instead of a whole model.

    folder/adapter.safetensors   the trained tensors, by their names in the base model's state dict
    folder/adapter.json          AdapterManifest: base, trained blocks, tensor shapes, size, command, commit, data, metrics

Loading is the base model (rl.models: a registered name or a folder) with these tensors copied in; the base's
architecture and every tensor's name and shape are checked against the manifest first, and a mismatch is an
AdapterError naming what differs. rl.policy.load_policy does it for any folder holding an `adapter.json`.
torch and safetensors are imported where tensors are handled: rl.models reads manifests at every command's start.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

TENSORS = "adapter.safetensors"
MANIFEST = "adapter.json"
_BLOCK = re.compile(r"\.(?:layers|h)\.(\d+)\.")  # a block's index in a Llama-like or GPT-2-like state-dict name


class AdapterError(ValueError):
    """An adapter that cannot be read or does not fit its base model; the message names the folder and the difference."""


class AdapterData(BaseModel):
    """What the adapter was trained on."""

    model_config = ConfigDict(frozen=True)
    dataset: str = Field(description="The dataset folder (`gymfactory run`'s OUT/dataset) the demonstrations came from.")
    excluded_apps: list[str] = Field(description="Apps whose tasks were left out: the dataset's held-out apps.")
    tasks: int = Field(description="Tasks whose golden demonstrations were trained on.")
    families: list[str] = Field(description="Their task families.")
    apps: list[str] = Field(description="Their apps.")
    samples: int = Field(description="Windowed training samples built from the demonstrations.")


class AdapterManifest(BaseModel):
    """How an adapter was made and what it holds; saved as `adapter.json` beside its tensors."""

    model_config = ConfigDict(frozen=True)
    base: str = Field(description="The base model: a registered name (rl.models) or a folder.")
    base_config: dict[str, int | str] = Field(description="The base's architecture (model type, blocks, widths), checked at load.")
    layers: list[int] = Field(description="Indices of the trained transformer blocks.")
    tensors: dict[str, list[int]] = Field(description="Name -> shape of every tensor in adapter.safetensors.")
    dtype: str = Field(default="bfloat16", description="Storage type of the tensors (loaded into the base's own type).")
    size_bytes: int = Field(default=0, description="Size of adapter.safetensors.")
    command: list[str] = Field(description="The command that rebuilds it (argv).")
    commit: str = Field(description="The git commit of the code that trained it ('' outside a git checkout).")
    data: AdapterData
    training: dict[str, float | int | str] = Field(default_factory=dict, description="Epochs, learning rate, batch, seed.")
    metrics: dict[str, float | int | str] = Field(default_factory=dict, description="What was measured: losses, seconds, "
                                                   "greedy success on fixture tasks.")


def architecture(config) -> dict[str, int | str]:
    """The parts of a model's config an adapter depends on."""
    keys = ("model_type", "num_hidden_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_key_value_heads",
            "vocab_size", "n_layer", "n_embd")
    return {k: getattr(config, k) for k in keys if isinstance(getattr(config, k, None), (int, str))}


def trained_tensors(model) -> dict:
    """The parameters that train (requires_grad), by state-dict name, as contiguous bfloat16 copies."""
    import torch

    return {name: p.detach().to(torch.bfloat16).contiguous().clone() for name, p in model.named_parameters() if p.requires_grad}


def save_adapter(folder: Path, model, manifest: AdapterManifest) -> AdapterManifest:
    """Write the model's trained tensors and the manifest (its tensors, size and base architecture filled in); returns it."""
    from safetensors.torch import save_file

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tensors = trained_tensors(model)
    if not tensors:
        raise AdapterError(f"{folder}: the model has no trained parameters to save")
    save_file(tensors, str(folder / TENSORS), metadata={"base": manifest.base})
    manifest = manifest.model_copy(update={
        "layers": sorted({int(m.group(1)) for name in tensors if (m := _BLOCK.search(name))}),
        "tensors": {name: list(t.shape) for name, t in tensors.items()}, "dtype": "bfloat16",
        "size_bytes": (folder / TENSORS).stat().st_size, "base_config": architecture(model.config)})
    write_manifest(folder, manifest)
    return manifest


def write_manifest(folder: Path, manifest: AdapterManifest) -> None:
    path = Path(folder) / MANIFEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(manifest.model_dump_json(indent=1) + "\n")
    tmp.replace(path)


def is_adapter(folder: Path) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def read_manifest(folder: Path) -> AdapterManifest:
    path = Path(folder) / MANIFEST
    try:
        return AdapterManifest.model_validate_json(path.read_text())
    except FileNotFoundError:
        raise AdapterError(f"{folder}: no {MANIFEST}; not an adapter folder") from None
    except ValueError as err:
        raise AdapterError(f"{path}: not an adapter manifest ({err})") from None


def apply_adapter(model, folder: Path, manifest: AdapterManifest | None = None) -> AdapterManifest:
    """Copy the adapter's tensors into `model` (its base), after checking the base's architecture and every name and shape."""
    import torch
    from safetensors.torch import load_file

    folder = Path(folder)
    manifest = manifest or read_manifest(folder)
    have = architecture(model.config)
    differs = {k: (v, have.get(k)) for k, v in manifest.base_config.items() if have.get(k) != v}
    if differs:
        raise AdapterError(f"{folder}: the base model is not the one the adapter was trained on ({manifest.base}): "
                           + ", ".join(f"{k} {want} in the manifest, {got} in the base" for k, (want, got) in differs.items()))
    if not (folder / TENSORS).is_file():
        raise AdapterError(f"{folder}: no {TENSORS}")
    tensors = load_file(str(folder / TENSORS))
    listed = {name: tuple(shape) for name, shape in manifest.tensors.items()}
    found = {name: tuple(t.shape) for name, t in tensors.items()}
    if listed != found:
        raise AdapterError(f"{folder}: {TENSORS} does not match its manifest: "
                           + _difference(listed, found, "in the manifest", "in the file"))
    params = dict(model.named_parameters())
    base = {name: tuple(params[name].shape) for name in found if name in params}
    if base != found:
        raise AdapterError(f"{folder}: the adapter does not fit the base {manifest.base}: " + _difference(found, base, "in the adapter", "in the base"))
    with torch.no_grad():
        for name, tensor in tensors.items():
            params[name].copy_(tensor.to(params[name].dtype))
    return manifest


def _difference(a: dict, b: dict, in_a: str, in_b: str) -> str:
    lines = [f"{n} {a[n]} {in_a}, {b.get(n, 'absent')} {in_b}" for n in sorted(a) if a[n] != b.get(n)]
    lines += [f"{n} absent {in_a}" for n in sorted(set(b) - set(a))]
    return "; ".join(lines[:4]) + (f" (and {len(lines) - 4} more)" if len(lines) > 4 else "")
