"""The shipped reference policy: an adapter (the trained top blocks, rl.adapter) over smollm2-135m, loaded by name,
acting on a fixture task of a family it was trained on, and rebuilt at toy scale by its manifest's own command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file
from typer.testing import CliRunner

from contracts.demonstration import DemoStep, anonymous_url
from contracts.status import SCORED
from contracts.taskfiles import load_tasks
from flows.dataset import export
from flows.reference import fixture_tasks
from flows.run_evidence import RunEvidence
from gymfactory.cli import build
from rl.adapter import MANIFEST, TENSORS, AdapterError, apply_adapter, read_manifest
from rl.agent import ReferenceAgent
from rl.demos import collect_demos
from rl.models import ADAPTERS, REFERENCE, REFERENCE_SFT, PolicyError, resolve_policy, tokenizer_folder
from rl.policy import load_policy
from runtime.agents import AgentOptions, make_agent
from runtime.manager import EnvironmentManager
from runtime.rollout import recorded_turns, rollout
from runtime.store import TrajectoryStore

FIXTURE_TASKS = Path(__file__).resolve().parents[1] / "fixtures" / "tasks"
SHIPPED = ADAPTERS[REFERENCE_SFT]


@pytest.fixture(scope="module")
def manifest():
    return read_manifest(SHIPPED)


def test_the_shipped_adapter_is_in_the_repository_and_its_manifest_matches_it(manifest):
    assert resolve_policy(REFERENCE_SFT) == SHIPPED and SHIPPED.is_relative_to(Path(__file__).resolve().parents[2] / "rl")
    tensors = load_file(str(SHIPPED / TENSORS))
    assert {n: list(t.shape) for n, t in tensors.items()} == manifest.tensors
    assert {t.dtype for t in tensors.values()} == {torch.bfloat16} and manifest.dtype == "bfloat16"
    assert manifest.size_bytes == (SHIPPED / TENSORS).stat().st_size < 50 * 2**20  # tens of MB, not a whole model
    assert manifest.base == REFERENCE and manifest.layers == [26, 27, 28, 29]  # the top 4 of smollm2-135m's 30 blocks
    assert set(manifest.data.excluded_apps) == {"mail", "projects", "travel"}  # the dataset's held-out apps
    assert not set(manifest.data.apps) & set(manifest.data.excluded_apps)
    assert manifest.command[:2] == ["gymfactory", "train-reference"] and len(manifest.commit) == 40
    assert manifest.metrics["sft_loss_after"] < manifest.metrics["sft_loss_before"]


def test_the_registered_name_loads_the_base_with_the_adapters_blocks_in_place(manifest):
    model, _ = load_policy(REFERENCE_SFT)
    base, _ = load_policy(REFERENCE)
    tensors = load_file(str(SHIPPED / TENSORS))
    params, base_params = dict(model.named_parameters()), dict(base.named_parameters())
    for name, tensor in tensors.items():
        assert torch.equal(params[name], tensor.float()), name
    assert any(not torch.equal(params[n], base_params[n]) for n in tensors)  # trained: not the base's
    untouched = [n for n in params if n not in tensors]
    assert untouched and all(torch.equal(params[n], base_params[n]) for n in untouched)
    assert tokenizer_folder(REFERENCE_SFT) == tokenizer_folder(REFERENCE)


def test_the_reference_agent_runs_the_shipped_adapter_and_the_base_stays_available_by_name():
    agent = make_agent("reference", AgentOptions())
    assert isinstance(agent, ReferenceAgent) and agent.model == REFERENCE_SFT
    assert make_agent("reference", AgentOptions(model=REFERENCE)).model == REFERENCE
    with pytest.raises(PolicyError, match="did you mean .*smollm2-135m-sft"):
        resolve_policy("smollm2-135m-stf")


def test_it_acts_on_a_fixture_task_of_a_trained_family_greedily(manifest, tmp_path):
    """Every reply is an action (zero-shot, the base wrote none in 404 replies). It solved none of the 5 fixture tasks
    it was measured on (the manifest's metrics), so a test that it solves one waits for a stronger adapter."""
    tasks = {t.id: t for t in fixture_tasks(set(manifest.data.families), tuple(manifest.data.excluded_apps))}
    task = tasks[manifest.metrics["fixture_ids"].split()[0]]  # a fixture task (its app's default world, never in the dataset)
    assert task.meta.family in manifest.data.families and not set(task.apps) & set(manifest.data.excluded_apps)
    with EnvironmentManager(screenshots=tmp_path / "objects") as manager:
        store = TrajectoryStore(tmp_path / "t.db")
        try:
            report = rollout([task], "reference", 1, 1, options=AgentOptions(temperature=0.0), max_steps=3, manager=manager,
                             store=store, screenshots=False)
            (result,) = report.results
            turns = recorded_turns(store, result.attempt_id)
        finally:
            store.close()
    assert result.status in SCORED and result.steps == 3, result
    assert all(t.action is not None and not t.error for t in turns), [(t.output, t.error) for t in turns]


def _tiny_like(manifest, folder: Path) -> Path:
    """A tiny Llama with the base's number of blocks and tokenizer, narrow everywhere else: same tensor names, small shapes."""
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_folder(manifest.base))
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_attention_heads=2, num_key_value_heads=1,
                         num_hidden_layers=manifest.base_config["num_hidden_layers"], max_position_embeddings=8192,
                         tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def toy_dataset(tmp_path_factory):
    """A dataset folder exported from golden runs of the notes fixture tasks (real browser, real app)."""
    root = tmp_path_factory.mktemp("toy-dataset")
    tasks = load_tasks(FIXTURE_TASKS)
    with EnvironmentManager(screenshots=root / "objects") as manager:
        store = TrajectoryStore(root / "t.db")
        try:
            demos, _ = collect_demos(tasks, manager, store)
        finally:
            store.close()
    steps = {d.task.id: [DemoStep(action=t.output, url=anonymous_url(t.observation.url), axtree=t.observation.axtree) for t in d.turns]
             for d in demos}
    return export(tasks, root / "dataset", evidence=RunEvidence(demonstrations=steps))


