"""The dataset's `demonstrations` config: validation records every accepted task's golden run (real apps, real
Chromium), the export embeds its screenshots in parquet, `datasets` loads it, and TRL's SFTTrainer trains on it."""

from __future__ import annotations

import math
import shutil

import datasets
import pytest

from factory.tasks.synthesize import SynthConfig, synthesize
from factory.verifiers.validate import ValidationConfig, validate_task
from flows.dataset import export
from flows.demonstrations import BUDGET, rows as demo_rows, tokens
from flows.run_evidence import gather
from runtime.axtree import compact_tree
from runtime.harness import Message, Prompt, TextPart, seen_elements, system_prompt
from runtime.manager import EnvironmentManager
from runtime.objectstore import ObjectStore

# a plain chat template for the tiny policy: SFTTrainer renders `messages` with the tokenizer's template
TEMPLATE = "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}\n{% endfor %}{{ eos_token }}"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run folder of two validated tasks (one validation run each, screenshots on) and its exported dataset."""
    root = tmp_path_factory.mktemp("run")
    mp = pytest.MonkeyPatch()
    mp.setenv("GYMFACTORY_HOME", str(root / "home"))
    tasks = synthesize(SynthConfig(n=2, seed=5))
    objects = ObjectStore(root / "objects")
    try:
        with EnvironmentManager(screenshots=objects) as manager:
            results = [validate_task(t, manager, ValidationConfig(runs=1, screenshots=True)) for t in tasks]
    finally:
        mp.undo()
    assert all(r.accepted for r in results), [r.detail for r in results]
    (root / "tasks").mkdir()
    (root / "tasks" / "validation.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    folder = export(tasks, root / "dataset", evidence=gather(root), objects=objects)
    return {"tasks": tasks, "results": results, "objects": objects, "folder": folder, "root": root}


def test_every_golden_step_is_a_row_with_its_screenshot_and_the_harness_prompt(run):
    tasks, results = run["tasks"], run["results"]
    # validation keeps the pages of its first golden run only: each step's page, and the page after the last action
    assert len(run["objects"].keys()) == sum(len(r.golden_actions) + 1 for r in results)
    copy = run["root"] / "published"
    shutil.copytree(run["folder"], copy)
    shutil.rmtree(run["objects"].root)  # the folder alone must carry the images
    rows = datasets.load_dataset(str(copy), "demonstrations", split="train")
    # each golden action, then answer('') on the last page where the golden code returned without answering
    assert [[s.action for s in r.golden_steps] for r in results] == [
        [*r.golden_actions] + ([] if r.golden_actions[-1].startswith("answer(") else ["answer('')"]) for r in results]
    assert len(rows) == sum(len(r.golden_steps) for r in results) > len(tasks)
    assert set(rows.features) >= {"task_id", "step", "family", "apps", "instruction", "axtree", "screenshot", "action", "messages"}
    assert isinstance(rows.features["screenshot"], datasets.Image)
    for task, result in zip(tasks, results):
        mine = [r for r in rows if r["task_id"] == task.id]
        assert [r["action"] for r in mine] == [s.action for s in result.golden_steps]
        assert [r["step"] for r in mine] == list(range(len(mine)))
        first = mine[0]
        assert (first["family"], first["apps"], first["instruction"]) == (task.meta.family, list(task.apps), task.instruction)
        assert first["screenshot"].size == (1280, 800)
        assert first["url"].startswith("/i/<instance>") and "[" in first["axtree"]
        whole = list(demo_rows(task, list(result.golden_steps), None, budget=10**6))
        for row in mine:
            roles = [m["role"] for m in row["messages"]]
            assert roles[0] == "system" and roles[-2:] == ["user", "assistant"]
            assert row["messages"][0]["content"] == system_prompt(task.instruction, task.form_factor)
            assert row["messages"][-1]["content"] == row["action"]
            # the prompt shows this step's page (in the compact view, perhaps as its changes from the step before): every element
            prompt = Prompt(messages=tuple(Message(role=m["role"], parts=(TextPart(text=m["content"]),)) for m in row["messages"][:-1]))
            assert seen_elements(prompt) == {int(line[1:line.index("]")]): line for line in compact_tree(row["axtree"]).splitlines()
                                             if line.startswith("[")}
            # the history window: every earlier step, then this one; past BUDGET tokens the oldest steps go (tested below)
            assert len(row["messages"]) == 3 + 2 * row["step"] or tokens(whole[row["step"]]["messages"]) > BUDGET
    tasks_config = datasets.load_dataset(str(copy), split="train")
    assert len(tasks_config) == len(tasks) and tasks_config[0]["demonstration"][0]["action"] == results[0].golden_actions[0]


def test_sft_trainer_takes_a_step_on_the_demonstrations(run, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from rl.policy import build_tiny_policy

    rows = datasets.load_dataset(str(run["folder"]), "demonstrations", split="train")
    corpus = [m["content"] for r in rows for m in r["messages"]]
    path = build_tiny_policy(tmp_path / "tiny", corpus, vocab_size=512, n_positions=1024)
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.chat_template = TEMPLATE
    model = AutoModelForCausalLM.from_pretrained(path)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = SFTConfig(output_dir=str(tmp_path / "out"), max_steps=1, per_device_train_batch_size=2, learning_rate=1e-3,
                     max_length=1024, logging_steps=1, save_strategy="no", report_to="none", use_cpu=True, seed=0)
    trainer = SFTTrainer(model=model, args=args, train_dataset=rows, processing_class=tokenizer)
    out = trainer.train()
    assert trainer.state.global_step == 1 and math.isfinite(out.training_loss) and out.training_loss > 0
    assert any(not torch.equal(p, before[n]) for n, p in model.named_parameters())


def _sft_max_length() -> int:
    """The `max_length` of docs/interop.md's SFT recipe."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "interop.md").read_text()
    block = doc[doc.index("<!-- example: sft -->"):]
    return int(re.search(r"max_length=(\d+)", block[:block.index("```\n", block.index("```python") + 9)])[1])


