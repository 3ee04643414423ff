"""Teacher-forced step scores are what greedy decoding writes: a step scores `action` exactly when the greedy reply to
that step's prompt is the golden action, before and after the policy learns the demonstration."""

from __future__ import annotations

import pytest

from contracts.task import Task
from rl.agent import PolicyAgent
from rl.chat import ChatFormat
from rl.demos import Demo
from rl.forced import SharedTrunk, StepScore, argument_end, paired, score_steps, summarize
from rl.policy import build_tiny_policy, disable_dropout, freeze_below, load_policy
from rl.sft import sft, sft_samples
from runtime.actions import STOP
from runtime.harness import Harness, Turn
from runtime.observation import Observation

TREE = '[1] link "Notes"\n[2] link "New note"\nmain\n  [{a}] link "Groceries"\n  [{b}] link "Book club"\n  [9] textbox "Title"'
INSTRUCTION = "Rename the note 'Book club' to 'Pay rent'."
GOLDEN = ["click(5)", "fill(9, 'Pay rent')", "press('Enter')", STOP]
CORPUS = [TREE.format(a=4, b=5) + "\n" + "\n".join(GOLDEN) + f"\n{INSTRUCTION}"] * 40


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = build_tiny_policy(tmp_path_factory.mktemp("tiny"), CORPUS, vocab_size=300, n_positions=2048, n_embd=64)
    model, tokenizer = load_policy(path)
    disable_dropout(model)
    return model, tokenizer


def _demo() -> Demo:
    task = Task(id="notes.rename-1", apps=("notes",), instruction=INSTRUCTION, criteria=[{"id": "ok", "description": "ok"}],
                verifier="def verify(final):\n    return {'ok': True}\n", golden="def solve(env):\n    pass\n", meta={"family": "f"})
    turns = tuple(Turn(observation=Observation(step=i, url=f"http://127.0.0.1/i/x/note/{i}", axtree=TREE.format(a=4, b=5)),
                       output=a, action=a) for i, a in enumerate(GOLDEN))
    return Demo(task, turns, -1)


def _greedy(model, tokenizer, demo: Demo) -> list[str]:
    """The greedy reply at each step of `demo`, its golden history in the prompt: what an agent would write there."""
    harness = Harness.replay(demo.task.instruction, demo.turns)
    agent = PolicyAgent.from_model(model, tokenizer, temperature=0.0, max_new_tokens=16)
    return [agent.sample(harness.prompt_at(step)).text for step in range(len(demo.turns))]


def _agree(scores: list[StepScore], replies: list[str]) -> None:
    for s in scores:
        assert s.action == (replies[s.step] == s.golden), (s, replies[s.step])
        if s.kind:
            assert replies[s.step].startswith(s.golden[: s.golden.index("(") + 1])
        if s.element:
            assert replies[s.step].startswith(s.golden[: argument_end(s.golden)])


def test_scores_are_what_greedy_writes_before_and_after_learning_the_demonstration(tiny):
    model, tokenizer = tiny
    demo = _demo()
    before = score_steps(model, tokenizer, [demo])
    assert [s.step for s in before] == [0, 1, 2, 3] and [s.golden for s in before] == GOLDEN
    _agree(before, _greedy(model, tokenizer, demo))
    assert not all(s.action for s in before)  # an untrained model does not write the golden run

    freeze_below(model, None)
    sft(model, sft_samples([demo], ChatFormat(tokenizer)), tokenizer.pad_token_id, epochs=60, lr=3e-3, batch_size=1)
    after = score_steps(model, tokenizer, [demo])
    replies = _greedy(model, tokenizer, demo)
    _agree(after, replies)
    assert all(s.action for s in after), [(s.golden, r) for s, r in zip(after, replies)]
    assert sum(s.nll for s in after) < sum(s.nll for s in before)
    summary = summarize(after)
    assert (summary["steps"], summary["stop_steps"], summary["action"], summary["stop"]) == (3, 1, 1.0, 1.0)
    assert summary["by_kind"] == {"click": [1, 1, 1], "fill": [1, 1, 1], "press": [1, 1, 1], "stop": [1, 1, 1]}
    assert summary["action_ci"] == (1.0, 1.0)

    cut = score_steps(model, tokenizer, [demo], max_steps=2)  # the steps an attempt of 2 steps is given
    assert [s.step for s in cut] == [0, 1]


