"""The rollouts' samples (`--model-sample`, `--golden-sample`, `--baseline-sample`) cover the families round-robin,
so a model's pass@k reaches every family of a run once the sample is as large as the number of families."""

from __future__ import annotations

from collections import Counter

from factory.tasks.synthesize import SynthConfig, synthesize
from flows.rollouts import _sample


def test_a_sample_takes_one_task_of_every_family_before_a_second_of_any():
    tasks = synthesize(SynthConfig(n=120, seed=0))
    families = list(dict.fromkeys(t.meta.family for t in tasks))
    assert len(families) > 40 and Counter(t.meta.family for t in tasks[: len(families)]).most_common(1)[0][1] > 1  # the first N repeat
    picked = _sample(tasks, len(families))
    assert sorted(t.meta.family for t in picked) == sorted(families)  # every family exactly once
    more = _sample(tasks, len(families) + 5)
    assert more[: len(families)] == picked and len({t.id for t in more}) == len(families) + 5
    assert _sample(tasks, None) == tasks and len(_sample(tasks, 10_000)) == len(tasks)
    assert [t.id for t in _sample(tasks, 3)] == [t.id for t in picked[:3]]