def test_every_action_survives_the_documented_sft_recipe_with_the_reference_tokenizer(run, tmp_path):
    """TRL's SFTTrainer tokenizes the rows with the reference model's chat template and keeps the start of each up to the
    doc's max_length: every row fits the budget, so every golden action is inside what it trains on."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from flows.demonstrations import BUDGET, counted, tokens
    from rl.models import REFERENCE, resolve_policy

    rows = datasets.load_dataset(str(run["folder"]), "demonstrations", split="train")
    assert all(tokens(r["messages"]) == counted(r["messages"]) <= BUDGET for r in rows)
    assert _sft_max_length() >= BUDGET
    folder = resolve_policy(REFERENCE)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    args = SFTConfig(output_dir=str(tmp_path / "out"), max_length=_sft_max_length(), report_to="none", use_cpu=True,
                     save_strategy="no")
    trainer = SFTTrainer(model=AutoModelForCausalLM.from_pretrained(folder), processing_class=tokenizer, train_dataset=rows, args=args)
    kept = trainer.train_dataset
    assert len(kept) == len(rows)
    for row, ids in zip(rows, kept["input_ids"]):
        assert tokenizer.decode(ids).endswith(f"<|im_start|>assistant\n{row['action']}<|im_end|>\n"), row["action"]
    assert max(len(ids) for ids in kept["input_ids"]) <= BUDGET


def test_a_row_over_the_budget_drops_its_oldest_steps_then_cuts_its_page_never_the_task_or_the_action(run):
    """At a small budget the same demonstrations lose history first (the first step left is a whole page, as the harness
    writes it with the steps before it unseen), then the lines of a page far from the action's element."""
    from flows.demonstrations import _CUT, counted, rows as demo_rows
    from runtime.actions import parse_action
    from runtime.harness import Harness

    evidence = gather(run["root"])
    budget = 800
    shortened = cut = 0
    for task in run["tasks"]:
        steps = evidence.demonstrations[task.id]
        full = list(demo_rows(task, steps, None, budget=10**6))
        for whole, row in zip(full, demo_rows(task, steps, None, budget=budget)):
            messages = row["messages"]
            assert counted(messages) <= budget
            assert messages[0] == whole["messages"][0] and messages[-1] == {"role": "assistant", "content": row["action"]}
            prompt = Prompt(messages=tuple(Message(role=m["role"], parts=(TextPart(text=m["content"]),)) for m in messages[:-1]))
            element = getattr(parse_action(row["action"]), "element", None)
            assert element is None or element in seen_elements(prompt), row["action"]
            if _CUT in messages[-2]["content"]:
                cut += 1
                assert len(messages) == 3
            elif messages != whole["messages"]:
                shortened += 1
                shown = (len(messages) - 3) // 2  # the same prompt as the harness's with the last `shown` steps only
                recent = Harness.replay(task.instruction, _turns(task, steps, row["step"]), task.form_factor, mode="last_k",
                                        window=shown + 1, overlap=0)
                assert messages[:-1] == [{"role": m.role, "content": m.text()} for m in recent.prompt(_obs(steps, row["step"])).messages]
    assert shortened and cut, (shortened, cut)


def _turns(task, steps, n):
    from runtime.harness import Harness

    harness = Harness(task.instruction, task.form_factor)
    for index in range(n):
        harness.record(_obs(steps, index), steps[index].action)
    return harness.turns


def _obs(steps, index):
    from runtime.observation import Observation

    s = steps[index]
    return Observation(step=index, url=s.url, axtree=s.axtree, last_action_error=s.error, shell_output=s.shell_output)


def test_bench_prompts_measures_both_views_of_the_dataset_and_prints_its_targets(run, tmp_path):
    """`gymfactory bench prompts` on an exported dataset: the compact view costs fewer prompt tokens than the full one,
    every golden step's element is in the compact prompt, and the targets are printed beside the numbers."""
    import json

    from typer.testing import CliRunner

    from gymfactory.cli import build

    out = tmp_path / "prompts.json"
    result = CliRunner().invoke(build(), ["bench", "prompts", "--dataset", str(run["folder"]), "--out", str(out)],
                                env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    numbers = json.loads(out.read_text())
    full, compact = numbers["views"]["full"], numbers["views"]["compact"]
    steps = sum(len(r.golden_steps) for r in run["results"])  # the golden actions, and answer("") where the golden code stopped
    assert numbers["tasks"] == len(run["tasks"]) and full["steps"] == compact["steps"] == steps
    assert 0 < compact["prompt_tokens_per_attempt_shared_start"] <= compact["prompt_tokens_per_attempt"] < full["prompt_tokens_per_attempt"]
    assert 0 < compact["of_them_seen"] == compact["steps_naming_an_element"] <= steps
    assert "target < 0.5x" in result.output and "target >= 100%" in result.output