def _with(argv: list[str], **values) -> list[str]:
    out = list(argv)
    for name, value in values.items():
        out[out.index("--" + name.replace("_", "-")) + 1] = str(value)
    return out


def test_the_manifests_command_rebuilds_an_adapter_of_the_same_shape_at_toy_scale(manifest, toy_dataset, tmp_path):
    tiny = _tiny_like(manifest, tmp_path / "tiny")
    argv = _with(manifest.command, dataset=toy_dataset, out=tmp_path / "adapter", base=tiny, demonstrations=2, epochs=2, evaluate=0)
    result = CliRunner().invoke(build(), argv[1:])
    assert result.exit_code == 0, result.output
    toy = read_manifest(tmp_path / "adapter")
    assert toy.layers == manifest.layers and list(toy.tensors) == list(manifest.tensors)  # the same blocks, tensor by tensor
    assert all(len(toy.tensors[n]) == len(shape) for n, shape in manifest.tensors.items())
    assert toy.command == argv and toy.data.tasks == 2 and toy.metrics["sft_loss_after"] < toy.metrics["sft_loss_before"]
    model, _ = load_policy(tmp_path / "adapter")
    base, _ = load_policy(tiny)
    params, base_params = dict(model.named_parameters()), dict(base.named_parameters())
    assert all(not torch.equal(params[n], base_params[n]) for n in toy.tensors if n.endswith("proj.weight"))  # every block trained


def test_an_adapter_on_the_wrong_base_or_with_other_shapes_is_refused(manifest, tmp_path):
    from transformers import LlamaConfig, LlamaForCausalLM

    tiny = _tiny_like(manifest, tmp_path / "tiny")
    model, _ = load_policy(tiny)
    for p in model.parameters():
        p.requires_grad_(False)
    for p in model.model.layers[-2:].parameters():
        p.requires_grad_(True)
    from rl.adapter import AdapterData, AdapterManifest, save_adapter

    made = save_adapter(tmp_path / "a", model, AdapterManifest(
        base=str(tiny), base_config={}, layers=[], tensors={}, command=[], commit="",
        data=AdapterData(dataset="", excluded_apps=[], tasks=0, families=[], apps=[], samples=0)))
    assert made.layers == [28, 29] and apply_adapter(model, tmp_path / "a") == made
    wider = LlamaForCausalLM(LlamaConfig(**{**model.config.to_dict(), "hidden_size": 32, "intermediate_size": 64}))
    with pytest.raises(AdapterError, match="hidden_size 16 in the manifest, 32 in the base"):
        apply_adapter(wider, tmp_path / "a")
    edited = json.loads((tmp_path / "a" / MANIFEST).read_text())
    edited["tensors"]["model.layers.29.mlp.up_proj.weight"] = [64, 16]
    (tmp_path / "a" / MANIFEST).write_text(json.dumps(edited))
    with pytest.raises(AdapterError, match=r"up_proj.weight \(64, 16\) in the manifest, \(32, 16\) in the file"):
        apply_adapter(model, tmp_path / "a")
    with pytest.raises(PolicyError, match="does not match its manifest"):
        load_policy(tmp_path / "a")  # the loader's error names the layer: a policy that cannot be loaded
