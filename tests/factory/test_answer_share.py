"""Issue 28: looking things up and reporting them is half of what agents are asked in the seed papers; at least a
fifth of the default run's tasks ask for an answer, single-app and cross-app, each judged by the kit's matcher."""

from __future__ import annotations

from factory.tasks.synthesize import Author, synthesize
from flows.config import PipelineConfig


def test_a_fifth_of_the_default_run_asks_for_an_answer_and_some_across_apps():
    tasks = synthesize(PipelineConfig().synth, Author())
    asks = [t for t in tasks if "env.answer(" in t.golden]
    assert len(asks) >= len(tasks) / 5, f"{len(asks)} of {len(tasks)} tasks ask for an answer"
    assert all("answer_matches(" in t.verifier or "is_answer(" in t.verifier for t in asks), \
        sorted({t.meta.family for t in asks if "answer_matches(" not in t.verifier and "is_answer(" not in t.verifier})
    assert len({t.meta.family for t in asks if t.meta.cross_app}) >= 2
    assert len({a for t in asks for a in t.apps}) >= 12  # most apps ask something