@pytest.mark.parametrize("action, end", [("click(12)", "click(12"), ("click('Rooms')", "click('Rooms'"),
                                         ("fill('Search, rooms', 'Tundra')", "fill('Search, rooms'"),
                                         ("fill(7, \"it's\")", "fill(7"), ("answer('')", "answer(''"),
                                         ("select('A \\' b', 'x')", "select('A \\' b'"), ("scroll()", "scroll(")])
def test_the_first_argument_ends_where_the_element_or_the_answer_does(action, end):
    assert action[: argument_end(action)] == end


def test_intervals_resample_whole_demonstrations_and_stops_count_apart():
    def step(task, i, hit, golden="click(1)"):
        return StepScore(task, i, golden, hit, hit, True, 1.0, 3, "")

    scores = [step("a", 0, True), step("a", 1, True), step("a", 2, True), step("b", 0, False), step("b", 1, False, STOP)]
    s = summarize(scores, seed=1)
    assert (s["steps"], s["tasks"], s["stop_steps"], s["stop"]) == (4, 2, 1, 0.0)
    assert s["action"] == 0.75 and s["kind"] == 1.0 and s["by_kind"] == {"click": [4, 3, 3], "stop": [1, 0, 0]}
    lo, hi = s["action_ci"]
    assert lo == 0.0 and hi == 1.0  # two demonstrations: drawing b twice gives 0, a twice gives 1


def test_a_step_whose_prompt_does_not_fit_the_context_is_a_miss_not_a_crash(tmp_path):
    path = build_tiny_policy(tmp_path / "short", CORPUS, vocab_size=300, n_positions=64, n_embd=32)
    model, tokenizer = load_policy(path)
    scores = score_steps(model, tokenizer, [_demo()])
    assert len(scores) == 4 and not any(s.fits or s.action or s.kind for s in scores)
    assert summarize(scores)["too_long"] == 3 and summarize(scores)["kind"] == 0.0


def _llama(tokenizer, seed: int):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=4, num_attention_heads=4,
                         num_key_value_heads=2, max_position_embeddings=2048, tie_word_embeddings=True)
    return LlamaForCausalLM(config).eval()


def test_models_that_share_their_lower_blocks_run_them_once_and_score_as_the_whole_model(tiny):
    import torch

    _, tokenizer = tiny
    base, other = _llama(tokenizer, 0), _llama(tokenizer, 0)
    with torch.no_grad():  # a checkpoint trained above the lower 2 blocks
        for p in other.model.layers[2:].parameters():
            p.add_(torch.randn_like(p) * 0.5)
    demo = _demo()
    shared = SharedTrunk(trained=2)
    for model in (base, other):
        whole = score_steps(model, tokenizer, [demo])
        split = score_steps(model, tokenizer, [demo], shared=shared)
        assert [(s.action, s.element, s.kind, s.predicted) for s in split] == [(s.action, s.element, s.kind, s.predicted) for s in whole]
        assert all(abs(a.nll - b.nll) < 1e-4 for a, b in zip(split, whole))
    assert len(shared.kept) == 1  # the demonstration's one window, run through the lower blocks once for both models
    assert score_steps(base, tokenizer, [demo], shared=shared)[0].nll != score_steps(other, tokenizer, [demo], shared=shared)[0].nll
    moved = _llama(tokenizer, 1)  # other lower blocks: their own hidden states, not the kept ones
    assert [s.nll for s in score_steps(moved, tokenizer, [demo], shared=shared)] == pytest.approx(
        [s.nll for s in score_steps(moved, tokenizer, [demo])], abs=1e-4)
    assert shared.for_model(tiny[0]) is None  # GPT-2-like blocks: the whole model runs


def test_paired_differences_compare_the_same_steps_and_resample_instances():
    def step(task, i, hit, golden="click(1)"):
        return StepScore(task, i, golden, hit, hit, True, 1.0, 3, "")

    before = [step("a", 0, False), step("a", 1, True), step("b", 0, False), step("b", 1, False, STOP), step("c", 0, True)]
    after = [step("a", 0, True), step("a", 1, True), step("b", 0, True), step("b", 1, True, STOP), step("d", 0, True)]
    gain = paired(before, after, "action", seed=0)
    assert gain["steps"] == 3 and gain["difference"] == pytest.approx(2 / 3)  # c and d were scored by one side only; stops apart
    assert gain["ci"][0] <= gain["difference"] <= gain["ci"][1] <= 1.0
    assert paired(after, before, "action")["difference"] == pytest.approx(-2 / 3)
