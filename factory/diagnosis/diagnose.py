"""Diagnosis: an agent's stored attempts -> a weakness profile (rules offline; an LLM refines it when configured).

Each failed attempt is one unit of blame. When the rules implicate capabilities (the step where it
first left the reference; failing that, a search that found nothing, an app never opened, a
confirmation never pressed), the unit is split among those; when they implicate none, it is spread over everything
the task exercised, which says little about any one capability. A capability's score is its
blame over the attempts that exercised it (plus one, so thin evidence ranks lower), and its
confidence grows with the failures attributed to it and with the share a rule backs.
"""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel, ConfigDict, Field

from contracts.status import SCORED
from runtime.dashboard.data import TrajectoryView, run_of
from runtime.store import StepRecord

from .profile import AttemptFinding, CapabilityWeakness, WeaknessProfile
from .rules import attempt_findings, exercised

__all__ = ["DiagnoseConfig", "diagnose"]

_EVIDENCE_PRIOR = 4.0  # failures needed for confidence 0.5 (rule-backed)


class DiagnoseConfig(BaseModel):
    """Which attempts to diagnose."""

    model_config = ConfigDict(frozen=True)

    agent: str = Field(description="The agent whose weaknesses are wanted.")
    runs: tuple[str, ...] | None = Field(default=None, description="Only attempts of these runs (default: every run of the agent).")
    llm: str | None = Field(default=None, description="LLM provider that refines the ranking (None: rules only); see factory.providers.")


def diagnose(view: TrajectoryView, config: DiagnoseConfig) -> WeaknessProfile:
    """The weakness profile of `config.agent` over its stored attempts (env errors left out and counted)."""
    attempts = [a for a in view.attempts(agent=config.agent) if config.runs is None or run_of(a) in config.runs]
    scored = [a for a in attempts if a.outcome is not None and a.outcome.status in SCORED]
    env_errors = sum(a.outcome is not None and a.outcome.status == "env_error" for a in attempts)
    references: dict[str, list[StepRecord] | None] = {}
    stats: dict[str, dict] = defaultdict(lambda: {"attempts": 0, "failures": 0, "blame": 0.0, "ruled": 0.0, "evidence": []})
    findings: list[AttemptFinding] = []
    for a in scored:
        if a.task_id not in references:
            ref = view.reference(a)
            references[a.task_id] = view.steps(ref.id) if ref is not None and ref.agent != config.agent else None
        ref_steps = references[a.task_id]
        caps = exercised(a, ref_steps)
        mine: list[AttemptFinding] = []
        if not a.outcome.success:
            last_page = ((view.final(a) or {}).get("last_page") or {}).get("axtree")
            mine = attempt_findings(a, view.steps(a.id), ref_steps, last_page)
            findings.extend(mine)
        first = [f for f in mine if f.kind.startswith(("diverged", "stopped_before", "left_unconfirmed")) and f.capabilities]
        implicated = {c for f in (first or mine) for c in f.capabilities}  # the first divergence explains what follows
        for c in caps | implicated:
            stats[c]["attempts"] += 1
        if a.outcome.success:
            continue
        blamed, ruled = (implicated, True) if implicated else (caps, False)
        for c in blamed:
            s = stats[c]
            s["failures"] += 1
            s["blame"] += 1.0 / len(blamed)
            s["ruled"] += (1.0 / len(blamed)) if ruled else 0.0
            s["evidence"].append(a.id)
        for c in caps - blamed:
            stats[c]["failures"] += 1
    rows = []
    for c, s in stats.items():
        evidence = len(s["evidence"])
        rule_share = s["ruled"] / s["blame"] if s["blame"] else 0.0
        confidence = (0.5 + 0.5 * rule_share) * evidence / (evidence + _EVIDENCE_PRIOR) if evidence else 0.0
        rows.append(CapabilityWeakness(
            capability=c, attempts=s["attempts"], failures=s["failures"],
            failure_rate=round(s["failures"] / s["attempts"], 3) if s["attempts"] else 0.0,
            blame=round(s["blame"], 3), score=round(s["blame"] / (s["attempts"] + 1), 4), confidence=round(confidence, 3),
            evidence=tuple(s["evidence"][:20])))
    rows.sort(key=lambda r: (-r.score, -r.failure_rate, r.capability))
    profile = WeaknessProfile(agent=config.agent, runs=tuple(sorted({run_of(a) for a in attempts})), attempts=len(scored),
                              failures=sum(not a.outcome.success for a in scored), env_errors=env_errors,
                              capabilities=tuple(rows), findings=tuple(findings))
    if config.llm is not None:
        from .llm import refine

        profile = refine(profile, config.llm)
    return profile
