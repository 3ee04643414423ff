"""Attempts sharing one model decode side by side, one per core, and get the tokens each gets alone."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import torch

from rl.agent import Cores, PolicyAgent
from rl.policy import build_tiny_policy, load_policy

CORPUS = ['[1] link "Inbox"\n[2] button "Star"\nclick(2)\nanswer("")', "You operate web apps in a desktop browser"] * 50


class Watched(Cores):
    """The gate, counting the most passes it let through at once; with two cores both passes must meet inside."""

    peak = 0

    @contextmanager
    def use(self):
        with super().use():
            self.peak = max(self.peak, self.active)
            if self.cores == 2:
                self.meet.wait()  # raises BrokenBarrierError if the other pass is kept out
            else:
                time.sleep(0.05)  # time for the other thread to get in, were the gate open
            yield

    def __init__(self, cores: int):
        super().__init__(cores)
        self.meet = threading.Barrier(2, timeout=20)


def _prompts(tokenizer) -> list[list[int]]:
    return [tokenizer("You operate web apps\n[1] link \"Inbox\"")["input_ids"], tokenizer("[2] button \"Star\"\nclick(")["input_ids"]]


def test_two_attempts_decode_at_once_and_get_what_each_gets_alone(tmp_path):
    model, tokenizer = load_policy(build_tiny_policy(tmp_path / "tiny", CORPUS, vocab_size=400, n_embd=32))
    threads = torch.get_num_threads()
    alone = [PolicyAgent.from_model(model, tokenizer, temperature=0.0, max_new_tokens=12)._generate(p) for p in _prompts(tokenizer)]
    for cores, peak in ((2, 2), (1, 1)):
        gate = Watched(cores)
        agents = [PolicyAgent.from_model(model, tokenizer, temperature=0.0, max_new_tokens=12, lock=gate) for _ in range(2)]
        with ThreadPoolExecutor(2) as pool:
            together = list(pool.map(lambda job: job[0]._generate(job[1]), zip(agents, _prompts(tokenizer))))
        for (tokens, logps), (want, want_logps) in zip(together, alone):
            assert tokens == want  # greedy: the same reply (log-probs may differ in the last bits with another thread count)
            assert max(abs(a - b) for a, b in zip(logps, want_logps)) < 1e-4
        assert gate.peak == peak and gate.active == 0
    assert torch.get_num_threads() == threads  # the last pass out restores torch's threads
