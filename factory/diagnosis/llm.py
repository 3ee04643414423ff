"""The LLM diagnoser: a model reads the rules' profile and findings and re-ranks the capabilities, in words.

Used when a provider with a key is configured (`DiagnoseConfig.llm`, or `default_llm()` picks one from
the environment). Its answer is schema-validated and may only name capabilities of the fixed
vocabulary and attempt ids that were shown; the numbers (rates, blame, evidence) stay the rules'.
A provider that gives no usable answer leaves the rules' profile as it was, summary noting why.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field

from contracts.task import Capability
from factory.providers import get_provider
from factory.providers.base import ProviderError
from factory.providers.registry import default_provider_name

from .profile import WeaknessProfile

__all__ = ["LLMVerdict", "default_llm", "refine"]

_SYSTEM = ("You diagnose GUI agents. You get a weakness profile computed by rules from failed attempts, and the rule "
           "findings. Rank the capabilities from weakest to strongest, using only capabilities listed, and explain the "
           "main weakness in two or three sentences, citing attempt ids. Answer as JSON: "
           '{"ranking": ["capability", ...], "summary": "..."}')


class LLMVerdict(BaseModel):
    """The model's answer: a ranking over the profile's capabilities and a short explanation."""

    model_config = ConfigDict(frozen=True)

    ranking: list[Capability] = Field(min_length=1)
    summary: str = Field(min_length=1, max_length=2000)


def default_llm() -> str | None:
    """The provider the environment configures (a key is set), or None for rules only."""
    name = default_provider_name()
    return None if name == "template" else name


def refine(profile: WeaknessProfile, provider_name: str) -> WeaknessProfile:
    """The profile re-ranked by the model (capabilities it leaves out keep their order, after the ones it ranked)."""
    facts = {"agent": profile.agent, "attempts": profile.attempts, "failures": profile.failures,
             "capabilities": [c.model_dump(include={"capability", "attempts", "failures", "failure_rate", "score", "evidence"})
                              for c in profile.capabilities],
             "findings": [f.model_dump(include={"attempt_id", "task_id", "level", "kind", "detail", "capabilities"})
                          for f in profile.findings[:60]]}
    provider = get_provider(provider_name)
    try:
        verdict = provider.structured([{"role": "system", "content": _SYSTEM}, {"role": "user", "content": json.dumps(facts, default=str)}],
                                      LLMVerdict)
    except ProviderError as err:
        return profile.model_copy(update={"summary": f"LLM diagnoser unavailable ({err}); ranking by rules"})
    finally:
        provider.close()
    known = {c.capability: c for c in profile.capabilities}
    ranked = [known[c] for c in dict.fromkeys(verdict.ranking) if c in known]
    rest = [c for c in profile.capabilities if c not in ranked]
    model = getattr(provider, "model", None) or provider.name
    return profile.model_copy(update={"capabilities": tuple(ranked + rest), "summary": verdict.summary,
                                      "diagnoser": f"rules+llm:{model}"})
