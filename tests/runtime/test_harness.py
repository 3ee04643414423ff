"""The harness: prompts from observations, K=10/O=2 windows, append-only prompts, parse feedback, prefill."""

from __future__ import annotations

import pytest

from runtime.harness import Harness, ImagePart, TextPart, prefill_tokens, window_of, windows
from runtime.observation import Observation

AXTREE = '[1] link "Inbox" current\n[2] button "Compose"\n[3] textbox "Subject" value=""\nheading "Invoice INV-{n}" level=1'


class _Images:
    """A dict-backed image source (the object store's `get`)."""

    def __init__(self):
        self.data: dict[str, bytes] = {}

    def get(self, key: str) -> bytes:
        return self.data[key]


def _obs(n: int, images: _Images | None = None, **kw) -> Observation:
    key = None
    if images is not None:
        key = f"shots/{n}.png"
        images.data[key] = b"\x89PNG fake " + str(n).encode()
    return Observation(step=n, url=f"http://127.0.0.1/i/x/page/{n}", axtree=AXTREE.format(n=n), screenshot=key, **kw)


def _episode(n_steps: int, images: _Images | None = None) -> tuple[Harness, list]:
    h = Harness("Reply to the invoice email", vision=images is not None, images=images)
    prompts = []
    for t in range(n_steps):
        obs = _obs(t, images)
        prompts.append(h.prompt(obs))
        h.record(obs, f"I will open the inbox.\nclick({1 + t % 3})")
    return h, prompts


@pytest.mark.parametrize("view, compose", [("compact", "[2] button Compose"), ("full", '[2] button "Compose"')])
def test_prompt_has_instruction_action_doc_axtree_url_and_errors(view, compose):
    h = Harness("Reply to the invoice email", form_factor="mobile", view=view)
    p = h.prompt(_obs(0, last_action_error="element [9] not found", shell_output=None))
    text = p.text()
    assert "Reply to the invoice email" in p.system
    assert "click(12)" in p.system and "shell(" not in p.system  # mobile has no shell
    assert compose in text and "http://127.0.0.1/i/x/page/0" in text
    assert "element [9] not found" in text
    desktop = Harness("x", view=view).prompt(_obs(0, shell_output="total 0\nnotes.txt"))
    assert "shell(" in desktop.system and "notes.txt" in desktop.text()


def test_an_unknown_view_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown view 'tiny'; use one of compact, full"):
        Harness("x", view="tiny")


def test_window_structure_k10_o2():
    ws = windows(30)
    assert [(w.context, w.new) for w in ws] == [
        ((), tuple(range(0, 10))),
        ((8, 9), tuple(range(10, 18))),
        ((16, 17), tuple(range(18, 26))),
        ((24, 25), tuple(range(26, 30))),
    ]
    assert all(len(w.steps) <= 10 for w in ws)
    assert window_of(17).index == 1 and window_of(18).index == 2
    with pytest.raises(ValueError):
        windows(5, size=4, overlap=4)


def test_prompts_only_grow_inside_a_window_and_screenshots_become_placeholders_at_a_boundary():
    images = _Images()
    h, prompts = _episode(30, images)
    for t in range(1, 30):
        prev, cur = prompts[t - 1].messages, prompts[t].messages
        if window_of(t).index == window_of(t - 1).index:
            assert cur[: len(prev)] == prev, f"prompt {t} is not an extension of prompt {t - 1}"
            assert len(cur) == len(prev) + 2
        else:
            assert cur[0] == prev[0] and cur[1] != prev[1]  # same system message; history restarts
    p10 = prompts[10]  # window 1: steps 8, 9 carried over, then step 10
    assert [m.role for m in p10.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert "## Step 8" in p10.messages[1].text() and "[screenshot of step 8 omitted]" in p10.messages[1].text()
    assert not any(isinstance(part, ImagePart) for part in p10.messages[1].parts)
    assert [img.key for img in p10.images()] == ["shots/10.png"]
    assert len(prompts[9].images()) == 10  # a full window keeps all its screenshots
    assert prompts[9].images()[0].data == b"\x89PNG fake 0"


def test_a_replayed_trajectory_gives_back_the_prompt_seen_at_each_step():
    images = _Images()
    h, prompts = _episode(12, images)
    again = Harness.replay("Reply to the invoice email", h.turns, vision=True, images=images)
    assert [again.prompt_at(t) for t in range(12)] == prompts
    with pytest.raises(IndexError, match="step 12 of a trajectory of 12 steps"):
        again.prompt_at(12)


def test_parse_error_becomes_feedback_not_a_crash():
    h = Harness("x")
    obs = _obs(0)
    turn = h.record(obs, "I think I should click the compose button")
    assert turn.action is None and "no action found" in turn.error
    nxt = h.prompt(obs)
    assert "not a valid action" in nxt.messages[-1].text() and "no action found" in nxt.messages[-1].text()
    turn = h.record(obs, 'fill(3, "Re: Invoice")')
    assert turn.action == "fill(3, 'Re: Invoice')" and turn.error is None
    assert h.record(obs, "explode(3)").error.startswith("unknown action")


def test_window_samples_mark_only_new_steps_for_training():
    h, _ = _episode(20)
    samples = h.samples()
    assert len(samples) == 3  # steps 0-9, 8-17, 16-19
    trained = [[m.train for m in s.messages if m.role == "assistant"] for s in samples]
    assert trained == [[True] * 10, [False, False] + [True] * 8, [False, False, True, True]]
    assert all(isinstance(p, TextPart) for s in samples for m in s.messages for p in m.parts)


def test_prefill_ratio_at_least_3x_on_a_30_step_episode():
    h, _ = _episode(30)
    words = lambda text: len(text.split())  # noqa: E731
    windowed = prefill_tokens(h, "window", words)
    last_k = prefill_tokens(h, "last_k", words)
    assert last_k / windowed >= 3.0, (last_k, windowed)
    # the same holds for a vision trajectory, where each screenshot costs image tokens
    hv, _ = _episode(30, _Images())
    assert prefill_tokens(hv, "last_k", words) / prefill_tokens(hv, "window", words) >= 3.0
    # short episodes fit one window: both modes are append-only and prefill the same
    short, _ = _episode(8)
    assert prefill_tokens(short, "window", words) == prefill_tokens(short, "last_k", words)


def test_prefill_with_a_real_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    h, prompts = _episode(30)
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel()
    tok.train_from_iterator([p.text() for p in prompts[:3]], trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"]))
    windowed = prefill_tokens(h.turns, "window", tok, instruction="Reply to the invoice email")
    last_k = prefill_tokens(h.turns, "last_k", tok, instruction="Reply to the invoice email")
    assert windowed > 0 and last_k / windowed >= 3.0
