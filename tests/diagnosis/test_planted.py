"""Diagnosis finds planted weaknesses: each flawed agent (one capability broken, everything else golden) is
diagnosed with that capability at the top, on real rollouts, by the offline rules."""

from __future__ import annotations

from factory.diagnosis import DiagnoseConfig, diagnose
from runtime.dashboard.data import TrajectoryView
from runtime.store import TrajectoryStore

from .conftest import PLANTED


def test_each_planted_weakness_is_diagnosed_at_the_top(planted):
    path, reports = planted
    assert all(r.status == "success" for r in reports["golden"].results), "the oracle must solve every task"
    view = TrajectoryView(TrajectoryStore(path))
    hits, tops = 0, {}
    for capability in PLANTED:
        agent = f"flawed-{capability}"
        results = reports[agent].results
        assert any(r.status == "failure" for r in results) and any(r.status == "success" for r in results), agent
        profile = diagnose(view, DiagnoseConfig(agent=agent))
        tops[capability] = profile.top(1)
        top = profile.capabilities[0]
        hits += tops[capability] == [capability]
        assert top.evidence and set(top.evidence) <= {r.attempt_id for r in results if r.status == "failure"}
        assert 0 < top.confidence <= 1 and top.failure_rate > 0
        assert profile.attempts == len(results) and profile.failures == sum(r.status == "failure" for r in results)
        assert {f.level for f in profile.findings} >= {"action", "knowledge"}
    precision = hits / len(PLANTED)
    print(f"planted weaknesses diagnosed at the top: {hits}/{len(PLANTED)} ({tops})")
    assert precision >= 0.9, tops


def test_a_golden_agent_has_no_weakness(planted):
    path, _ = planted
    profile = diagnose(TrajectoryView(TrajectoryStore(path)), DiagnoseConfig(agent="golden"))
    assert profile.failures == 0 and profile.top(1) == [] and profile.weights() == {}
