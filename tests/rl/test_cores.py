"""`rl.agent.Cores`: passes of attempts sharing one model, side by side in rollout threads, leave torch's thread
count as they found it, so the trainer's main thread, which starts using torch afterwards, trains on every core."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import torch

from rl.agent import THREADS, Cores


def _pass(cores: Cores) -> int:
    with cores.use():
        x = torch.randn(128, 128)
        (x @ x).sum()
    return torch.get_num_threads()


def test_threads_that_start_using_torch_after_concurrent_passes_get_the_process_count():
    cores = Cores(cores=2)
    with ThreadPoolExecutor(2) as pool:  # two attempts decoding side by side: one thread each while both run
        after = set(pool.map(lambda _: _pass(cores), range(40)))
    assert after == {THREADS}
    seen: list[int] = []
    trainer = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))  # the trainer's first use of torch
    trainer.start()
    trainer.join()
    assert seen == [THREADS]
